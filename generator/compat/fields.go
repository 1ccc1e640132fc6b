package compat

import (
	"fmt"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// fields compares an old field with the new field that continues it over
// span, then the structs they hold.
func (c *checker) fields(p fieldPair, span schema.Versions, oldSub, newSub string, depth int) {
	f, g := p.old, p.new
	sub := newSub + "." + g.Name
	c.placement(f, g, span, sub)
	both := func(v int16) bool { return place(f, v) != absent && place(g, v) != absent }
	shared := where(span, bounds(f, g), both)
	if !sameWireType(f.Type, g.Type) {
		if !shared.Empty() {
			c.violation(g.Pos, sub, RuleFieldType, "type changed from %s to %s at %s", f.Type.Raw, g.Type.Raw, shared.versionsWord())
		}
		return
	}
	if f.Type.Kind != g.Type.Kind && !shared.Empty() {
		c.note(g.Pos, sub, RuleFieldType, "type changed from %s to %s (the same encoding)", f.Type.Raw, g.Type.Raw)
	}
	c.nullable(f, g, span, both, sub)
	c.fieldFlexible(f, g, span, both, sub)
	c.ignorable(f, g, span, sub)
	c.defaults(f, g, span, sub)
	if f.Type.Kind != schema.KindStruct || shared.Empty() {
		return
	}
	if f.Type.StructName != g.Type.StructName {
		c.note(g.Pos, sub, RuleStructRenamed, "struct type renamed from %s to %s (the wire does not change)", f.Type.StructName, g.Type.StructName)
	}
	for _, r := range shared {
		c.structs(f.Struct, g.Struct, r, oldSub+"."+f.Name, sub, depth+1)
	}
}

// placement reports the versions at which the field moved: into or out of
// the encoding, between the fixed part and the tag section, or to another tag.
// A tagged field may appear at a shared version: old readers skip unknown tags.
func (c *checker) placement(f, g *schema.Field, span schema.Versions, sub string) {
	moved := func(from, to placement) vset {
		return where(span, bounds(f, g), func(v int16) bool { return place(f, v) == from && place(g, v) == to })
	}
	versions := fmt.Sprintf("versions changed from %s to %s", f.Versions, g.Versions)
	taggedVersions := fmt.Sprintf("taggedVersions changed from %s to %s", f.TaggedVersions, g.TaggedVersions)
	if s := moved(inline, absent); !s.Empty() {
		c.violation(g.Pos, sub, RuleFieldVersions, "%s: no longer written at %s, where old readers expect it", versions, s.versionsWord())
	}
	if s := moved(absent, inline); !s.Empty() {
		c.violation(g.Pos, sub, RuleFieldVersions, "%s: now written at %s, where old readers do not expect it", versions, s.versionsWord())
	}
	if s := moved(tagged, absent); !s.Empty() {
		c.violation(g.Pos, sub, RuleFieldVersions, "%s: no longer sent at %s, where old readers expect it under tag %d", versions, s.versionsWord(), f.Tag)
	}
	if s := moved(inline, tagged); !s.Empty() {
		c.violation(g.Pos, sub, RuleTagged, "%s: at %s the field moves from the fixed fields to the tag section", taggedVersions, s.versionsWord())
	}
	if s := moved(tagged, inline); !s.Empty() {
		c.violation(g.Pos, sub, RuleTagged, "%s: at %s the field moves from the tag section to the fixed fields", taggedVersions, s.versionsWord())
	}
	if f.Tag != g.Tag {
		if s := moved(tagged, tagged); !s.Empty() {
			c.violation(g.Pos, sub, RuleTag, "tag changed from %d to %d at %s: old readers would skip it or take it for another field",
				f.Tag, g.Tag, s.versionsWord())
		}
	}
}

// nullable reports versions at which one side may write null and the other
// cannot read it.
func (c *checker) nullable(f, g *schema.Field, span schema.Versions, both func(int16) bool, sub string) {
	changed := fmt.Sprintf("nullableVersions changed from %s to %s", f.NullableVersions, g.NullableVersions)
	gained := where(span, bounds(f, g), func(v int16) bool { return both(v) && !f.NullableAt(v) && g.NullableAt(v) })
	if !gained.Empty() {
		c.violation(g.Pos, sub, RuleNullable, "%s: new writers may send null at %s, which old readers reject", changed, gained.versionsWord())
	}
	lost := where(span, bounds(f, g), func(v int16) bool { return both(v) && f.NullableAt(v) && !g.NullableAt(v) })
	if !lost.Empty() {
		c.violation(g.Pos, sub, RuleNullable, "%s: old writers may send null at %s, which new readers reject", changed, lost.versionsWord())
	}
}

// fieldFlexible compares the own flexibleVersions of string and bytes fields
// (RequestHeader's ClientId keeps its int16 length in flexible versions).
// Without an override on either side the message's rule decides, and that
// one is checked once for the whole spec.
func (c *checker) fieldFlexible(f, g *schema.Field, span schema.Versions, both func(int16) bool, sub string) {
	if !f.HasFlexibleVersions && !g.HasFlexibleVersions {
		return
	}
	of, nf := c.old.FlexibleVersions, c.new.FlexibleVersions
	ranges := append(bounds(f, g), of, nf, f.FlexibleVersions, g.FlexibleVersions)
	differ := where(span, ranges, func(v int16) bool { return both(v) && f.FlexibleAt(of, v) != g.FlexibleAt(nf, v) })
	if !differ.Empty() {
		c.violation(g.Pos, sub, RuleFieldFlexible, "flexibleVersions changed from %s to %s: the length encoding at %s changes",
			ownFlexible(f, of), ownFlexible(g, nf), differ.versionsWord())
	}
}

func ownFlexible(f *schema.Field, message schema.Versions) string {
	if f.HasFlexibleVersions {
		return f.FlexibleVersions.String()
	}
	return "the message's " + message.String()
}

// ignorable reports a field made ignorable where that decides something: at
// shared versions the struct is written without the field, a writer holding
// a non-default value used to fail and now drops it silently, so the reader
// takes the default for what the sender meant. The other way round, writers
// now fail where they used to drop the value: a note, nothing is misread.
func (c *checker) ignorable(f, g *schema.Field, span schema.Versions, sub string) {
	if f.Ignorable == g.Ignorable {
		return
	}
	missing := where(span, bounds(f, g), func(v int16) bool { return place(f, v) == absent && place(g, v) == absent })
	if missing.Empty() {
		return
	}
	if g.Ignorable {
		c.violation(g.Pos, sub, RuleIgnorable, "ignorable changed from false to true: at %s, where the field is absent, writers now drop a non-default value silently instead of failing",
			missing.versionsWord())
	} else {
		c.note(g.Pos, sub, RuleIgnorable, "ignorable changed from true to false: at %s, where the field is absent, writers now fail on a non-default value instead of dropping it",
			missing.versionsWord())
	}
}

// defaults reports a changed default where readers fill it in: at shared
// versions where the field is tagged (writers omit a tagged field holding
// its default) or absent from both specs.
func (c *checker) defaults(f, g *schema.Field, span schema.Versions, sub string) {
	od, nd := effectiveDefault(f), effectiveDefault(g)
	if od == nd {
		return
	}
	changed := fmt.Sprintf("default changed from %s to %s", od, nd)
	both := func(p placement) vset {
		return where(span, bounds(f, g), func(v int16) bool { return place(f, v) == p && place(g, v) == p })
	}
	omitted, missing := both(tagged), both(absent)
	if !omitted.Empty() {
		c.violation(g.Pos, sub, RuleDefault, "%s: at %s old writers omit the tagged field when it is %s, which new readers would read as %s",
			changed, omitted.versionsWord(), od, nd)
	}
	if !missing.Empty() {
		c.violation(g.Pos, sub, RuleDefault, "%s: at %s, where the field is absent, old readers assume %s and new readers %s",
			changed, missing.versionsWord(), od, nd)
	}
	if omitted.Empty() && missing.Empty() {
		c.note(g.Pos, sub, RuleDefault, "%s (the field is written at every shared version: only new objects start differently)", changed)
	}
}
