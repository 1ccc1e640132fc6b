package codec

import (
	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/internal/gomodel"
	"github.com/kafkagen/kafkagen/generator/plan"
	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/runtime/codec"
)

// emitSize writes size(version): the exact encoded length, computed without
// allocating. Fixed-width fields in place at every version are summed at
// generation time.
func (p *printer) emitSize(g *Group, s *plan.Struct) {
	sc := p.methodScope(s)
	body := sizeBody(s, sc, true)
	body = append(lengthsDecl(s, sc.uses), body...)
	body = append(body, Return(Id("n")))
	g.Func().Params(Id("m").Op("*").Id(p.TypeName(s))).Id("size").Params(Id("version").Int16()).Int().Block(body...)
	g.Line()
}

// sizeBody adds the size of the struct held by sc.recv to n, declaring n
// when declare is set.
func sizeBody(s *plan.Struct, sc scope, declare bool) []Code {
	fixed := 0
	var stmts []Code
	for _, st := range s.Steps {
		if st.Run {
			width := 0
			for _, f := range st.Fields {
				width += f.Width
			}
			if st.When.Always() {
				fixed += width
			} else {
				stmts = append(stmts, gomodel.Guarded(st.When, func() []Code { return []Code{Id("n").Op("+=").Lit(width)} })...)
			}
			continue
		}
		f := st.Fields[0]
		stmts = append(stmts, gomodel.Guarded(st.When, func() []Code { return valueSize(f, sc.val(f), false, sc, "n") })...)
	}
	var body []Code
	switch {
	case declare:
		body = append(body, Id("n").Op(":=").Lit(fixed))
	case fixed > 0:
		body = append(body, Id("n").Op("+=").Lit(fixed))
	}
	body = append(body, stmts...)
	if s.HasTags {
		body = append(body, gomodel.Guarded(s.Flexible, func() []Code { return tagSectionSize(s, sc) })...)
	}
	return body
}

// tagSectionSize adds the size of the tag section: its count, the known
// tagged fields that differ from their defaults, and the unknown ones.
func tagSectionSize(s *plan.Struct, sc scope) []Code {
	unknown := sc.r().Dot("UnknownTags")
	if len(s.Tagged) == 0 {
		return []Code{Id("n").Op("+=").Add(gomodel.Cd("SizeTagSection")).Call(unknown)}
	}
	out := []Code{Id("numTags").Op(":=").Len(unknown)}
	for _, f := range s.Tagged {
		if f.Tagged.Never() {
			continue
		}
		val := sc.val(f)
		head := codec.SizeUvarint(uint64(f.Schema.Tag))
		var add []Code
		if w := f.Width; w > 0 {
			// tag, size and payload are all known at generation time.
			add = []Code{Id("n").Op("+=").Lit(head + codec.SizeUvarint(uint64(w)) + w)}
		} else {
			add = append([]Code{Id("sz").Op(":=").Lit(0)}, valueSize(f, val.Clone(), true, sc, "sz")...)
			add = append(add, Id("n").Op("+=").Lit(head).Op("+").Add(gomodel.Cd("SizeUvarint")).Call(Uint64().Call(Id("sz"))).Op("+").Id("sz"))
		}
		add = append([]Code{Id("numTags").Op("++")}, add...)
		out = append(out, gomodel.Guarded(f.Tagged, func() []Code { return []Code{If(gomodel.NotDefault(f.Schema, val.Clone())).Block(add...)} })...)
	}
	return append(out, Id("n").Op("+=").Add(gomodel.Cd("SizeUvarint")).Call(Uint64().Call(Id("numTags"))).Op("+").Add(gomodel.Cd("TagsSize")).Call(unknown.Clone()))
}

// valueSize adds the size of one field value, val, to the variable acc.
// tagged: the value is a tagged field's payload (a nullable struct's
// marker is then a uvarint, of the same one byte, and structs are never
// inlined).
func valueSize(f *plan.Field, val *Statement, tagged bool, sc scope, acc string) []Code {
	add := func(e Code) Code { return Id(acc).Op("+=").Add(e) }
	var lengths *Statement
	if hasLength(f.Schema) {
		lengths, _ = sc.lengthsFor(f, tagged)
	}
	t := f.Schema.Type
	nullable := f.Schema.Nullable()
	if t.Array {
		count := gomodel.Cd("SizeArrayLen").Call(Len(val), lengths)
		if w := t.Kind.FixedSize(); w > 0 {
			return []Code{add(count.Op("+").Len(val).Op("*").Lit(w))}
		}
		var each Code
		switch t.Kind {
		case schema.KindString:
			each = For(List(Id("_"), Id("e")).Op(":=").Range().Add(val)).Block(add(gomodel.Cd("SizeString").Call(Len(Id("e")), lengths)))
		case schema.KindBytes, schema.KindRecords:
			each = For(List(Id("_"), Id("e")).Op(":=").Range().Add(val)).Block(add(gomodel.Cd("SizeBytes").Call(Len(Id("e")), lengths)))
		default:
			if f.Inline && !tagged {
				in := sc.inlined(f)
				body := sizeBody(f.Inlined, in, false)
				if *in.recvUsed { // else the size of every element is known from the version
					each = For(Id("i").Op(":=").Range().Add(val)).Block(
						append([]Code{Id(in.recv).Op(":=").Op("&").Add(val).Index(Id("i"))}, body...)...)
				} else {
					each = For(Range().Add(val)).Block(body...)
				}
			} else {
				each = For(Id("i").Op(":=").Range().Add(val)).Block(add(Add(val).Index(Id("i")).Dot("size").Call(Id("version"))))
			}
		}
		return []Code{add(count), each}
	}
	switch t.Kind {
	case schema.KindString:
		if nullable {
			return []Code{add(gomodel.Cd("SizeNullString").Call(val, lengths))}
		}
		return []Code{add(gomodel.Cd("SizeString").Call(Len(val), lengths))}
	case schema.KindBytes, schema.KindRecords:
		if nullable {
			return []Code{add(gomodel.Cd("SizeNullBytes").Call(val, lengths))}
		}
		return []Code{add(gomodel.Cd("SizeBytes").Call(Len(val), lengths))}
	case schema.KindStruct:
		call := add(Add(val).Dot("size").Call(Id("version")))
		if !nullable {
			return []Code{call}
		}
		// A nullable struct has a one-byte marker where it may be null.
		out := gomodel.Guarded(f.Nullable, func() []Code { return []Code{add(Lit(1))} })
		return append(out, If(Add(val).Op("!=").Nil()).Block(call))
	}
	return []Code{add(Lit(t.Kind.FixedSize()))}
}
