// Package plan computes, once per struct of a spec and from the resolved
// schema model, the wire program that the size, encode, decode and reset
// printers of package generator walk: the versions each struct's code runs
// at, every field's conditions (present, written in place, tagged,
// nullable, compact) settled at generation time where those versions
// settle them, the ordered steps of the in-place part (runs of fixed-width
// fields and single fields), the tag section, whether a nested struct's
// code is inlined into its parent's or called, which structs need their own
// codec methods. The facts of single fields (defaults, nullability, in-place
// versions) are the schema's (schema/facts.go).
//
// A plan is plain data: it knows nothing of Go names or of the code printed
// from it.
package plan

import (
	"math"
	"sort"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// Options restricts what is planned.
type Options struct {
	// MinVersion prunes the versions below it: the message is planned (and
	// its code generated) for its valid versions from MinVersion up.
	MinVersion int16
}

// Message is the plan of one spec.
type Message struct {
	Spec *schema.Spec
	// Versions are the versions generated: the spec's valid versions from
	// Options.MinVersion up. Empty when pruning leaves none.
	Versions schema.Versions
	Top      *Struct
	// Structs holds Top, then the spec's structs in the order they are
	// first defined.
	Structs []*Struct
}

// Struct is the plan of one struct: the message body, an inline struct or
// a common struct.
type Struct struct {
	Schema *schema.Struct
	Top    bool
	// Within is the range of versions the struct's code runs at: the hull of
	// the versions at which it is reachable from the message. Empty when it
	// is not reachable at any generated version (the type and Reset are
	// still generated; no codec is).
	Within schema.Versions
	// Flexible: the version has compact lengths and tag sections.
	Flexible Cond
	// HasTags: the struct keeps unknown tagged fields, because its message
	// has flexible versions.
	HasTags bool
	// Fields are the struct's fields in declaration order.
	Fields []*Field
	// Steps are the in-place part of the encoding, in wire order: every
	// field belongs to exactly one step.
	Steps []Step
	// Tagged are the fields written in the tag section at some version, by
	// ascending tag.
	Tagged []*Field
	// MaxTag is the highest tag the struct defines, -1 when none.
	MaxTag int
	// MinSize is the fewest bytes the struct takes at any version of Within.
	MinSize int
	// Methods: the struct has its own size, appendTo and decode methods,
	// because it is the message or some use of it calls them.
	Methods bool
	// Repeated: the struct is the element of an array field, so that its
	// code runs once per element.
	Repeated bool
	// Compared: some code asks whether a value of the struct holds its
	// defaults (isDefault): the struct is the type of a struct field (not
	// an array), which is written in a tag section only when it does not,
	// and must where a version lacks it.
	Compared bool
}

// Field is the plan of one field.
type Field struct {
	Schema *schema.Field
	Owner  *Struct
	// Elem is the struct of a struct or struct-array field.
	Elem *Struct
	// Width is the encoded width of a fixed-width scalar field, else 0.
	Width int
	// Present: the version has the field, in place or tagged. Where it does
	// not, a field that is not ignorable must hold its default.
	Present Cond
	// InPlace: the field is written in place (not in the tag section).
	InPlace Cond
	// Tagged: the field is written in the tag section. Its Within is the
	// struct's flexible versions, where the tag section's code runs.
	Tagged Cond
	// Nullable: the version may write null, within the versions that have
	// the field.
	Nullable Cond
	// Compact: the field's lengths are compact in place (the field's own
	// flexibleVersions, or the message's).
	Compact Cond
	// Inline: the in-place code of a struct-array field is that of Elem
	// inlined into Owner's methods, instead of a call to Elem's.
	Inline bool
	// Inlined is, for an inlined field, Elem planned for the versions at
	// which this field is in place: the code inlined here runs at those
	// only, which may settle more of its conditions (a common struct used
	// by several fields is planned for all of their versions).
	Inlined *Struct
	// MinElemSize is the fewest bytes one element of an array takes.
	MinElemSize int
	// Replaced names the fields that take over this one's role at the
	// versions of its struct that lack it (replaced.go).
	Replaced Replacements
}

// Step is one part of a struct's in-place encoding.
type Step struct {
	// Run: the fields are fixed-width scalars, consecutive, written in place
	// at the same versions: read with one bounds check and written with one
	// capacity check. Otherwise the step is a single field.
	Run bool
	// When the step's fields are in place (their InPlace).
	When   Cond
	Fields []*Field
}

// Build plans spec's message for the versions opts keeps.
func Build(spec *schema.Spec, opts Options) *Message {
	versions := spec.ValidVersions.Intersect(schema.Versions{Lo: max(opts.MinVersion, 0), Hi: schema.NoMax})
	m := &Message{Spec: spec, Versions: versions}
	within := map[*schema.Struct]schema.Versions{spec.Root: versions}
	if !versions.Empty() {
		reach(spec.Root, versions, within, 0)
	}
	hasTags := spec.HasTagSections()
	byStruct := map[*schema.Struct]*Struct{}
	for _, st := range append([]*schema.Struct{spec.Root}, spec.Structs...) {
		w, ok := within[st]
		if !ok {
			w = schema.None
		}
		s := &Struct{Schema: st, Top: st == spec.Root, Within: w, HasTags: hasTags, MaxTag: -1,
			Flexible: when(spec.FlexibleVersions, w)}
		byStruct[st] = s
		m.Structs = append(m.Structs, s)
	}
	m.Top = m.Structs[0]
	for _, s := range m.Structs {
		s.planFields(byStruct)
	}
	for _, s := range m.Structs {
		s.MinSize = s.minSize(map[*Struct]bool{})
		for _, f := range s.Fields {
			if f.Schema.Type.Array {
				f.MinElemSize = minSize(f.Schema.Type.Kind, f.Elem)
			}
		}
	}
	decideInlining(m)
	markCompared(m)
	return m
}

// reach mirrors the schema's propagation of reachable versions from the
// root, for the generated versions only: within maps each struct to the
// hull of the versions at which some field holding it is present.
func reach(st *schema.Struct, usable schema.Versions, within map[*schema.Struct]schema.Versions, depth int) {
	if depth > 64 { // a struct that contains itself: rejected by validation
		return
	}
	for _, f := range st.Fields {
		present := f.Versions.Intersect(usable)
		if f.Type.Kind != schema.KindStruct || f.Struct == nil || present.Empty() {
			continue
		}
		before, seen := within[f.Struct]
		if !seen {
			before = schema.None
		}
		within[f.Struct] = before.Hull(present)
		if within[f.Struct] != before || depth == 0 || !f.Struct.Common {
			reach(f.Struct, within[f.Struct], within, depth+1)
		}
	}
}

// planFields plans s's fields, steps and tag section.
func (s *Struct) planFields(byStruct map[*schema.Struct]*Struct) {
	w := s.Within
	tagWithin := s.Flexible.On
	for _, sf := range s.Schema.Fields {
		t := sf.Type
		f := &Field{
			Schema:   sf,
			Owner:    s,
			Present:  when(sf.Versions, w),
			InPlace:  when(sf.InPlaceVersions(), w),
			Tagged:   Cond{On: schema.None, Within: tagWithin},
			Nullable: when(sf.NullableVersions, w.Intersect(sf.Versions)),
			Compact:  s.Flexible,
			Replaced: replacementsOf(sf),
		}
		if t.Kind == schema.KindStruct {
			f.Elem = byStruct[sf.Struct]
			f.Elem.Repeated = f.Elem.Repeated || t.Array
		}
		if !t.Array {
			f.Width = t.Kind.FixedSize()
		}
		if sf.HasTag {
			f.Tagged = when(sf.TaggedVersions, tagWithin)
			s.Tagged = append(s.Tagged, f)
			s.MaxTag = max(s.MaxTag, sf.Tag)
		}
		if sf.HasFlexibleVersions {
			f.Compact = when(sf.FlexibleVersions, w)
		}
		s.Fields = append(s.Fields, f)
	}
	sort.SliceStable(s.Tagged, func(i, j int) bool { return s.Tagged[i].Schema.Tag < s.Tagged[j].Schema.Tag })
	s.Steps = steps(s.Fields)
}

// steps groups fields into steps: consecutive fixed-width fields in place at
// the same versions form a run; every other field is a step of its own.
func steps(fields []*Field) []Step {
	var out []Step
	for i := 0; i < len(fields); {
		f := fields[i]
		j := i + 1
		if f.Width > 0 && !f.InPlace.Never() {
			for j < len(fields) && fields[j].Width > 0 && fields[j].InPlace == f.InPlace {
				j++
			}
		}
		out = append(out, Step{Run: f.Width > 0 && !f.InPlace.Never(), When: f.InPlace, Fields: fields[i:j]})
		i = j
	}
	return out
}

// minSize is the fewest bytes one value of kind k takes on the wire.
func minSize(k schema.Kind, elem *Struct) int {
	if n := k.FixedSize(); n > 0 {
		return n
	}
	if k == schema.KindStruct {
		return elem.minSize(map[*Struct]bool{})
	}
	return 1 // a compact length
}

// minSize is the fewest bytes the struct takes at any version of Within.
func (s *Struct) minSize(visiting map[*Struct]bool) int {
	if visiting[s] {
		return 0
	}
	visiting[s] = true
	defer delete(visiting, s)
	w := s.Within
	best := math.MaxInt
	for v := int(w.Lo); v <= int(w.Hi); v++ {
		n := 0
		if s.Flexible.On.Contains(int16(v)) {
			n++ // the tag section's count
		}
		for _, f := range s.Fields {
			if !f.InPlace.On.Contains(int16(v)) {
				continue
			}
			t := f.Schema.Type
			switch {
			case t.Array, t.Kind == schema.KindString, t.Kind == schema.KindBytes, t.Kind == schema.KindRecords:
				n++
			case t.Kind == schema.KindStruct:
				if f.Schema.Nullable() && f.Nullable.On.Contains(int16(v)) {
					n++
				} else {
					n += f.Elem.minSize(visiting)
				}
			default:
				n += t.Kind.FixedSize()
			}
		}
		best = min(best, n)
	}
	if best == math.MaxInt {
		return 0
	}
	return best
}
