package codec

import (
	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/internal/gomodel"
	"github.com/kafkagen/kafkagen/generator/plan"
	"github.com/kafkagen/kafkagen/generator/schema"
)

// emitTopMethods writes the runtime.Message and runtime.Versioned methods of
// a top-level message (and runtime.APIMessage's for requests and
// responses). MinVersion and MaxVersion are the versions generated, which
// pruning may narrow; every method refuses the others.
func (p *printer) emitTopMethods(f *File, s *plan.Struct) {
	spec := p.Plan.Spec
	name := p.TypeName(s)
	recv := func() *Statement { return Params(Id("m").Op("*").Id(name)) }
	vs := s.Within
	minV, maxV := int(vs.Lo), int(vs.Hi)
	unsupported := func() *Statement { return gomodel.Unsupported(vs) }

	gomodel.DocComment(f, "SpecName is the spec's name.")
	f.Func().Add(recv()).Id("SpecName").Params().String().Block(Return(Lit(spec.Name)))
	apiKey := -1
	if spec.HasAPIKey {
		apiKey = int(spec.APIKey)
	}
	gomodel.DocComment(f, "APIKey is the spec's apiKey (the record type of metadata and coordinator\nrecords), or -1.")
	f.Func().Add(recv()).Id("APIKey").Params().Int16().Block(Return(Lit(apiKey)))
	if vs == spec.ValidVersions {
		gomodel.DocComment(f, "MinVersion is the lowest valid version.")
	} else {
		gomodel.DocCommentf(f, "MinVersion is the lowest version generated (the spec's valid versions are %s).", spec.ValidVersions)
	}
	f.Func().Add(recv()).Id("MinVersion").Params().Int16().Block(Return(Lit(minV)))
	gomodel.DocComment(f, "MaxVersion is the highest valid version.")
	f.Func().Add(recv()).Id("MaxVersion").Params().Int16().Block(Return(Lit(maxV)))
	gomodel.DocComment(f, "IsFlexible reports whether version uses compact encodings and tag sections.")
	flex := spec.FlexibleVersions
	var flexBody Code
	switch {
	case flex.Empty():
		flexBody = Return(False())
	case flex.Lo == 0:
		flexBody = Return(True())
	default:
		flexBody = Return(gomodel.InVersions(flex))
	}
	f.Func().Add(recv()).Id("IsFlexible").Params(Id("version").Int16()).Bool().Block(flexBody)
	f.Line()
	if spec.Type == schema.TypeRequest || spec.Type == schema.TypeResponse {
		p.emitHeaderVersion(f, recv())
	}

	gomodel.DocComment(f, "Size returns the exact encoded length at version. At a version the message\n"+
		"does not support it returns -1, which no length can be, so that it cannot\n"+
		"pass for one (AppendTo returns runtime.ErrUnsupportedVersion there).")
	f.Func().Add(recv()).Id("Size").Params(Id("version").Int16()).Int().Block(
		If(unsupported()).Block(Return(Lit(-1))),
		Return(Id("m").Dot("size").Call(Id("version"))),
	)
	f.Line()
	gomodel.DocComment(f, "AppendTo appends the encoding at version to dst. When dst has no spare\ncapacity (nil, say) the exact size is computed first and dst grows once;\notherwise the message is written straight into dst's room, which grows\nas append would if it runs out. On error dst is returned unchanged.")
	f.Func().Add(recv()).Id("AppendTo").Params(Id("dst").Index().Byte(), Id("version").Int16()).Params(Index().Byte(), Error()).Block(
		Return(Id("appendMessage").Call(Id("m"), Id("dst"), Id("version"), Lit(minV), Lit(maxV))),
	)
	f.Line()
	gomodel.DocComment(f, "Decode resets m, decodes it from src at version and returns the number of\nbytes read. Strings and byte slices are copied, never aliasing src: unchanged\nstrings are kept, and byte slices already in m are reused as buffers (a byte\nslice assigned to m may be overwritten).")
	decode := func(alias bool) []Code {
		body := []Code{If(unsupported()).Block(
			Return(Lit(0), gomodel.Cd("UnsupportedVersion").Call(Lit("decode"), Lit(spec.Name), Id("version"), Lit(minV), Lit(maxV))),
		)}
		init := "Init"
		if alias {
			init = "InitAliased"
			body = append(body, Id("m").Dot("aliased").Op("=").True())
		} else {
			body = append(body, If(Id("m").Dot("aliased")).Block(
				Comment("Drop everything that points into an earlier caller's buffer."),
				Op("*").Id("m").Op("=").Id(name).Values(),
			))
		}
		// The Decoder stays on this stack only while decode is called
		// directly, which is why each message keeps these few lines.
		return append(body,
			Var().Id("d").Add(gomodel.Cd("Decoder")),
			Id("d").Dot(init).Call(Id("src")),
			Return(Id("d").Dot("Finish").Call(Lit(spec.Name), Id("version"), Id("m").Dot("decode").Call(Op("&").Id("d"), Lit(0), Id("version")))),
		)
	}
	f.Func().Add(recv()).Id("Decode").Params(Id("src").Index().Byte(), Id("version").Int16()).Params(Int(), Error()).Block(decode(false)...)
	f.Line()
	gomodel.DocComment(f, "DecodeAliased is Decode, but strings and byte slices point into src, which\nmust stay unchanged while m is in use. It allocates nothing once m's slices\nhave grown to fit.")
	f.Func().Add(recv()).Id("DecodeAliased").Params(Id("src").Index().Byte(), Id("version").Int16()).Params(Int(), Error()).Block(decode(true)...)
	f.Line()
}

// emitMessageHelpers writes what every message's AppendTo shares, once for
// the package: the version check, the buffer sizing and the errors.
func emitMessageHelpers(f *File) {
	f.Line()
	gomodel.DocComment(f, "message is what the package's shared codec paths need of a message.")
	f.Type().Id("message").Interface(
		Id("SpecName").Params().String(),
		Id("size").Params(Id("version").Int16()).Int(),
		Id("appendTo").Params(Id("b").Index().Byte(), Id("version").Int16()).Params(Index().Byte(), Error()),
	)
	f.Line()
	gomodel.DocComment(f, "appendMessage is every message's AppendTo: lo and hi are the versions\ngenerated.")
	f.Func().Id("appendMessage").Params(Id("m").Id("message"), Id("dst").Index().Byte(), List(Id("version"), Id("lo"), Id("hi")).Int16()).Params(Index().Byte(), Error()).Block(
		If(Id("version").Op("<").Id("lo").Op("||").Id("version").Op(">").Id("hi")).Block(
			Return(Id("dst"), gomodel.Cd("UnsupportedVersion").Call(Lit("encode"), Id("m").Dot("SpecName").Call(), Id("version"), Id("lo"), Id("hi"))),
		),
		Id("b").Op(":=").Id("dst"),
		If(Cap(Id("b")).Op("==").Len(Id("b"))).Block(
			Id("b").Op("=").Make(Index().Byte(), Len(Id("dst")), Len(Id("dst")).Op("+").Id("m").Dot("size").Call(Id("version"))),
			Copy(Id("b"), Id("dst")),
		),
		List(Id("b"), Err()).Op(":=").Id("m").Dot("appendTo").Call(Id("b"), Id("version")),
		If(Err().Op("!=").Nil()).Block(
			Return(Id("dst"), gomodel.Cd("Finish").Call(Err(), Id("m").Dot("SpecName").Call(), Id("version"))),
		),
		Return(Id("b"), Nil()),
	)
}

// emitHeaderVersion writes IsRequest and HeaderVersion of a request or
// response.
func (p *printer) emitHeaderVersion(f *File, recv *Statement) {
	spec := p.Plan.Spec
	isReq := spec.Type == schema.TypeRequest
	gomodel.DocComment(f, "IsRequest reports whether this is the request side of the API.")
	f.Func().Add(recv.Clone()).Id("IsRequest").Params().Bool().Block(Return(Lit(isReq)))
	which := "request"
	if !isReq {
		which = "response"
	}
	h := spec.HeaderVersions()
	var body []Code
	if h.AtZero >= 0 {
		body = append(body, If(gomodel.InVersions(schema.Versions{Lo: 0, Hi: 0})).Block(Return(Lit(int(h.AtZero)))))
	}
	switch flex := h.FlexibleVersions; {
	case h.Only >= 0:
		body = append(body, Return(Lit(int(h.Only))))
	case flex.Empty():
		body = append(body, Return(Lit(int(h.Plain))))
	case flex.Lo == 0:
		body = append(body, Return(Lit(int(h.Flexible))))
	default:
		body = append(body,
			If(gomodel.InVersions(flex)).Block(Return(Lit(int(h.Flexible)))),
			Return(Lit(int(h.Plain))))
	}
	gomodel.DocCommentf(f, "HeaderVersion is the %s header version used with version.", which)
	f.Func().Add(recv.Clone()).Id("HeaderVersion").Params(Id("version").Int16()).Int16().Block(body...)
	f.Line()
}
