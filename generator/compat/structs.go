package compat

import (
	"slices"
	"sort"
	"strconv"
	"strings"

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

// bounds are the version ranges of fields that the rules look at (where
// they are written, tagged, nullable): between two of their bounds nothing
// about the fields changes.
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
func (c *checker) structs(oldSt, newSt *schema.Struct, span schema.Versions, oldSub, newSub string, depth int) {
	key := structKey{oldSt, newSt, span}
	if c.seen[key] || depth > c.maxDepth || oldSt == nil || newSt == nil {
		return
	}
	c.seen[key] = true
	if oldSt.Common {
		oldSub = c.old.Name + "." + oldSt.Name
	}
	if newSt.Common {
		newSub = c.new.Name + "." + newSt.Name
	}
	pairs, removed, added := match(oldSt, newSt, span)
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
	c.tagReuse(oldSt, newSt, pairs, span, newSub)
	c.order(pairs, span, newSub)
}

// slotOf says what identifies a renamed field's slot on the wire.
func slotOf(f *schema.Field, span schema.Versions) string {
	if !placed(f, span, tagged).Empty() {
		return "same tag " + strconv.Itoa(f.Tag)
	}
	return "after the same fields"
}

// removed reports an old field that the new struct no longer has, unless it
// was only written at versions the new spec dropped (or never used).
func (c *checker) removed(f *schema.Field, span schema.Versions, oldSub string) {
	sub := oldSub + "." + f.Name
	if inl := placed(f, span, inline); !inl.Empty() {
		c.report(c.old, f.Pos, sub, RuleFieldRemoved, c.severity,
			"removed, but old readers and writers of %s, which both specs define, expect it", inl.versionsWord())
	}
	if tg := placed(f, span, tagged); !tg.Empty() {
		c.report(c.old, f.Pos, sub, RuleFieldRemoved, c.severity,
			"removed, but old writers of %s, which both specs define, still send it under tag %d, which must stay reserved", tg.versionsWord(), f.Tag)
	}
}

// match pairs the fields of two structs: by name first, then the remaining
// ones as renames when they take the same slot on the wire with the same
// type (the same tag, or the same place among the fields matched by name).
func match(oldSt, newSt *schema.Struct, span schema.Versions) (pairs []fieldPair, removed, added []*schema.Field) {
	newAt := map[string]int{}
	for j, g := range newSt.Fields {
		if _, dup := newAt[nameKey(g.Name)]; !dup {
			newAt[nameKey(g.Name)] = j
		}
	}
	// oldPair and newPair number the fields matched by name (-1: unmatched).
	oldPair, newPair := unmatched(len(oldSt.Fields)), unmatched(len(newSt.Fields))
	var oldRest []int
	for i, f := range oldSt.Fields {
		if j, ok := newAt[nameKey(f.Name)]; ok && newPair[j] < 0 {
			oldPair[i], newPair[j] = len(pairs), len(pairs)
			pairs = append(pairs, fieldPair{old: f, new: newSt.Fields[j], oldAt: i, newAt: j})
		} else {
			oldRest = append(oldRest, i)
		}
	}
	takenNew := make([]bool, len(newSt.Fields))
	for j := range newSt.Fields {
		takenNew[j] = newPair[j] >= 0
	}
	// Renames: every leftover pair that takes the same slot is a candidate;
	// the most similar names pair first (a slot can fit several fields of
	// one type, CurMetadataOffset is more likely CurrentMetadataOffset than
	// LeaseDurationMs).
	type candidate struct{ i, j, similarity int }
	var candidates []candidate
	for _, i := range oldRest {
		for j, g := range newSt.Fields {
			if takenNew[j] {
				continue
			}
			samePlace := func() bool {
				return slices.Equal(before(oldSt.Fields, i, oldPair, span), before(newSt.Fields, j, newPair, span))
			}
			if sameSlot(oldSt.Fields[i], g, span, samePlace) {
				candidates = append(candidates, candidate{i, j, similarity(oldSt.Fields[i].Name, g.Name)})
			}
		}
	}
	sort.SliceStable(candidates, func(a, b int) bool { return candidates[a].similarity > candidates[b].similarity })
	takenOld := make([]bool, len(oldSt.Fields))
	for _, c := range candidates {
		if takenOld[c.i] || takenNew[c.j] {
			continue
		}
		takenOld[c.i], takenNew[c.j] = true, true
		pairs = append(pairs, fieldPair{old: oldSt.Fields[c.i], new: newSt.Fields[c.j], oldAt: c.i, newAt: c.j, renamed: true})
	}
	for _, i := range oldRest {
		if !takenOld[i] {
			removed = append(removed, oldSt.Fields[i])
		}
	}
	for j, g := range newSt.Fields {
		if !takenNew[j] {
			added = append(added, g)
		}
	}
	sort.SliceStable(pairs, func(a, b int) bool { return pairs[a].oldAt < pairs[b].oldAt })
	return pairs, removed, added
}

// nameKey is a field name with its first letter in upper case: Kafka's JSON
// form lowers the first letter and generated code raises it, so names that
// differ only there are the same name (Kafka rejects two such fields in one
// struct).
func nameKey(name string) string {
	if name != "" && name[0] >= 'a' && name[0] <= 'z' {
		return string(name[0]-'a'+'A') + name[1:]
	}
	return name
}

// similarity is the length of the longest common subsequence of two names,
// letter case aside.
func similarity(a, b string) int {
	a, b = strings.ToLower(a), strings.ToLower(b)
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := range len(a) {
		for j := range len(b) {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(cur[j], prev[j+1])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func unmatched(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = -1
	}
	return out
}

// before lists the name-matched fields (by pair number) that precede
// fields[at] in the fixed part at some version where it is there too: its
// neighbours on the wire, which a renamed field keeps. Fields never written
// together with it may move around it freely.
func before(fields []*schema.Field, at int, pairOf []int, span schema.Versions) []int {
	var out []int
	f := fields[at]
	for i, g := range fields[:at] {
		if pairOf[i] < 0 {
			continue
		}
		together := where(span, bounds(f, g), func(v int16) bool { return place(f, v) == inline && place(g, v) == inline })
		if !together.Empty() {
			out = append(out, pairOf[i])
		}
	}
	sort.Ints(out)
	return out
}

// sameWireType reports whether two field types encode the same way: records
// are bytes on the wire (a length and the batches).
func sameWireType(a, b schema.Type) bool {
	kind := func(k schema.Kind) schema.Kind {
		if k == schema.KindRecords {
			return schema.KindBytes
		}
		return k
	}
	return a.Array == b.Array && kind(a.Kind) == kind(b.Kind)
}

// sameSlot reports whether new field g looks like old field f renamed: the
// same wire type, and either the same tag at shared versions or the same
// shared versions in the fixed part with the same neighbours before it
// (samePlace, computed only when needed).
func sameSlot(f, g *schema.Field, span schema.Versions, samePlace func() bool) bool {
	if !sameWireType(f.Type, g.Type) {
		return false
	}
	if f.HasTag && g.HasTag && f.Tag == g.Tag {
		both := where(span, bounds(f, g), func(v int16) bool { return place(f, v) == tagged && place(g, v) == tagged })
		if !both.Empty() {
			return true
		}
	}
	fi, gi := placed(f, span, inline), placed(g, span, inline)
	return !fi.Empty() && slices.Equal(fi, gi) && samePlace()
}
