package compat

import (
	"slices"
	"sort"
	"strconv"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// placement is where a field sits in the encoding at one version.
type placement int

const (
	absent placement = iota
	inline           // in the fixed part, in field order
	tagged           // in the tag section, under its tag
)

func place(f *schema.Field, v int16) placement {
	switch {
	case !f.Versions.Contains(v):
		return absent
	case f.TaggedAt(v):
		return tagged
	}
	return inline
}

// bounds are the ranges that decide a field's placement.
func bounds(fs ...*schema.Field) []schema.Versions {
	out := make([]schema.Versions, 0, 3*len(fs))
	for _, f := range fs {
		out = append(out, f.Versions, f.TaggedVersions, f.NullableVersions)
	}
	return out
}

// placed returns the versions of span where f has placement p.
func placed(f *schema.Field, span schema.Versions, p placement) vset {
	return where(span, bounds(f), func(v int16) bool { return place(f, v) == p })
}

// fieldPair is an old field and the new field that continues it.
type fieldPair struct {
	old, new     *schema.Field
	oldAt, newAt int // indexes in their structs
	renamed      bool
}

// structs compares an old struct with the new struct that continues it over
// span, versions at which both are written. oldSub and newSub name the struct
// in diagnostics ("Message.Field.Field").
func (c *checker) structs(os, ns *schema.Struct, span schema.Versions, oldSub, newSub string, depth int) {
	key := structKey{os, ns, span}
	if c.seen[key] || depth > c.maxDepth || os == nil || ns == nil {
		return
	}
	c.seen[key] = true
	if os.Common {
		oldSub = c.old.Name + "." + os.Name
	}
	if ns.Common {
		newSub = c.new.Name + "." + ns.Name
	}
	pairs, removed, added := match(os, ns, span)
	for _, p := range pairs {
		if p.renamed {
			c.violation(p.new.Pos, newSub+"."+p.new.Name, RuleFieldRenamed,
				"renamed from %s (%s, type %s): JSON and generated names change, the wire does not",
				p.old.Name, slotOf(p.old, span), p.new.Type.Raw)
		}
		c.fields(p, span, oldSub, newSub, depth)
	}
	for _, f := range removed {
		c.removed(f, span, oldSub)
	}
	for _, f := range added {
		if inl := placed(f, span, inline); !inl.Empty() {
			c.violation(f.Pos, newSub+"."+f.Name, RuleFieldAdded,
				"added at %s, which old readers do not expect: a new field must be tagged or start above version %d",
				inl.versionsWord(), c.shared.Hi)
		}
	}
	c.tagReuse(os, ns, pairs, span, newSub)
	c.order(pairs, span, newSub)
}

// slotOf says what identifies a renamed field's slot on the wire.
func slotOf(f *schema.Field, span schema.Versions) string {
	if !placed(f, span, tagged).Empty() {
		return "same tag " + strconv.Itoa(f.Tag)
	}
	return "same position"
}

// removed reports an old field that the new struct no longer has, unless it
// was only written at versions the new spec dropped (or never used).
func (c *checker) removed(f *schema.Field, span schema.Versions, oldSub string) {
	sub := oldSub + "." + f.Name
	if inl := placed(f, span, inline); !inl.Empty() {
		c.report(c.old, f.Pos, sub, RuleFieldRemoved, false,
			"removed, but old readers and writers of %s, which both specs define, expect it", inl.versionsWord())
	}
	if tg := placed(f, span, tagged); !tg.Empty() {
		c.report(c.old, f.Pos, sub, RuleFieldRemoved, false,
			"removed, but old writers of %s, which both specs define, still send it under tag %d, which must stay reserved", tg.versionsWord(), f.Tag)
	}
}

// match pairs the fields of two structs: by name first, then the remaining
// ones as renames when they take the same slot on the wire with the same
// type (the same tag, or the same place between fields matched by name).
func match(os, ns *schema.Struct, span schema.Versions) (pairs []fieldPair, removed, added []*schema.Field) {
	newAt := map[string]int{}
	for j, g := range ns.Fields {
		if _, dup := newAt[g.Name]; !dup {
			newAt[g.Name] = j
		}
	}
	takenNew := make([]bool, len(ns.Fields))
	var oldRest []int
	for i, f := range os.Fields {
		if j, ok := newAt[f.Name]; ok && !takenNew[j] {
			takenNew[j] = true
			pairs = append(pairs, fieldPair{old: f, new: ns.Fields[j], oldAt: i, newAt: j})
		} else {
			oldRest = append(oldRest, i)
		}
	}
	// gap counts the fields matched by name before a field: a renamed field
	// sits in the same gap in both structs.
	oldGap := gaps(len(os.Fields), func(i int) bool { return !slices.Contains(oldRest, i) })
	newGap := gaps(len(ns.Fields), func(j int) bool { return takenNew[j] })
	for _, i := range oldRest {
		f := os.Fields[i]
		renamed := false
		for j, g := range ns.Fields {
			if takenNew[j] || !sameSlot(f, g, span, oldGap[i] == newGap[j]) {
				continue
			}
			takenNew[j], renamed = true, true
			pairs = append(pairs, fieldPair{old: f, new: g, oldAt: i, newAt: j, renamed: true})
			break
		}
		if !renamed {
			removed = append(removed, f)
		}
	}
	for j, g := range ns.Fields {
		if !takenNew[j] {
			added = append(added, g)
		}
	}
	sort.SliceStable(pairs, func(a, b int) bool { return pairs[a].oldAt < pairs[b].oldAt })
	return pairs, removed, added
}

// gaps returns, for each index, how many matched indexes precede it.
func gaps(n int, matched func(int) bool) []int {
	out := make([]int, n)
	count := 0
	for i := range n {
		out[i] = count
		if matched(i) {
			count++
		}
	}
	return out
}

// sameSlot reports whether new field g looks like old field f renamed: the
// same wire type, and either the same tag at shared versions or the same
// place among the fixed fields (sameGap) at the same shared versions.
func sameSlot(f, g *schema.Field, span schema.Versions, sameGap bool) bool {
	if f.Type.Array != g.Type.Array || f.Type.Kind != g.Type.Kind {
		return false
	}
	if f.HasTag && g.HasTag && f.Tag == g.Tag {
		both := where(span, bounds(f, g), func(v int16) bool { return place(f, v) == tagged && place(g, v) == tagged })
		if !both.Empty() {
			return true
		}
	}
	fi, gi := placed(f, span, inline), placed(g, span, inline)
	return sameGap && !fi.Empty() && fi.String() == gi.String()
}
