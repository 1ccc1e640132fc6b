package generator

import (
	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// emitDecode writes decode(r, version). Every field is either read or set to
// its default, so decoding into a used struct equals decoding into a new
// one, while slices, strings and nested structs are reused.
func emitDecode(f *Group, sm *structModel, calls map[*structModel]bool) error {
	body, err := decodeBody(sm, methodCtx(sm, calls))
	if err != nil {
		return err
	}
	f.Func().Params(Id("m").Op("*").Id(sm.goName)).Id("decode").Params(Id("r").Op("*").Add(rt("Reader")), Id("version").Int16()).Block(body...)
	f.Line()
	return nil
}

// decodeBody decodes into the struct held by cx.recv.
func decodeBody(sm *structModel, cx *emitCtx) ([]Code, error) {
	var body []Code
	body = append(body, cx.declareFlexible(sm)...)
	runs := fixedRuns(sm)
	groups := fixedGroups(sm)
	for i := 0; i < len(sm.fields); i++ {
		fm := sm.fields[i]
		if g := groups[i]; g != nil {
			code, err := g.read(sm, cx)
			if err != nil {
				return nil, err
			}
			body = append(body, code)
			i += len(g.fields) - 1
			continue
		}
		if run := runs[i]; len(run) > 1 {
			body = append(body, readRun(run, cx)...)
			i += len(run) - 1
			continue
		}
		val := cx.r().Dot(fm.goName)
		inline, iAlways, iNever := fm.inlineCond()
		_, tAlways, tNever := fm.taggedCond()
		notTagged, _, _ := notVerCond(fm.f.TaggedVersions, fm.owner.within())
		def, err := fm.setDefault(val.Clone())
		if err != nil {
			return nil, err
		}
		var read []Code
		if !iNever {
			read = readValue(fm, val.Clone(), fm.compactExpr(), false, cx)
		}
		// Where the field is neither inline nor tagged it takes its default.
		var otherwise []Code
		switch {
		case tAlways:
		case tNever:
			otherwise = def
		default:
			otherwise = []Code{If(notTagged).Block(def...)}
		}
		switch {
		case iAlways:
			body = append(body, read...)
		case iNever:
			body = append(body, otherwise...)
		case len(otherwise) == 0:
			body = append(body, If(inline).Block(read...))
		default:
			body = append(body, If(inline).Block(read...).Else().Block(otherwise...))
		}
	}
	if sm.hasTags {
		reset := cx.r().Dot("UnknownTags").Op("=").Add(cx.r()).Dot("UnknownTags").Index(Empty(), Lit(0))
		section := []Code{reset}
		track := len(sm.tagged) <= 64
		var cases []Code
		var after []Code
		for i, fm := range sm.tagged {
			val := cx.r().Dot(fm.goName)
			tc, tAlways, tNever := fm.tagSectionCond()
			read := readValue(fm, val.Clone(), True(), true, cx)
			if track {
				read = append(read, Id("seen").Op("|=").Lit(uint64(1)<<uint(i)))
			}
			invalid := cx.fail(Id("r").Dot("InvalidTag").Call(Id("tag"), Id("version")), Id("r").Dot("Within").Call(Lit(fm.f.Name)))
			var c []Code
			switch {
			case tAlways:
				c = read
			case tNever:
				c = invalid
			default:
				c = []Code{If(tc.Clone()).Block(read...).Else().Block(invalid...)}
			}
			cases = append(cases, Case(Lit(fm.f.Tag)).Block(c...))
			if tNever {
				continue
			}
			def, err := fm.setDefault(val.Clone())
			if err != nil {
				return nil, err
			}
			if !track {
				section = append(section, def...)
				continue
			}
			cond := Id("seen").Op("&").Lit(uint64(1) << uint(i)).Op("==").Lit(0)
			if !tAlways {
				cond = Parens(tc).Op("&&").Add(cond)
			}
			after = append(after, If(cond).Block(def...))
		}
		if track && len(sm.tagged) > 0 {
			section = append(section, Var().Id("seen").Uint64())
		}
		unknown := cx.r().Dot("UnknownTags").Op("=").Id("r").Dot("UnknownTag").Call(cx.r().Dot("UnknownTags"), Id("tag"), Id("size"))
		var dispatch Code = unknown
		if len(cases) > 0 {
			dispatch = Switch(Id("tag")).Block(append(cases, Default().Block(unknown))...)
		}
		// Most tag sections are a single zero byte: EmptyTags takes it inline.
		section = append(section,
			If(Op("!").Id("r").Dot("EmptyTags").Call()).Block(
				For(List(Id("i"), Id("n")).Op(":=").List(Lit(0), Id("r").Dot("TagCount").Call()), Id("i").Op("<").Id("n"), Id("i").Op("++")).Block(
					List(Id("tag"), Id("size")).Op(":=").Id("r").Dot("TagHeader").Call(),
					dispatch,
					If(Id("r").Dot("Failed").Call()).Block(cx.fail()...),
				),
				If(Id("r").Dot("Failed").Call()).Block(cx.fail()...),
			),
		)
		section = append(section, after...)
		switch fc := sm.flexibleExpr(); fc.GoString() {
		case "true":
			body = append(body, section...)
		case "false":
			body = append(body, reset)
		default:
			body = append(body, If(fc).Block(section...).Else().Block(reset))
		}
	}
	return body, nil
}

// readValue reads one field value into val and returns early, naming the
// field, when the read fails.
// With a context, struct values and array elements are inlined.
func readValue(fm *fieldModel, val *Statement, compact *Statement, tagged bool, cx *emitCtx) []Code {
	t := fm.f.Type
	name := fm.f.Name
	failed := If(Id("r").Dot("Failed").Call()).Block(cx.fail(Id("r").Dot("Within").Call(Lit(name)))...)
	nc, nAlways, nNever := fm.nullableCond()
	nullable := boolExpr(nc, nAlways, nNever)
	if !fm.nullable {
		nullable = False()
	}
	// choose emits one of two reads by nullability at this version.
	choose := func(ifNull, ifNot []Code) []Code {
		switch {
		case !fm.nullable || nNever:
			return ifNot
		case nAlways:
			return ifNull
		}
		return []Code{If(nc).Block(ifNull...).Else().Block(ifNot...)}
	}
	r := func(method string, args ...Code) *Statement { return Id("r").Dot(method).Call(args...) }
	if t.Array {
		var each Code
		switch t.Kind {
		case schema.KindString:
			each = For(Id("i").Op(":=").Range().Add(val)).Block(Add(val).Index(Id("i")).Op("=").Add(r("String", compact, Add(val).Index(Id("i")))))
		case schema.KindBytes, schema.KindRecords:
			each = For(Id("i").Op(":=").Range().Add(val)).Block(Add(val).Index(Id("i")).Op("=").Add(r("Bytes", compact, Add(val).Index(Id("i")))))
		case schema.KindStruct:
			each = For(Id("i").Op(":=").Range().Add(val)).Block(
				Add(val).Index(Id("i")).Dot("decode").Call(Id("r"), Id("version")),
				If(Id("r").Dot("Failed").Call()).Block(cx.fail(Id("r").Dot("WithinElem").Call(Lit(name), Id("i")))...),
			)
			inlined := false
			if !tagged && cx.canInline(fm.elem) {
				iv := cx.index()
				child := cx.child(fm.elem, name, iv)
				if body, err := decodeBody(fm.elem, child); err == nil {
					each = For(Id(iv).Op(":=").Range().Add(val)).Block(bindIfUsed(child.recv, Add(val).Index(Id(iv)), body)...)
					inlined = true
				}
			}
			if !inlined {
				cx.call(fm.elem)
			}
		default:
			each = For(Id("i").Op(":=").Range().Add(val)).Block(Add(val).Index(Id("i")).Op("=").Add(readPrimitive(t.Kind)))
		}
		grow := []Code{Add(val).Op("=").Add(rt("Grow")).Call(val, Id("n")), each}
		min := Lit(minSize(t.Kind, fm.elem))
		lenCall := r("ArrayLen", compact, nullable, min)
		// Counts below 127 in compact versions are read inline.
		count := []Code{List(Id("n"), Id("ok")).Op(":=").Add(r("SmallArrayLen", compact, min.Clone()))}
		if compact.GoString() == "false" {
			count = []Code{Id("n").Op(":=").Add(lenCall)}
		} else {
			count = append(count, If(Op("!").Id("ok")).Block(Id("n").Op("=").Add(lenCall)))
		}
		if fm.nullable && !nNever {
			return append([]Code{Block(append(count, If(Id("n").Op("<").Lit(0)).Block(
				Add(val).Op("=").Nil(),
			).Else().Block(grow...))...)}, failed)
		}
		// The count cannot be negative here: ArrayLen fails instead.
		return append([]Code{Block(append(count, grow...)...)}, failed)
	}
	switch t.Kind {
	case schema.KindString:
		if !fm.nullable {
			return []Code{Add(val).Op("=").Add(r("String", compact, val)), failed}
		}
		return append(choose(
			[]Code{Add(val).Op("=").Add(r("NullString", compact, val))},
			[]Code{Add(val).Op("=").Add(rt("NullString")).Values(Dict{
				Id("Value"): r("String", compact, Add(val).Dot("Value")), Id("Valid"): True(),
			})},
		), failed)
	case schema.KindBytes, schema.KindRecords:
		read := choose(
			[]Code{Add(val).Op("=").Add(r("NullBytes", compact, val))},
			[]Code{Add(val).Op("=").Add(r("Bytes", compact, val))},
		)
		if compact.GoString() != "false" {
			// Values of 127 to 16382 bytes (record batches) take the
			// inlined path; the call handles the rest and reports errors.
			read = []Code{If(List(Id("win"), Id("ok")).Op(":=").Add(r("QuickBytes", compact)), Id("ok")).Block(
				Add(val).Op("=").Add(r("Keep", Id("win"), val)),
			).Else().Block(read...)}
		}
		return append(read, failed)
	case schema.KindStruct:
		dec := []Code{Add(val).Dot("decode").Call(Id("r"), Id("version")), failed}
		if !fm.nullable && !tagged && cx.canInline(fm.elem) {
			child := cx.child(fm.elem, name, "")
			if body, err := decodeBody(fm.elem, child); err == nil {
				return []Code{Block(bindIfUsed(child.recv, val, body)...)}
			}
		}
		cx.call(fm.elem)
		if !fm.nullable {
			return dec
		}
		alloc := If(Add(val).Op("==").Nil()).Block(Add(val).Op("=").New(Id(fm.elem.goName)))
		marker := "StructMarker" // int8: negative is null
		if tagged {
			marker = "TaggedStructMarker" // uvarint: zero is null
		}
		withMarker := []Code{If(Op("!").Add(r(marker))).Block(
			If(Id("r").Dot("Failed").Call()).Block(cx.fail(Id("r").Dot("Within").Call(Lit(name)))...),
			Add(val).Op("=").Nil(),
		).Else().Block(append([]Code{alloc}, dec...)...)}
		return choose(withMarker, append([]Code{alloc}, dec...))
	}
	return []Code{Add(val).Op("=").Add(readPrimitive(t.Kind)), failed}
}

// fixedRuns maps the index of the first field of each run of consecutive
// fixed-width fields, present in place at every version the struct is used
// at, to the run's fields.
func fixedRuns(sm *structModel) map[int][]*fieldModel {
	runs := map[int][]*fieldModel{}
	start := -1
	for i := 0; i <= len(sm.fields); i++ {
		ok := false
		if i < len(sm.fields) {
			fm := sm.fields[i]
			_, always, _ := fm.inlineCond()
			ok = always && !fm.f.HasTag && fm.fixedWidth() > 0
		}
		if ok && start < 0 {
			start = i
		}
		if !ok && start >= 0 {
			runs[start] = sm.fields[start:i]
			start = -1
		}
	}
	return runs
}

// readRun reads a run of fixed-width fields with a single bounds check.
func readRun(run []*fieldModel, cx *emitCtx) []Code {
	var reads, ends, names []Code
	off := 0
	for _, fm := range run {
		w := fm.fixedWidth()
		reads = append(reads, cx.r().Dot(fm.goName).Op("=").Add(decodeFixed(fm.kind(), off)))
		off += w
		ends = append(ends, Lit(off))
		names = append(names, Lit(fm.f.Name))
	}
	return []Code{
		If(Id("p").Op(":=").Id("r").Dot("Fixed").Call(Lit(off)), Id("p").Op("!=").Nil()).Block(
			append([]Code{Id("_").Op("=").Id("p").Index(Lit(off - 1))}, reads...)...,
		).Else().Block(
			cx.fail(Id("r").Dot("FailRun").Call(Index().Int().Values(ends...), Index().String().Values(names...)))...,
		),
	}
}

// decodeFixed reads a fixed-width value at offset off of p.
func decodeFixed(k schema.Kind, off int) *Statement {
	be := func(fn string) *Statement {
		return Qual("encoding/binary", "BigEndian").Dot(fn).Call(Id("p").Index(Lit(off).Op(":")))
	}
	switch k {
	case schema.KindBool:
		return Id("p").Index(Lit(off)).Op("!=").Lit(0)
	case schema.KindInt8:
		return Int8().Call(Id("p").Index(Lit(off)))
	case schema.KindInt16:
		return Int16().Call(be("Uint16"))
	case schema.KindUint16:
		return be("Uint16")
	case schema.KindInt32:
		return Int32().Call(be("Uint32"))
	case schema.KindUint32:
		return be("Uint32")
	case schema.KindInt64:
		return Int64().Call(be("Uint64"))
	case schema.KindFloat64:
		return Qual("math", "Float64frombits").Call(be("Uint64"))
	case schema.KindUUID:
		return rt("UUID").Call(Id("p").Index(Lit(off).Op(":").Lit(off + 16)))
	}
	panic("not a fixed-width kind: " + k.String())
}

func readPrimitive(k schema.Kind) *Statement {
	m := map[schema.Kind]string{
		schema.KindBool: "Bool", schema.KindInt8: "Int8", schema.KindInt16: "Int16",
		schema.KindUint16: "Uint16", schema.KindInt32: "Int32", schema.KindUint32: "Uint32",
		schema.KindInt64: "Int64", schema.KindFloat64: "Float64", schema.KindUUID: "UUID",
	}[k]
	return Id("r").Dot(m).Call()
}
