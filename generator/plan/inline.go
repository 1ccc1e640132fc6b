package plan

import "github.com/kafkagen/kafkagen/generator/schema"

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
			f.Inline = inlinable(f)
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
// inlined: a struct array, or a struct value that cannot be null, whose
// struct is a small leaf (see MaxInlineFields).
func inlinable(f *Field) bool {
	e := f.Elem
	if e == nil || f.InPlace.Never() || e.Within.Empty() || e == f.Owner {
		return false
	}
	if !f.Schema.Type.Array && f.CanBeNull {
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

// markIsDefaultUsed finds the structs whose isDefault some generated code
// calls: the element of a struct field (not an array) that is written in a
// tag section, or that is checked for its default where a version lacks it
// (a field that is not ignorable), in a reachable struct; and, through
// their own isDefault, the struct fields of those.
func markIsDefaultUsed(m *Message) {
	var mark func(s *Struct)
	mark = func(s *Struct) {
		if s.IsDefaultUsed {
			return
		}
		s.IsDefaultUsed = true
		for _, f := range s.Fields {
			if f.Elem != nil && !f.Schema.Type.Array {
				mark(f.Elem)
			}
		}
	}
	for _, s := range m.Structs {
		if s.Within.Empty() {
			continue
		}
		for _, f := range s.Fields {
			if f.Elem == nil || f.Schema.Type.Array {
				continue
			}
			if !f.Tagged.Never() || (!f.Schema.Ignorable && !f.Present.Always()) {
				mark(f.Elem)
			}
		}
	}
}
