package compat

import (
	"github.com/kafkagen/kafkagen/generator/schema"
)

// tagReuse reports a new tagged field whose tag an old field of another
// name (not its match) used at the same shared version: old readers would
// decode its value as that old field.
func (c *checker) tagReuse(oldSt, newSt *schema.Struct, pairs []fieldPair, span schema.Versions, newSub string) {
	matchOf := map[*schema.Field]*schema.Field{}
	for _, p := range pairs {
		matchOf[p.new] = p.old
	}
	for _, g := range newSt.Fields {
		if !g.HasTag {
			continue
		}
		for _, f := range oldSt.Fields {
			if !f.HasTag || f.Tag != g.Tag || matchOf[g] == f {
				continue
			}
			clash := where(span, bounds(f, g), func(v int16) bool { return place(f, v) == tagged && place(g, v) == tagged })
			if !clash.Empty() {
				c.violation(g.Pos, newSub+"."+g.Name, RuleTagReused,
					"tag %d at %s belonged to old field %s (type %s): old readers would read this field as %s",
					g.Tag, clash.versionsWord(), f.Name, f.Type.Raw, f.Name)
			}
		}
	}
}

// order reports fields of the fixed part that are written in another order
// than before at some shared version. Two fields never written at a common
// version may swap places in the file freely.
func (c *checker) order(pairs []fieldPair, span schema.Versions, newSub string) {
	reported := map[*schema.Field]bool{}
	for i, a := range pairs {
		for _, b := range pairs[i+1:] {
			// a comes before b in the old struct.
			if b.newAt > a.newAt || reported[b.new] {
				continue
			}
			ranges := bounds(a.old, a.new, b.old, b.new)
			swapped := where(span, ranges, func(v int16) bool {
				return place(a.old, v) == inline && place(a.new, v) == inline &&
					place(b.old, v) == inline && place(b.new, v) == inline
			})
			if swapped.Empty() {
				continue
			}
			reported[b.new] = true
			c.violation(b.new.Pos, newSub+"."+b.new.Name, RuleFieldOrder,
				"now written before %s at %s, where old readers expect it after", a.new.Name, swapped.versionsWord())
		}
	}
}
