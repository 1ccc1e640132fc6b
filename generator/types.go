package generator

import (
	. "github.com/dave/jennifer/jen"
)

// emitType declares the struct type with documented fields.
func emitType(f *File, sm *structModel) {
	var fields []Code
	for i, fm := range sm.fields {
		if i > 0 {
			fields = append(fields, Line())
		}
		fields = append(fields, lineComments(fieldDoc(fm))...)
		fields = append(fields, Id(fm.goName).Add(fm.goType()))
	}
	if sm.hasTags {
		if len(fields) > 0 {
			fields = append(fields, Line())
		}
		fields = append(fields, lineComments("UnknownTags holds the tagged fields these specs do not define, in the order\nread; they are written back after the known ones.")...)
		fields = append(fields, Id("UnknownTags").Add(rt("Tags")))
	}
	if sm.top {
		fields = append(fields, Line())
		fields = append(fields, lineComments("aliased is set by DecodeAliased: strings and byte slices point into\nthe caller's buffer and must not be reused by Decode.")...)
		fields = append(fields, Id("aliased").Bool())
	}
	docComment(f, structDoc(sm))
	f.Type().Id(sm.goName).Struct(fields...)
	f.Line()
}

// emitNew writes the constructor: the way to build a value, since the zero
// value of a struct type does not hold the spec's defaults.
func emitNew(f *File, sm *structModel) {
	docCommentf(f, "New%s returns a %s holding its spec defaults.\n"+
		"Build values with it (or Reset), not with a composite literal: a field\n"+
		"left at Go's zero value is not at its default where the spec gives one,\n"+
		"and would be encoded as it is.", sm.goName, sm.goName)
	f.Func().Id("New"+sm.goName).Params().Op("*").Id(sm.goName).Block(
		Id("m").Op(":=").New(Id(sm.goName)),
		Id("m").Dot("Reset").Call(),
		Return(Id("m")),
	)
	f.Line()
}

// emitReset writes Reset (spec defaults, capacity kept) and isDefault.
func emitReset(f *File, sm *structModel) {
	var body, def []Code
	for _, fm := range sm.fields {
		body = append(body, fm.setDefault(Id("m").Dot(fm.goName))...)
		def = append(def, If(notDefault(fm.f, Id("m").Dot(fm.goName))).Block(Return(False())))
	}
	if sm.hasTags {
		body = append(body, Id("m").Dot("UnknownTags").Op("=").Id("m").Dot("UnknownTags").Index(Empty(), Lit(0)))
		def = append(def, Return(Len(Id("m").Dot("UnknownTags")).Op("==").Lit(0)))
	} else {
		def = append(def, Return(True()))
	}
	docComment(f, "Reset sets every field to its spec default, keeping the capacity of slices.")
	f.Func().Params(Id("m").Op("*").Id(sm.goName)).Id("Reset").Params().Block(body...)
	f.Line()
	if !sm.p.Compared {
		return
	}
	docComment(f, "isDefault reports whether every field holds its default (Java's equals\nagainst a new instance), which decides whether a tagged struct is written.")
	f.Func().Params(Id("m").Op("*").Id(sm.goName)).Id("isDefault").Params().Bool().Block(def...)
	f.Line()
}
