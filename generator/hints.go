package generator

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// Hints for the two commonest wrong inputs, each one line that says what to
// give instead of what is wrong with every file; the caller reports it as a
// configuration error.

// missingFlexible starts the diagnostic of a spec without flexibleVersions
// (Kafka's own wording, which the loader keeps).
const missingFlexible = "You must specify a value for flexibleVersions."

// releaseHint is the message for a folder of Kafka 2.x specs read without
// -release, or "" when in is not one: some of its specs lack
// flexibleVersions, which Kafka 3.0 made mandatory, and the folder loads
// under the 2.x rules. Kafka 2.2 and 2.3 have no flexible versions at all
// (they came with 2.4, KIP-482), which tells the two ranges of releases
// apart; within a range the rules are the same. The files are named, for
// the user whose new spec merely lacks the attribute.
func releaseHint(in string, diags schema.Diagnostics) string {
	var lacking []string
	for _, d := range diags {
		if strings.HasPrefix(d.Text, missingFlexible) {
			lacking = append(lacking, filepath.Base(d.File))
		}
	}
	if len(lacking) == 0 {
		return ""
	}
	specs, err := schema.Release2x.LoadDir(in)
	if err != nil {
		return ""
	}
	which := lacking[0]
	if len(lacking) > 1 {
		which = fmt.Sprintf("%s and %d more", lacking[0], len(lacking)-1)
	}
	release, flag := "2.2 and 2.3", "2.2"
	for _, s := range specs {
		if !s.FlexibleVersions.Empty() {
			release, flag = "2.4 to 2.8", "2.4"
			break
		}
	}
	return fmt.Sprintf("%d of the %d specs in %s lack flexibleVersions (%s), as in Kafka %s (3.0 made it mandatory): add -release %s for such a release, or give a new spec \"flexibleVersions\": \"0+\"",
		len(lacking), len(specs), in, which, release, flag)
}

// clientMessages is where a Kafka checkout keeps the client protocol's
// specs; the other spec folders follow the same pattern
// (<module>/src/main/resources/common/<kind>).
var clientMessages = filepath.Join("clients", "src", "main", "resources", "common", "message")

// checkoutHint is the message for an input folder without specs that
// holds Kafka's spec folders further down (a Kafka checkout or one of its
// modules), naming them; "" when it does not.
func checkoutHint(in string) string {
	var folders []string
	for _, pattern := range []string{
		filepath.Join(in, "*", "src", "main", "resources", "common", "*", "*.json"),
		filepath.Join(in, "src", "main", "resources", "common", "*", "*.json"),
	} {
		specs, _ := filepath.Glob(pattern)
		for _, s := range specs {
			rel, _ := filepath.Rel(in, filepath.Dir(s))
			if len(folders) == 0 || folders[len(folders)-1] != rel {
				folders = append(folders, rel)
			}
		}
	}
	if len(folders) == 0 {
		return ""
	}
	sort.Slice(folders, func(i, j int) bool { // the client protocol first
		return isClientMessages(in, folders[i]) || !isClientMessages(in, folders[j]) && folders[i] < folders[j]
	})
	use := filepath.Join(in, folders[0])
	if isClientMessages(in, folders[0]) {
		use += " (the client protocol)"
	}
	if len(folders) > 1 {
		var modules []string
		for _, f := range folders[1:] {
			modules = append(modules, strings.SplitN(f, string(filepath.Separator), 2)[0])
		}
		use += "; more spec folders in " + strings.Join(modules, ", ")
	}
	return fmt.Sprintf("no *.json spec files in %s, but Kafka spec folders below it: give -in %s", in, use)
}

// isClientMessages reports whether the folder rel of in is where Kafka
// keeps the client protocol's specs.
func isClientMessages(in, rel string) bool {
	return strings.HasSuffix(filepath.Join(in, rel), clientMessages)
}
