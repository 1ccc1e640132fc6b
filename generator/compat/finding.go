package compat

import (
	"path/filepath"
	"sort"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// Rule names the check behind a finding, so tools and tests can tell findings
// apart without parsing their text.
type Rule string

// The rules, in the order of the package documentation.
const (
	RuleLoad             Rule = "load"              // a spec that cannot be loaded, so cannot be checked
	RuleDuplicate        Rule = "duplicate"         // two files of one tree share a name
	RuleUnpaired         Rule = "unpaired"          // a spec in one tree only (note)
	RuleName             Rule = "name"              // the message name changed
	RuleType             Rule = "type"              // request, response, header, metadata or data changed
	RuleAPIKey           Rule = "api-key"           // apiKey changed, appeared or disappeared
	RuleValidVersions    Rule = "valid-versions"    // the maximum lost, versions added below or dropped
	RuleFlexibleVersions Rule = "flexible-versions" // flexible versions lost or gained where both specs exist
	RuleFieldType        Rule = "field-type"        // a matched field's wire type changed
	RuleFieldVersions    Rule = "field-versions"    // a matched field appears or disappears at a shared version
	RuleFieldAdded       Rule = "field-added"       // a new non-tagged field at a shared version
	RuleFieldRemoved     Rule = "field-removed"     // a field gone from versions both specs define
	RuleFieldRenamed     Rule = "field-renamed"     // a field with the same slot and type under a new name
	RuleFieldOrder       Rule = "field-order"       // non-tagged fields written in another order
	RuleNullable         Rule = "nullable"          // nullableVersions changed at a shared version
	RuleTagged           Rule = "tagged"            // a field moved between the fixed part and the tag section
	RuleTag              Rule = "tag"               // a tagged field's tag number changed
	RuleTagReused        Rule = "tag-reused"        // a tag number taken by another field at a shared version
	RuleIgnorable        Rule = "ignorable"         // ignorable changed where it has an effect
	RuleDefault          Rule = "default"           // the default changed
	RuleFieldFlexible    Rule = "field-flexible"    // a string or bytes field's own flexibleVersions changed
	RuleStructRenamed    Rule = "struct-renamed"    // a struct type renamed, fields unchanged on the wire (note)
)

// allRules lists every rule, for tests that check each has a hand-made case.
var allRules = []Rule{
	RuleLoad, RuleDuplicate, RuleUnpaired, RuleName, RuleType, RuleAPIKey, RuleValidVersions,
	RuleFlexibleVersions, RuleFieldType, RuleFieldVersions, RuleFieldAdded, RuleFieldRemoved,
	RuleFieldRenamed, RuleFieldOrder, RuleNullable, RuleTagged, RuleTag, RuleTagReused,
	RuleIgnorable, RuleDefault, RuleFieldFlexible, RuleStructRenamed,
}

// Finding is one difference between an old and a new spec, located in the
// new file (or the old one for what the new file no longer has).
type Finding struct {
	schema.Diagnostic
	Rule Rule
	// Note marks information that is not a violation: nothing an old reader
	// or writer would get wrong.
	Note bool
}

// String renders the finding as file:line:col: Message.Field: text, with
// "note: " before the text of notes.
func (f Finding) String() string {
	d := f.Diagnostic
	if f.Note {
		d.Text = "note: " + d.Text
	}
	return d.String()
}

// Violations counts the findings that are not notes.
func Violations(fs []Finding) int {
	n := 0
	for _, f := range fs {
		if !f.Note {
			n++
		}
	}
	return n
}

// sortFindings orders findings by file name (keeping an old file and its
// new partner together), path, position and text, and drops exact repeats
// (a common struct reached along two paths reports its fields once).
func sortFindings(fs []Finding) []Finding {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if an, bn := filepath.Base(a.File), filepath.Base(b.File); an != bn {
			return an < bn
		}
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return a.Text < b.Text
	})
	out := fs[:0]
	for i, f := range fs {
		if i > 0 && f == fs[i-1] {
			continue
		}
		out = append(out, f)
	}
	return out
}
