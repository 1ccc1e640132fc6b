package schema

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// Rules are the acceptance rules of one Kafka release's own generator. A
// user generates from the spec folder of whatever Kafka checkout they have,
// and that folder was valid for the generator shipped beside it: Rules let
// kafkagen read it the same way. Everything else (validation, encodings) is
// the same for every release.
type Rules struct {
	// Release names the rules ("4.0", "2.x") in messages.
	Release string
	// FlexibleVersionsOptional reads a missing "flexibleVersions" as
	// "none". Kafka 2.4 introduced flexible versions, and until 3.0 its
	// generator defaulted them; 3.0 made the attribute required, so specs
	// of 2.2 to 2.8 omit it on every message that never became flexible.
	FlexibleVersionsOptional bool
	// TrailingTextIgnored ignores whatever follows the spec's JSON object,
	// unread. Kafka 2.x's generator parsed with Jackson's defaults, which
	// stop after the first value; Kafka 2.8.0 shipped a
	// DescribeProducersRequest.json with two stray closing brackets after
	// its object, and built. Later generators fail on trailing tokens.
	TrailingTextIgnored bool
}

// Current are the rules of Kafka 3.0 and later, as 4.2's generator applies
// them: every message with valid versions declares flexibleVersions, a
// spec file holds one JSON object and nothing after it, a removed API keeps
// an empty spec ("validVersions": "none", 4.0), coordinator records are
// typed coordinator-key and coordinator-value (4.1), and a non-struct field
// may lie outside its message's valid versions (4.1). Each of these only
// accepts more than 3.x's generator did, so one set of rules reads every
// folder from 3.0 to 4.2. Load, LoadFile and LoadDir apply them.
var Current = Rules{Release: "4.2"}

// Release2x are the rules of Kafka 2.2 to 2.8 (see the fields of Rules).
var Release2x = Rules{Release: "2.x", FlexibleVersionsOptional: true, TrailingTextIgnored: true}

// RulesFor returns the rules of a Kafka release given as MAJOR.MINOR or
// MAJOR.MINOR.PATCH, with or without a pre-release tag ("2.8", "3.9.1",
// "4.2.0-rc1"). Releases before 2.2, which shipped
// no JSON message specs, are refused; "" means Current.
func RulesFor(release string) (Rules, error) {
	if release == "" {
		return Current, nil
	}
	// A pre-release tag ("4.2.0-rc1") has its release's rules.
	numbers, _, _ := strings.Cut(release, "-")
	parts := strings.Split(numbers, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return Rules{}, fmt.Errorf("release %q is not MAJOR.MINOR or MAJOR.MINOR.PATCH (such as 2.8, 3.9.1 or 4.2.0-rc1)", release)
	}
	var nums [3]int
	for i, part := range parts {
		n, err := strconv.Atoi(part)
		if err != nil || n < 0 || part != strconv.Itoa(n) {
			return Rules{}, fmt.Errorf("release %q is not MAJOR.MINOR or MAJOR.MINOR.PATCH (such as 2.8, 3.9.1 or 4.2.0-rc1)", release)
		}
		nums[i] = n
	}
	switch major, minor := nums[0], nums[1]; {
	case major < 2 || major == 2 && minor < 2:
		return Rules{}, fmt.Errorf("release %s has no JSON message specs: Kafka ships them from 2.2", release)
	case major == 2:
		return Release2x, nil
	}
	return Current, nil
}

// LoadFile reads and loads one spec file under the current rules.
func LoadFile(path string) (*Spec, error) { return Current.LoadFile(path) }

// LoadDir loads every *.json file of dir under the current rules (see
// Rules.LoadDir).
func LoadDir(dir string) ([]*Spec, error) { return Current.LoadDir(dir) }

// Load parses, validates and resolves one spec under the current rules.
// Problems are returned as Diagnostics, all of them, each with file, line
// and column.
func Load(file string, src []byte) (*Spec, error) { return Current.Load(file, src) }

// LoadFile reads and loads one spec file.
func (r Rules) LoadFile(path string) (*Spec, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return r.Load(path, src)
}

// LoadDir loads every *.json file of dir (not recursive), in name order,
// and applies the rules spanning files (CheckPackage). It reports the
// problems of all files, not only the first one.
func (r Rules) LoadDir(dir string) ([]*Spec, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var specs []*Spec
	var diags Diagnostics
	for _, path := range paths {
		spec, err := r.LoadFile(path)
		if ds, ok := err.(Diagnostics); ok {
			diags = append(diags, ds...)
			continue
		}
		if err != nil {
			return nil, err
		}
		specs = append(specs, spec)
	}
	diags = append(diags, CheckPackage(specs)...)
	if len(diags) > 0 {
		return nil, diags
	}
	return specs, nil
}

// Load parses, validates and resolves one spec. Problems are returned as
// Diagnostics, all of them, each with file, line and column.
func (r Rules) Load(file string, src []byte) (*Spec, error) {
	doc, serr := scanJSON(src, r.TrailingTextIgnored)
	l := &loader{rules: r, spec: &Spec{File: file, index: lineIndex{starts: doc.lines}}, objects: map[Pos][]attr{}, src: src}
	if serr != nil {
		l.errorAt(Pos(serr.offset), "", "%s", serr.msg)
		return nil, l.diags
	}
	root := gjson.Parse(doc.text)
	if !root.IsObject() {
		l.errorAt(posOf(root), "", "a spec must be a JSON object, found %s", describe(root))
		return nil, l.diags
	}
	l.message(root)
	if len(l.diags) == 0 {
		l.resolve()
	}
	// Validation also runs after load problems, so that one pass reports
	// them all; it skips what could not be loaded.
	l.validate()
	if len(l.diags) > 0 {
		l.diags.Sort()
		return nil, l.diags
	}
	l.spec.settle()
	return l.spec, nil
}
