package generator

import (
	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/schema"
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

// emitReset writes Reset (spec defaults, capacity kept) and isDefault.
func emitReset(f *File, sm *structModel) error {
	m := Id("m")
	var body []Code
	var def []Code
	for _, fm := range sm.fields {
		val := Id("m").Dot(fm.goName)
		stmts, err := fm.setDefault(val)
		if err != nil {
			return err
		}
		body = append(body, stmts...)
		cond, err := fm.notDefault(Id("m").Dot(fm.goName))
		if err != nil {
			return err
		}
		def = append(def, If(cond).Block(Return(False())))
	}
	if sm.hasTags {
		body = append(body, Id("m").Dot("UnknownTags").Op("=").Id("m").Dot("UnknownTags").Index(Empty(), Lit(0)))
		def = append(def, Return(Len(Id("m").Dot("UnknownTags")).Op("==").Lit(0)))
	} else {
		def = append(def, Return(True()))
	}
	docComment(f, "Reset sets every field to its spec default, keeping the capacity of slices.")
	f.Func().Params(m.Clone().Op("*").Id(sm.goName)).Id("Reset").Params().Block(body...)
	f.Line()
	docComment(f, "isDefault reports whether every field holds its default (Java's equals\nagainst a new instance), which decides whether a tagged struct is written.")
	f.Func().Params(Id("m").Op("*").Id(sm.goName)).Id("isDefault").Params().Bool().Block(def...)
	f.Line()
	return nil
}

// emitTopMethods writes the constructor and the runtime.Message and
// runtime.Versioned methods of a top-level message.
func emitTopMethods(f *File, sm *structModel) {
	spec := sm.spec
	name := sm.goName
	recv := func() *Statement { return Params(Id("m").Op("*").Id(name)) }
	minV, maxV := int(spec.ValidVersions.Lo), int(spec.ValidVersions.Hi)
	unsupported := Id("version").Op("<").Lit(minV).Op("||").Id("version").Op(">").Lit(maxV)

	docCommentf(f, "New%s returns a %s holding its spec defaults.", name, name)
	f.Func().Id("New"+name).Params().Op("*").Id(name).Block(
		Id("m").Op(":=").New(Id(name)),
		Id("m").Dot("Reset").Call(),
		Return(Id("m")),
	)
	f.Line()
	docComment(f, "SpecName is the spec's name.")
	f.Func().Add(recv()).Id("SpecName").Params().String().Block(Return(Lit(spec.Name)))
	apiKey := -1
	if spec.HasAPIKey {
		apiKey = int(spec.APIKey)
	}
	docComment(f, "APIKey is the spec's apiKey (the record type of metadata records), or -1.")
	f.Func().Add(recv()).Id("APIKey").Params().Int16().Block(Return(Lit(apiKey)))
	docComment(f, "MinVersion is the lowest valid version.")
	f.Func().Add(recv()).Id("MinVersion").Params().Int16().Block(Return(Lit(minV)))
	docComment(f, "MaxVersion is the highest valid version.")
	f.Func().Add(recv()).Id("MaxVersion").Params().Int16().Block(Return(Lit(maxV)))
	docComment(f, "IsFlexible reports whether version uses compact encodings and tag sections.")
	flex := spec.FlexibleVersions
	var flexBody Code
	switch {
	case flex.Empty():
		flexBody = Return(False())
	case flex.Lo == 0:
		flexBody = Return(True())
	default:
		flexBody = Return(Id("version").Op(">=").Lit(int(flex.Lo)))
	}
	f.Func().Add(recv()).Id("IsFlexible").Params(Id("version").Int16()).Bool().Block(flexBody)
	f.Line()

	if spec.Type == schema.TypeRequest || spec.Type == schema.TypeResponse {
		isReq := spec.Type == schema.TypeRequest
		docComment(f, "IsRequest reports whether this is the request side of the API.")
		f.Func().Add(recv()).Id("IsRequest").Params().Bool().Block(Return(Lit(isReq)))
		var body []Code
		switch {
		case isReq && spec.APIKey == 7:
			// ControlledShutdown v0 uses request header v0, which has no ClientId.
			body = append(body, If(Id("version").Op("==").Lit(0)).Block(Return(Lit(0))))
		case !isReq && spec.APIKey == 18:
			// ApiVersions responses always use header v0 (KIP-511), so that a
			// client can read the error of an unsupported request version.
			body = append(body, Return(Lit(0)))
		}
		flexHeader, plainHeader := 2, 1
		if !isReq {
			flexHeader, plainHeader = 1, 0
		}
		if !(!isReq && spec.APIKey == 18) {
			switch {
			case flex.Empty():
				body = append(body, Return(Lit(plainHeader)))
			case flex.Lo == 0:
				body = append(body, Return(Lit(flexHeader)))
			default:
				body = append(body,
					If(Id("version").Op(">=").Lit(int(flex.Lo))).Block(Return(Lit(flexHeader))),
					Return(Lit(plainHeader)))
			}
		}
		which := "request"
		if !isReq {
			which = "response"
		}
		docCommentf(f, "HeaderVersion is the %s header version used with version.", which)
		f.Func().Add(recv()).Id("HeaderVersion").Params(Id("version").Int16()).Int16().Block(body...)
		f.Line()
	}

	docComment(f, "Size returns the exact encoded length at version, or 0 if the version is\nnot supported.")
	f.Func().Add(recv()).Id("Size").Params(Id("version").Int16()).Int().Block(
		If(unsupported.Clone()).Block(Return(Lit(0))),
		Return(Id("m").Dot("size").Call(Id("version"))),
	)
	f.Line()
	docComment(f, "AppendTo appends the encoding at version to dst. When dst has no spare\ncapacity (nil, say) the exact size is computed first and dst grows once;\notherwise the message is written straight into dst's room, which grows\nas append would if it runs out. On error dst is returned unchanged.")
	f.Func().Add(recv()).Id("AppendTo").Params(Id("dst").Index().Byte(), Id("version").Int16()).Params(Index().Byte(), Error()).Block(
		If(unsupported.Clone()).Block(
			Return(Id("dst"), rt("UnsupportedVersion").Call(Lit("encode"), Lit(spec.Name), Id("version"), Lit(minV), Lit(maxV))),
		),
		Id("b").Op(":=").Id("dst"),
		If(Cap(Id("b")).Op("==").Len(Id("b"))).Block(
			Id("b").Op("=").Make(Index().Byte(), Len(Id("dst")), Len(Id("dst")).Op("+").Id("m").Dot("size").Call(Id("version"))),
			Copy(Id("b"), Id("dst")),
		),
		List(Id("b"), Err()).Op(":=").Id("m").Dot("appendTo").Call(Id("b"), Id("version")),
		If(Err().Op("!=").Nil()).Block(
			Return(Id("dst"), rt("Finish").Call(Err(), Lit(spec.Name), Id("version"))),
		),
		Return(Id("b"), Nil()),
	)
	f.Line()
	decodeBody := func(alias bool) []Code {
		var prep []Code
		if alias {
			prep = append(prep, Id("m").Dot("aliased").Op("=").True())
		} else {
			prep = append(prep, If(Id("m").Dot("aliased")).Block(
				Comment("Drop everything that points into an earlier caller's buffer."),
				Op("*").Id("m").Op("=").Id(name).Values(),
			))
		}
		return append([]Code{
			If(unsupported.Clone()).Block(
				Return(Lit(0), rt("UnsupportedVersion").Call(Lit("decode"), Lit(spec.Name), Id("version"), Lit(minV), Lit(maxV))),
			)},
			append(prep,
				Var().Id("r").Add(rt("Reader")),
				Id("r").Dot("Init").Call(Id("src"), Lit(alias)),
				Id("m").Dot("decode").Call(Op("&").Id("r"), Id("version")),
				Return(Id("r").Dot("Finish").Call(Lit(spec.Name), Id("version"))),
			)...)
	}
	docComment(f, "Decode resets m, decodes it from src at version and returns the number of\nbytes read. Strings and byte slices are copied, never aliasing src: unchanged\nstrings are kept, and byte slices already in m are reused as buffers (a byte\nslice assigned to m may be overwritten).")
	f.Func().Add(recv()).Id("Decode").Params(Id("src").Index().Byte(), Id("version").Int16()).Params(Int(), Error()).Block(decodeBody(false)...)
	f.Line()
	docComment(f, "DecodeAliased is Decode, but strings and byte slices point into src, which\nmust stay unchanged while m is in use. It allocates nothing once m's slices\nhave grown to fit.")
	f.Func().Add(recv()).Id("DecodeAliased").Params(Id("src").Index().Byte(), Id("version").Int16()).Params(Int(), Error()).Block(decodeBody(true)...)
	f.Line()
}
