package jsoncodec

import (
	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/internal/gomodel"
	"github.com/kafkagen/kafkagen/generator/plan"
	"github.com/kafkagen/kafkagen/generator/schema"
)

// emitDecode writes decodeJSON(r, version) into a struct holding its
// defaults (Reset). Unlike Java's converter, which ignores keys it does not
// know and reads fields the version lacks, it refuses both, as well as
// duplicate keys; like Java, it requires every field present and not tagged
// at the version, and leaves the others at their default.
func (w *jsonStruct) emitDecode(f *File) {
	r := func(method string, args ...Code) *Statement { return Id("r").Dot(method).Call(args...) }
	var cases []Code
	keys := map[string]bool{}
	for _, f := range w.s.Fields {
		keys[f.Schema.JSONKey()] = true
	}
	seen := 0
	for _, f := range w.s.Fields {
		k := f.Schema.JSONKey()
		cases = append(cases, Case(Lit(k)).Block(w.enterField(seen, f.Present, k, w.readValue(f, Id("m").Dot(w.FieldName(f))))...))
		if sk, t := k+"SizeInBytes", f.Schema.Type; t.Kind == schema.KindRecords && !t.Array && !keys[sk] {
			cases = append(cases, Case(Lit(sk)).Block(r("RecordsSizeKey")))
		}
		seen++
	}
	if w.s.HasTags {
		cases = append(cases, Case(Lit(jsonUnknownTagsKey)).Block(w.enterField(seen, w.s.Flexible, jsonUnknownTagsKey, []Code{
			Id("m").Dot("UnknownTags").Op("=").Add(r("UnknownTags", Id("m").Dot("UnknownTags"), Lit(w.s.MaxTag))),
		})...))
		seen++
	}
	cases = append(cases, Default().Block(r("UnknownKey")))

	body := []Code{If(Op("!").Add(r("ObjectStart"))).Block(Return())}
	if seen > 0 {
		body = append(body, Var().Id("seen").Index(Lit(seen)).Bool())
	}
	body = append(body, For(r("NextKey")).Block(
		Switch(String().Call(r("Key"))).Block(cases...),
		r("Pop"),
	))
	for i, f := range w.s.Fields {
		c := f.InPlace
		if c.Never() {
			continue
		}
		given := Id("seen").Index(Lit(i))
		if !c.Always() {
			given = given.Op("||").Add(gomodel.NotCondExpr(c))
		}
		body = append(body, r("Require", given, Lit(f.Schema.JSONKey())))
	}
	gomodel.DocComment(f, "decodeJSON reads m, which holds its defaults, from a JSON object at version.")
	f.Func().Params(Id("m").Op("*").Id(w.TypeName(w.s))).Id("decodeJSON").Params(
		Id("r").Op("*").Add(gomodel.Cd("JSONReader")), Id("version").Int16(),
	).Block(body...)
	f.Line()
}

// readValue reads the value of a field present at the version into val.
func (w *jsonStruct) readValue(f *plan.Field, val *Statement) []Code {
	r := func(method string, args ...Code) *Statement { return Id("r").Dot(method).Call(args...) }
	t := f.Schema.Type
	nullable := f.Schema.Nullable()
	nullOK := gomodel.Cd("NullRefused")
	if nullable {
		switch c := f.Nullable; {
		case c.Always():
			nullOK = gomodel.Cd("NullAllowed")
		case !c.Never():
			nullOK = gomodel.Cd("Nullability").Call(gomodel.CondExpr(c))
		}
	}
	if t.Array {
		i := Id("i")
		elem := Add(val.Clone()).Index(i.Clone())
		var read []Code
		switch t.Kind {
		case schema.KindStruct:
			read = []Code{elem.Clone().Dot("Reset").Call(), elem.Clone().Dot("decodeJSON").Call(Id("r"), Id("version"))}
		case schema.KindString:
			read = []Code{elem.Clone().Op("=").Add(r("String", elem.Clone()))}
		case schema.KindBytes, schema.KindRecords:
			read = []Code{elem.Clone().Op("=").Add(r("Bytes", elem.Clone()))}
		default:
			read = []Code{elem.Clone().Op("=").Add(readJSONScalar(t.Kind))}
		}
		loop := For(Id("i").Op(":=").Lit(0), r("NextElem"), Id("i").Op("++")).Block(append(
			[]Code{r("Index", Id("i")), Add(val.Clone()).Op("=").Add(gomodel.Cd("Grow")).Call(val.Clone(), Id("i").Op("+").Lit(1))},
			read...)...)
		arr := If(r("ArrayStart", nullOK)).Block(
			Add(val.Clone()).Op("=").Add(gomodel.Cd("Grow")).Call(val.Clone(), Lit(0)),
			loop,
		)
		if nullable {
			arr = arr.Else().Block(Add(val.Clone()).Op("=").Nil())
		}
		return []Code{arr}
	}
	switch t.Kind {
	case schema.KindStruct:
		decode := Add(val.Clone()).Dot("decodeJSON").Call(Id("r"), Id("version"))
		if !nullable {
			return []Code{decode}
		}
		return []Code{If(r("NotNull", nullOK)).Block(
			If(Add(val.Clone()).Op("==").Nil()).Block(
				Add(val.Clone()).Op("=").New(Id(w.TypeName(f.Elem))),
				Add(val.Clone()).Dot("Reset").Call(),
			),
			decode,
		).Else().Block(Add(val.Clone()).Op("=").Nil())}
	case schema.KindString:
		if !nullable {
			return []Code{Add(val.Clone()).Op("=").Add(r("String", val.Clone()))}
		}
		return []Code{If(r("NotNull", nullOK)).Block(
			Add(val.Clone()).Op("=").Add(gomodel.Rt("NullString")).Values(Dict{
				Id("Value"): r("String", val.Clone().Dot("Value")), Id("Valid"): True(),
			}),
		).Else().Block(Add(val.Clone()).Op("=").Add(gomodel.Rt("NullString")).Values())}
	case schema.KindBytes, schema.KindRecords:
		if !nullable {
			return []Code{Add(val.Clone()).Op("=").Add(r("Bytes", val.Clone()))}
		}
		return []Code{If(r("NotNull", nullOK)).Block(
			Add(val.Clone()).Op("=").Add(r("Bytes", val.Clone())),
		).Else().Block(Add(val.Clone()).Op("=").Nil())}
	}
	return []Code{Add(val.Clone()).Op("=").Add(readJSONScalar(t.Kind))}
}

// enterField reads the value of key, the field seen counts, with read where
// the version has the field (vs) and fails where it has not.
func (w *jsonStruct) enterField(seen int, c plan.Cond, key string, read []Code) []Code {
	r := Id("r")
	flag := Op("&").Id("seen").Index(Lit(seen))
	switch {
	case c.Always():
		return []Code{If(r.Dot("Field").Call(flag, Lit(key))).Block(read...)}
	case c.Never():
		return []Code{r.Dot("NotInVersion").Call(Lit(key))}
	default:
		return []Code{If(r.Dot("FieldAt").Call(flag, gomodel.CondExpr(c), Lit(key))).Block(read...)}
	}
}

// readJSONScalar reads a value of a fixed-width kind.
func readJSONScalar(k schema.Kind) *Statement {
	m := map[schema.Kind]string{
		schema.KindBool: "Bool", schema.KindInt8: "Int8", schema.KindInt16: "Int16",
		schema.KindUint16: "Uint16", schema.KindInt32: "Int32", schema.KindUint32: "Uint32",
		schema.KindInt64: "Int64", schema.KindFloat64: "Float64", schema.KindUUID: "UUID",
	}[k]
	return Id("r").Dot(m).Call()
}
