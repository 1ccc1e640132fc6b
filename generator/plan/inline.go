package plan

import (
	"sort"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// MaxInlineFields is the inlining budget: a nested struct's code is inlined
// into its parent's methods only when the struct has at most this many
// fields, none of them a struct or tagged. Such leaves are the elements of
// the long arrays that make up most messages (partitions, API versions,
// replicas), where a call per element would cost a good share of decoding
// them; everything else is a method of its own, which keeps every
// generated function short and shallow and the package quick to compile.
const MaxInlineFields = 12

// decideInlining settles, for every struct field, whether its in-place code
// is inlined, and which structs need their own codec methods: the message,
// and every struct some reachable use calls (a use not inlined, a tagged
// use, a nullable struct value).
func decideInlining(m *Message) {
	for _, s := range m.Structs {
		for _, f := range s.Fields {
			if f.Inline = inlinable(f); f.Inline {
				f.Inlined = f.Elem.at(f.InPlace.On)
			}
		}
	}
	m.Top.Methods = !m.Top.Within.Empty()
	for _, s := range m.Structs {
		if s.Within.Empty() {
			continue
		}
		for _, f := range s.Fields {
			if f.Elem == nil || f.Elem.Within.Empty() {
				continue
			}
			calledInPlace := !f.InPlace.Never() && !f.Inline
			if calledInPlace || !f.Tagged.Never() {
				f.Elem.Methods = true
			}
		}
	}
}

// inlinable reports whether f's in-place code can be its element's code
// inlined: an array of a small leaf struct (see MaxInlineFields).
func inlinable(f *Field) bool {
	e := f.Elem
	if e == nil || !f.Schema.Type.Array || f.InPlace.Never() || e.Within.Empty() || e == f.Owner {
		return false
	}
	if len(e.Fields) > MaxInlineFields || len(e.Tagged) > 0 {
		return false
	}
	for _, c := range e.Fields {
		if c.Schema.Type.Kind == schema.KindStruct {
			return false
		}
	}
	return true
}

// markCompared marks the structs whose values are compared with their
// defaults: those of struct fields (not arrays), and, since comparing a
// struct compares its fields, theirs.
func markCompared(m *Message) {
	var mark func(s *Struct)
	mark = func(s *Struct) {
		if s.Compared {
			return
		}
		s.Compared = true
		for _, f := range s.Fields {
			if f.Elem != nil && !f.Schema.Type.Array {
				mark(f.Elem)
			}
		}
	}
	for _, s := range m.Structs {
		for _, f := range s.Fields {
			if f.Elem != nil && !f.Schema.Type.Array {
				mark(f.Elem)
			}
		}
	}
}

// at is s planned for the versions w only (a subset of its Within): every
// condition is settled again for w, and the steps regrouped.
func (s *Struct) at(w schema.Versions) *Struct {
	c := *s
	c.Within = w
	c.Flexible = s.Flexible.at(w)
	c.Fields, c.Tagged, c.Methods = nil, nil, false
	for _, f := range s.Fields {
		g := *f
		g.Owner = &c
		g.Present, g.InPlace, g.Nullable, g.Compact = f.Present.at(w), f.InPlace.at(w), f.Nullable.at(w), f.Compact.at(w)
		g.Tagged = f.Tagged.at(w)
		c.Fields = append(c.Fields, &g)
		if g.Schema.HasTag {
			c.Tagged = append(c.Tagged, &g)
		}
	}
	sort.SliceStable(c.Tagged, func(i, j int) bool { return c.Tagged[i].Schema.Tag < c.Tagged[j].Schema.Tag })
	c.Steps = steps(c.Fields)
	return &c
}
