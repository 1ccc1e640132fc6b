package codec

import (
	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/internal/gomodel"
	"github.com/kafkagen/kafkagen/generator/plan"
	"github.com/kafkagen/kafkagen/generator/schema"
)

// emitClone writes Clone and deepen. Clone copies the struct and lets the
// copy deepen itself: deepen replaces, field by field, what the copy still
// shares with the original (strings, which DecodeAliased points into the
// caller's buffer, byte slices, slices, nested structs, unknown tags) by
// memory of its own. One flat method per struct keeps the code small: a
// struct in a slice deepens in place after one slices.Clone.
func (p *printer) emitClone(f *File, s *plan.Struct) {
	name := p.TypeName(s)
	recv := Params(Id("m").Op("*").Id(name))
	gomodel.DocCommentf(f, "Clone returns a deep copy of m (nil for nil), sharing no memory with it:\n"+
		"strings and byte slices are copied too, so the copy stays valid when the\n"+
		"buffer m was decoded from (DecodeAliased, or a frame a proxy reuses) is\n"+
		"overwritten, and later changes to m do not reach it. Java's duplicate().")
	f.Func().Add(recv).Id("Clone").Params().Op("*").Id(name).Block(
		If(Id("m").Op("==").Nil()).Block(Return(Nil())),
		Id("c").Op(":=").Op("*").Id("m"),
		Id("c").Dot("deepen").Call(),
		Return(Op("&").Id("c")),
	)
	f.Line()
	var body []Code
	for _, fld := range s.Fields {
		body = append(body, p.deepenField(fld, Id("m").Dot(p.FieldName(fld)))...)
	}
	if s.HasTags {
		body = append(body, Id("m").Dot("UnknownTags").Op("=").Id("m").Dot("UnknownTags").Dot("Clone").Call())
	}
	if s.Top {
		// Nothing of the copy points into a caller's buffer any more.
		body = append(body, Id("m").Dot("aliased").Op("=").False())
	}
	gomodel.DocComment(f, "deepen replaces what m shares with the value it was copied from by copies.")
	f.Func().Add(recv.Clone()).Id("deepen").Params().Block(body...)
	f.Line()
}

// deepenField is the code that gives val, a field of a shallow copy,
// memory of its own; none for a value without references.
func (p *printer) deepenField(fld *plan.Field, val *Statement) []Code {
	f := fld.Schema
	t := f.Type
	set := func(call *Statement) []Code { return []Code{Add(val).Op("=").Add(call)} }
	if t.Array {
		switch t.Kind {
		case schema.KindStruct:
			elems := Add(val.Clone())
			return []Code{
				Add(val).Op("=").Qual("slices", "Clone").Call(val.Clone()),
				For(Id("i").Op(":=").Range().Add(elems)).Block(
					Add(val.Clone()).Index(Id("i")).Dot("deepen").Call(),
				),
			}
		case schema.KindString:
			return set(gomodel.Cd("CloneStrings").Call(val.Clone()))
		case schema.KindBytes, schema.KindRecords:
			return set(gomodel.Cd("CloneByteSlices").Call(val.Clone()))
		}
		return set(Qual("slices", "Clone").Call(val.Clone()))
	}
	switch t.Kind {
	case schema.KindString:
		if f.Nullable() {
			return []Code{Add(val).Dot("Value").Op("=").Qual("strings", "Clone").Call(val.Clone().Dot("Value"))}
		}
		return set(Qual("strings", "Clone").Call(val.Clone()))
	case schema.KindBytes, schema.KindRecords:
		return set(Qual("bytes", "Clone").Call(val.Clone()))
	case schema.KindStruct:
		if f.Nullable() {
			return set(Add(val.Clone()).Dot("Clone").Call())
		}
		return []Code{Add(val).Dot("deepen").Call()}
	}
	return nil
}
