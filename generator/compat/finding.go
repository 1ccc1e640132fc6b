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
	RuleRemoved          Rule = "removed"           // an API removed whole (validVersions "none")
	RuleCoordinator      Rule = "coordinator"       // a data record retyped coordinator-key or coordinator-value (Kafka 4.1)
)

// allRules lists every rule, for tests that check each has a hand-made case.
var allRules = []Rule{
	RuleLoad, RuleDuplicate, RuleUnpaired, RuleName, RuleType, RuleAPIKey, RuleValidVersions,
	RuleFlexibleVersions, RuleFieldType, RuleFieldVersions, RuleFieldAdded, RuleFieldRemoved,
	RuleFieldRenamed, RuleFieldOrder, RuleNullable, RuleTagged, RuleTag, RuleTagReused,
	RuleIgnorable, RuleDefault, RuleFieldFlexible, RuleStructRenamed, RuleRemoved, RuleCoordinator,
}

// Severity says what a finding means for old peers.
type Severity int8

// The severities, from the gravest.
const (
	// Violation: a version both specs define is read or written
	// differently, or something old peers rely on changed (names, defaults,
	// tags): peers misread each other without noticing.
	Violation Severity = iota
	// Removal: request, response or header versions (or a whole API) the
	// new spec no longer has. A peer still sending them is refused (an
	// error or a closed connection, docs/protocol.md "Versions"), loudly,
	// and peers that negotiate with ApiVersions move to a shared version.
	Removal
	// EarlyAccess: a change at a version the old spec declared early access
	// (latestVersionUnstable, the response of such a request, or Kafka's
	// comment "subject to non-backwards-compatible changes"): no promise was
	// broken, but a peer built on the preview breaks.
	EarlyAccess
	// Note: information; nothing an old reader or writer gets wrong.
	Note
)

// severityPrefixes are written before the text of findings other than
// violations.
var severityPrefixes = map[Severity]string{Removal: "removed: ", EarlyAccess: "early access: ", Note: "note: "}

// String names the severity as the report's summary counts it.
func (s Severity) String() string {
	switch s {
	case Violation:
		return "violation"
	case Removal:
		return "removal"
	case EarlyAccess:
		return "early-access change"
	}
	return "note"
}

// Finding is one difference between an old and a new spec, located in the
// new file (or the old one for what the new file no longer has).
type Finding struct {
	schema.Diagnostic
	Rule     Rule
	Severity Severity
}

// String renders the finding as file:line:col: Message.Field: text, with
// "removed: ", "early access: " or "note: " before the text of findings
// that are not violations.
func (f Finding) String() string {
	d := f.Diagnostic
	d.Text = severityPrefixes[f.Severity] + d.Text
	return d.String()
}

// Count counts the findings of one severity.
func Count(fs []Finding, s Severity) int {
	n := 0
	for _, f := range fs {
		if f.Severity == s {
			n++
		}
	}
	return n
}

// Violations counts the findings that are violations.
func Violations(fs []Finding) int { return Count(fs, Violation) }

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
