package compat

import (
	"fmt"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// Compare checks that newSpec can replace oldSpec: that every version both
// define has the same wire format, and that nothing old readers and writers
// rely on changed. It returns every finding, sorted by file and position.
// Both specs must have loaded cleanly (schema.Load), which also guarantees
// that no struct contains itself. The old spec's latest version is early
// access when it is marked latestVersionUnstable; CompareFiles and
// CompareTrees also read the file's comments and the request of a
// response (earlyAccess).
func Compare(oldSpec, newSpec *schema.Spec) []Finding {
	return compare(oldSpec, newSpec, unstableLatest(oldSpec))
}

// compare is Compare with the old spec's early-access versions given.
func compare(oldSpec, newSpec *schema.Spec, early schema.Versions) []Finding {
	var converted []Finding
	if becameCoordinatorRecord(oldSpec, newSpec) {
		var ok bool
		if oldSpec, converted, ok = asCoordinatorRecord(oldSpec, newSpec); !ok {
			return sortFindings(converted)
		}
		early = shiftVersions(early, recordShift(newSpec))
	}
	c := newChecker(oldSpec, newSpec, early, Violation)
	c.findings = converted
	c.header()
	if !c.shared.Empty() {
		c.structs(oldSpec.Root, newSpec.Root, c.shared, oldSpec.Name, newSpec.Name, 0)
	}
	findings := c.findings
	// The early-access versions both specs define are compared on their
	// own, their differences reported as early-access changes.
	if previews := early.Intersect(newSpec.ValidVersions); !previews.Empty() {
		p := newChecker(oldSpec, newSpec, early, EarlyAccess)
		p.shared = previews
		p.structs(oldSpec.Root, newSpec.Root, previews, oldSpec.Name, newSpec.Name, 0)
		findings = append(findings, p.findings...)
	}
	return sortFindings(findings)
}

func newChecker(oldSpec, newSpec *schema.Spec, early schema.Versions, severity Severity) *checker {
	return &checker{
		old:      oldSpec,
		new:      newSpec,
		early:    early,
		severity: severity,
		seen:     map[structKey]bool{},
		// A chain of nested struct fields longer than the number of structs
		// of both files would have to repeat one: the bound keeps even an
		// unvalidated model from recursing forever.
		maxDepth: len(oldSpec.Structs) + len(newSpec.Structs) + 2,
	}
}

// checker compares one old spec with one new spec.
type checker struct {
	old, new *schema.Spec
	// early is the old spec's early-access versions: a hull at its top
	// (its latest version, or all of them), never a promise.
	early schema.Versions
	// shared is the versions both specs define, less the old spec's
	// early-access ones: the versions whose wire format is fixed.
	shared schema.Versions
	// severity is given to what the checks find wrong: Violation, or
	// EarlyAccess when only early-access versions are compared.
	severity Severity
	findings []Finding
	// seen holds the struct pairs already compared over a span, so that a
	// common struct used by many fields is compared once per span.
	seen     map[structKey]bool
	maxDepth int
}

type structKey struct {
	old, new *schema.Struct
	span     schema.Versions
}

// report records a finding at p in spec (c.old or c.new).
func (c *checker) report(spec *schema.Spec, p schema.Pos, subject string, rule Rule, severity Severity, format string, args ...any) {
	line, col := spec.Position(p)
	c.findings = append(c.findings, Finding{
		Diagnostic: schema.Diagnostic{File: spec.File, Line: line, Col: col, Subject: subject, Text: fmt.Sprintf(format, args...)},
		Rule:       rule,
		Severity:   severity,
	})
}

// violation reports a problem located in the new spec.
func (c *checker) violation(p schema.Pos, subject string, rule Rule, format string, args ...any) {
	c.report(c.new, p, subject, rule, c.severity, format, args...)
}

// removal reports versions the new spec no longer has.
func (c *checker) removal(p schema.Pos, subject string, rule Rule, format string, args ...any) {
	c.report(c.new, p, subject, rule, Removal, format, args...)
}

// note reports information located in the new spec.
func (c *checker) note(p schema.Pos, subject string, rule Rule, format string, args ...any) {
	c.report(c.new, p, subject, rule, Note, format, args...)
}

// header checks the spec's own attributes and sets c.shared.
func (c *checker) header() {
	o, n := c.old, c.new
	at, sub := n.Pos, n.Name
	if o.Name != n.Name {
		c.violation(at, sub, RuleName, "name changed from %s to %s: generated names and NewByName lookups change", o.Name, n.Name)
	}
	if o.Type != n.Type && !becameCoordinatorRecord(o, n) {
		c.violation(at, sub, RuleType, "type changed from %s to %s", o.Type, n.Type)
	}
	if (o.HasAPIKey != n.HasAPIKey || o.APIKey != n.APIKey) && !becameCoordinatorRecord(o, n) {
		c.violation(at, sub, RuleAPIKey, "apiKey changed from %s to %s: peers would take one message for another", apiKey(o), apiKey(n))
	}
	if n.Removed() && !o.Removed() {
		c.shared = schema.None
		c.removedAPI()
		return
	}
	c.validVersions()
	c.flexibleVersions()
}

func apiKey(s *schema.Spec) string {
	if !s.HasAPIKey {
		return "none"
	}
	return fmt.Sprint(s.APIKey)
}

// validVersions checks the version range and computes the shared versions.
func (c *checker) validVersions() {
	ov, nv := c.old.ValidVersions, c.new.ValidVersions
	at, sub := c.new.Pos, c.new.Name
	changed := fmt.Sprintf("validVersions changed from %s to %s", ov, nv)
	stable := ov
	if !c.early.Empty() {
		stable.Hi = min(stable.Hi, c.early.Lo-1)
		if stable.Empty() {
			stable = schema.None
		}
	}
	c.shared = stable.Intersect(nv)
	if gone := c.early.Intersect(ov); !gone.Empty() && !nv.Covers(gone) {
		c.report(c.new, at, sub, RuleValidVersions, EarlyAccess, "%s: early-access %s dropped", changed,
			where(gone, []schema.Versions{nv}, func(v int16) bool { return !nv.Contains(v) }).versionsWord())
	}
	switch {
	case ov.Empty():
		return
	case stable.Empty():
		// Every old version was early access: nothing was promised.
		return
	case c.shared.Empty():
		c.violation(at, sub, RuleValidVersions, "%s: no version in common with the old spec, so old and new peers cannot talk", changed)
		return
	}
	if nv.Hi < stable.Hi {
		c.violation(at, sub, RuleValidVersions, "%s: %s lost (the maximum may only grow)", changed,
			vset{{Lo: nv.Hi + 1, Hi: stable.Hi}}.versionsWord())
	}
	if nv.Lo < ov.Lo {
		c.violation(at, sub, RuleValidVersions, "%s: %s added below the old minimum %d", changed,
			vset{{Lo: nv.Lo, Hi: ov.Lo - 1}}.versionsWord(), ov.Lo)
	}
	if nv.Lo > ov.Lo {
		dropped := vset{{Lo: ov.Lo, Hi: nv.Lo - 1}}
		if c.new.Type == schema.TypeMetadata || c.new.Type == schema.TypeData || isCoordinatorRecord(c.new) {
			c.violation(at, sub, RuleValidVersions, "%s: %s dropped, but %s records of those versions stay in logs and snapshots that new readers must read",
				changed, dropped.versionsWord(), c.new.Type)
		} else {
			c.removal(at, sub, RuleValidVersions, "%s: %s removed: a peer still sending them is refused", changed, dropped.versionsWord())
		}
	}
}

// removedAPI reports an API the new spec removed whole ("validVersions":
// "none", Kafka 4.0): every old version is gone, and nothing else is
// compared (such a spec has no fields and asks for no flexibleVersions).
func (c *checker) removedAPI() {
	ov := c.old.ValidVersions
	if c.new.Type != schema.TypeRequest && c.new.Type != schema.TypeResponse && c.new.Type != schema.TypeHeader {
		c.violation(c.new.Pos, c.new.Name, RuleRemoved, "validVersions changed from %s to none, but %s records of those versions stay in logs and snapshots that new readers must read", ov, c.new.Type)
		return
	}
	c.removal(c.new.Pos, c.new.Name, RuleRemoved, "the API is removed (validVersions changed from %s to none): a peer still sending %s is refused", ov, vset{ov}.versionsWord())
}

// flexibleVersions checks that flexible versions only grow: none lost (above
// the new minimum), none gained among the versions both specs define.
func (c *checker) flexibleVersions() {
	of, nf := c.old.FlexibleVersions, c.new.FlexibleVersions
	ov, nv := c.old.ValidVersions, c.new.ValidVersions
	at, sub := c.new.Pos, c.new.Name
	changed := fmt.Sprintf("flexibleVersions changed from %s to %s", of, nf)
	lost := where(schema.Versions{Lo: nv.Lo, Hi: schema.NoMax}, []schema.Versions{of, nf, ov}, func(v int16) bool {
		return of.Contains(v) && !nf.Contains(v) && !c.early.Contains(v)
	})
	if !lost.Empty() {
		c.violation(at, sub, RuleFlexibleVersions, "%s: %s no longer flexible", changed, lost.versionsWord())
	}
	gained := where(c.shared, []schema.Versions{of, nf}, func(v int16) bool {
		return nf.Contains(v) && !of.Contains(v)
	})
	if !gained.Empty() {
		c.violation(at, sub, RuleFlexibleVersions, "%s: %s now flexible, which old peers encode without compact lengths and tag sections",
			changed, gained.versionsWord())
	}
}
