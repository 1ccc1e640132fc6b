package compat

import (
	"fmt"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// Compare checks that newSpec can replace oldSpec: that every version both
// define has the same wire format, and that nothing old readers and writers
// rely on changed. It returns every finding, sorted by file and position.
// Both specs must have loaded cleanly (schema.Load), which also guarantees
// that no struct contains itself.
func Compare(oldSpec, newSpec *schema.Spec) []Finding {
	c := &checker{
		old:  oldSpec,
		new:  newSpec,
		seen: map[structKey]bool{},
		// A chain of nested struct fields longer than the number of structs
		// of both files would have to repeat one: the bound keeps even an
		// unvalidated model from recursing forever.
		maxDepth: len(oldSpec.Structs) + len(newSpec.Structs) + 2,
	}
	c.header()
	if !c.shared.Empty() {
		c.structs(oldSpec.Root, newSpec.Root, c.shared, oldSpec.Name, newSpec.Name, 0)
	}
	return sortFindings(c.findings)
}

// checker compares one old spec with one new spec.
type checker struct {
	old, new *schema.Spec
	// shared is the versions both specs define, less the old spec's latest
	// version when it was unstable: the versions whose wire format is fixed.
	shared   schema.Versions
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
func (c *checker) report(spec *schema.Spec, p schema.Pos, subject string, rule Rule, note bool, format string, args ...any) {
	line, col := spec.Position(p)
	c.findings = append(c.findings, Finding{
		Diagnostic: schema.Diagnostic{File: spec.File, Line: line, Col: col, Subject: subject, Text: fmt.Sprintf(format, args...)},
		Rule:       rule,
		Note:       note,
	})
}

// violation reports a problem located in the new spec.
func (c *checker) violation(p schema.Pos, subject string, rule Rule, format string, args ...any) {
	c.report(c.new, p, subject, rule, false, format, args...)
}

// note reports information located in the new spec.
func (c *checker) note(p schema.Pos, subject string, rule Rule, format string, args ...any) {
	c.report(c.new, p, subject, rule, true, format, args...)
}

// header checks the spec's own attributes and sets c.shared.
func (c *checker) header() {
	o, n := c.old, c.new
	at, sub := n.Pos, n.Name
	if o.Name != n.Name {
		c.violation(at, sub, RuleName, "name changed from %s to %s: generated names and NewByName lookups change", o.Name, n.Name)
	}
	if o.Type != n.Type {
		c.violation(at, sub, RuleType, "type changed from %s to %s", o.Type, n.Type)
	}
	if o.HasAPIKey != n.HasAPIKey || o.APIKey != n.APIKey {
		c.violation(at, sub, RuleAPIKey, "apiKey changed from %s to %s: peers would take one message for another", apiKey(o), apiKey(n))
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
	if c.old.LatestVersionUnstable && !ov.Empty() {
		stable.Hi--
		if stable.Empty() {
			stable = schema.None
		}
	}
	c.shared = stable.Intersect(nv)
	switch {
	case ov.Empty():
		return
	case stable.Empty():
		// The old spec's only version was unstable: nothing was promised.
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
		if c.new.Type == schema.TypeMetadata || c.new.Type == schema.TypeData {
			c.violation(at, sub, RuleValidVersions, "%s: %s dropped, but %s records of those versions stay in logs and snapshots that new readers must read",
				changed, dropped.versionsWord(), c.new.Type)
		} else {
			c.note(at, sub, RuleValidVersions, "%s: %s dropped; peers that speak only those get UNSUPPORTED_VERSION", changed, dropped.versionsWord())
		}
	}
}

// flexibleVersions checks that flexible versions only grow: none lost (above
// the new minimum), none gained among the versions both specs define.
func (c *checker) flexibleVersions() {
	of, nf := c.old.FlexibleVersions, c.new.FlexibleVersions
	ov, nv := c.old.ValidVersions, c.new.ValidVersions
	at, sub := c.new.Pos, c.new.Name
	changed := fmt.Sprintf("flexibleVersions changed from %s to %s", of, nf)
	unstable := c.old.LatestVersionUnstable
	lost := where(schema.Versions{Lo: nv.Lo, Hi: schema.NoMax}, []schema.Versions{of, nf, ov}, func(v int16) bool {
		return of.Contains(v) && !nf.Contains(v) && !(unstable && v == ov.Hi)
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
