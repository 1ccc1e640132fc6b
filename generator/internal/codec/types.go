package codec

import (
	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/internal/gomodel"
	"github.com/kafkagen/kafkagen/generator/plan"
)

// emitType declares the struct type with documented fields.
func (p *printer) emitType(f *File, s *plan.Struct) {
	var fields []Code
	for i, fld := range s.Fields {
		if i > 0 {
			fields = append(fields, Line())
		}
		fields = append(fields, gomodel.LineComments(p.FieldDoc(fld))...)
		fields = append(fields, Id(p.FieldName(fld)).Add(p.Names.GoType(fld.Schema)))
	}
	if s.HasTags {
		if len(fields) > 0 {
			fields = append(fields, Line())
		}
		fields = append(fields, gomodel.LineComments("UnknownTags holds the tagged fields these specs do not define, in the order\nread; they are written back after the known ones.")...)
		fields = append(fields, Id("UnknownTags").Add(gomodel.Rt("Tags")))
	}
	if s.Top {
		fields = append(fields, Line())
		fields = append(fields, gomodel.LineComments("aliased is set by DecodeAliased: strings and byte slices point into\nthe caller's buffer and must not be reused by Decode.")...)
		fields = append(fields, Id("aliased").Bool())
	}
	gomodel.DocComment(f, p.StructDoc(s))
	f.Type().Id(p.TypeName(s)).Struct(fields...)
	f.Line()
}

// emitNew writes the constructors: the way to build a value, since the
// zero value of a struct type does not hold the spec's defaults. MakeX
// gives a value, for the elements of []X and for fields of type X; NewX a
// pointer, for a message to encode or decode into.
func (p *printer) emitNew(f *File, s *plan.Struct) {
	name := p.TypeName(s)
	gomodel.DocCommentf(f, "Make%[1]s returns a %[1]s holding its spec defaults, for\n"+
		"one held by value (an element of a []%[1]s, a field); New%[1]s returns a\n"+
		"pointer. A composite literal leaves every field at Go's zero value, which\n"+
		"is not the default where the spec gives one, and would be encoded as it is.", name)
	// A literal of the fields whose default is not Go's zero value, not a
	// zero value passed to Reset: Reset was inlined into both constructors
	// of every struct, compile time spent for nothing (docs/benchmarks.md,
	// "Constructors, Clone and decode off the data path").
	var values []Code // in declaration order
	for _, fld := range s.Fields {
		if v := p.Names.InitialValue(fld.Schema); v != nil {
			values = append(values, Line().Id(p.FieldName(fld)).Op(":").Add(v))
		}
	}
	if len(values) > 0 {
		values = append(values, Line())
	}
	f.Func().Id("Make" + name).Params().Id(name).Block(
		Return(Id(name).Values(values...)),
	)
	f.Line()
	gomodel.DocCommentf(f, "New%[1]s returns a pointer to a %[1]s holding its spec\n"+
		"defaults (Make%[1]s returns a value). Build with them or Reset, not with\n"+
		"a composite literal, whose fields are not at the spec's defaults.", name)
	f.Func().Id("New" + name).Params().Op("*").Id(name).Block(
		Return(Op("&").Id(name).Values(values...)),
	)
	f.Line()
}

// emitReset writes Reset (spec defaults, capacity kept) and isDefault.
func (p *printer) emitReset(f *File, s *plan.Struct) {
	var body, def []Code
	for _, fld := range s.Fields {
		val := Id("m").Dot(p.FieldName(fld))
		body = append(body, p.Names.SetDefault(fld.Schema, val)...)
		def = append(def, If(gomodel.NotDefault(fld.Schema, val.Clone())).Block(Return(False())))
	}
	if s.HasTags {
		body = append(body, Id("m").Dot("UnknownTags").Op("=").Id("m").Dot("UnknownTags").Index(Empty(), Lit(0)))
		def = append(def, Return(Len(Id("m").Dot("UnknownTags")).Op("==").Lit(0)))
	} else {
		def = append(def, Return(True()))
	}
	recv := Params(Id("m").Op("*").Id(p.TypeName(s)))
	gomodel.DocComment(f, "Reset sets every field to its spec default, keeping the capacity of slices.")
	f.Func().Add(recv).Id("Reset").Params().Block(body...)
	f.Line()
	if !s.Compared {
		return
	}
	gomodel.DocComment(f, "isDefault reports whether every field holds its default (Java's equals\nagainst a new instance), which decides whether a tagged struct is written.")
	f.Func().Add(recv.Clone()).Id("isDefault").Params().Bool().Block(def...)
	f.Line()
}
