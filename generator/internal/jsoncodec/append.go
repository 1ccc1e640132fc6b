package jsoncodec

import (
	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/internal/gomodel"
	"github.com/kafkagen/kafkagen/generator/plan"
	"github.com/kafkagen/kafkagen/generator/schema"
)

// emitAppend writes appendJSON(b, version, o), which follows Java's
// JsonConverter.write: fields in spec order, each present field written
// (tagged ones only when not at their default), and an absent field that is
// not ignorable failing when it holds a non-default value. Every member is
// written as ,"key":value and the first comma becomes the '{'.
func (w *jsonStruct) emitAppend(f *File) {
	var body []Code
	body = append(body, Id("start").Op(":=").Len(Id("b")))
	for _, fld := range w.s.Fields {
		body = append(body, w.appendField(fld)...)
	}
	if w.s.HasTags {
		body = append(body, w.appendUnknownTags()...)
	}
	body = append(body,
		If(Len(Id("b")).Op("==").Id("start")).Block(
			Id("b").Op("=").Append(Id("b"), LitRune('{')),
		).Else().Block(
			Id("b").Index(Id("start")).Op("=").LitRune('{'),
		),
		Return(Append(Id("b"), LitRune('}')), Nil()),
	)
	if w.usesErr {
		body = append([]Code{Var().Err().Error()}, body...)
	}
	gomodel.DocComment(f, "appendJSON appends m as a JSON object at version.")
	f.Func().Params(Id("m").Op("*").Id(w.TypeName(w.s))).Id("appendJSON").Params(
		Id("b").Index().Byte(), Id("version").Int16(), Id("o").Op("*").Add(gomodel.Rt("JSONOptions")),
	).Params(Index().Byte(), Error()).Block(body...)
	f.Line()
}

// appendField writes one field, or checks that an absent one can be left out.
func (w *jsonStruct) appendField(f *plan.Field) []Code {
	val := Id("m").Dot(w.FieldName(f))
	write := w.appendValue(f, val)
	if c := w.at(f.Tagged); !c.Never() {
		guarded := []Code{If(gomodel.NotDefault(f.Schema, val.Clone())).Block(write...)}
		if c.Always() {
			write = guarded
		} else {
			write = []Code{If(gomodel.CondExpr(c)).Block(guarded...).Else().Block(write...)}
		}
	}
	var absent []Code
	if !f.Schema.Ignorable {
		absent = []Code{If(gomodel.NotDefault(f.Schema, val.Clone())).Block(Return(Id("b"), gomodel.Cd("AbsentFieldError").Call(Lit(f.Schema.JSONKey()), Id("version"), Lit(w.AbsentFix(f)))))}
	}
	switch c := f.Present; {
	case c.Always():
		return write
	case c.Never():
		return absent
	case len(absent) == 0:
		return []Code{If(gomodel.CondExpr(c)).Block(write...)}
	}
	return []Code{If(gomodel.CondExpr(f.Present)).Block(write...).Else().Block(absent...)}
}

// key appends ,"key": for a field.
func key(name string) Code {
	return Id("b").Op("=").Append(Id("b"), Lit(`,"`+name+`":`).Op("..."))
}

// appendValue writes a present field's key and value, with null where the
// Go value is null and the field is nullable at the version (an error
// otherwise, as AppendTo fails).
func (w *jsonStruct) appendValue(f *plan.Field, val *Statement) []Code {
	k := f.Schema.JSONKey()
	t := f.Schema.Type
	var write []Code
	switch {
	case t.Array:
		loop := For(List(Id("i"), Id("e")).Op(":=").Range().Add(val.Clone()))
		each := w.appendScalar(t.Kind, Id("e"))
		if t.Kind == schema.KindStruct {
			w.usesErr = true
			loop = For(Id("i").Op(":=").Range().Add(val.Clone()))
			each = If(List(Id("b"), Err()).Op("=").Add(val.Clone()).Index(Id("i")).Dot("appendJSON").Call(Id("b"), Id("version"), Id("o")), Err().Op("!=").Nil()).Block(
				Return(Id("b"), gomodel.Cd("WithinElem").Call(Err(), Lit(k), Id("i"))),
			)
		}
		write = []Code{
			key(k),
			Id("b").Op("=").Append(Id("b"), LitRune('[')),
			loop.Block(
				If(Id("i").Op(">").Lit(0)).Block(Id("b").Op("=").Append(Id("b"), LitRune(','))),
				each,
			),
			Id("b").Op("=").Append(Id("b"), LitRune(']')),
		}
	case t.Kind == schema.KindStruct:
		w.usesErr = true
		write = []Code{
			key(k),
			If(List(Id("b"), Err()).Op("=").Add(val.Clone()).Dot("appendJSON").Call(Id("b"), Id("version"), Id("o")), Err().Op("!=").Nil()).Block(
				Return(Id("b"), gomodel.Cd("Within").Call(Err(), Lit(k))),
			),
		}
	case t.Kind == schema.KindRecords:
		write = []Code{If(Id("o").Dot("RecordsSize")).Block(
			key(k+"SizeInBytes"),
			Id("b").Op("=").Add(gomodel.Cd("AppendJSONInt")).Call(Id("b"), Int64().Call(Len(val.Clone()))),
		).Else().Block(
			key(k),
			Id("b").Op("=").Add(gomodel.Cd("AppendJSONBytes")).Call(Id("b"), val.Clone()),
		)}
	case t.Kind == schema.KindString && f.Schema.Nullable():
		write = []Code{key(k), Id("b").Op("=").Add(gomodel.Cd("AppendJSONString")).Call(Id("b"), val.Clone().Dot("Value"))}
	default:
		write = []Code{key(k), w.appendScalar(t.Kind, val.Clone())}
	}
	if !f.Schema.Nullable() {
		return write
	}
	isNull := Add(val.Clone()).Op("==").Nil()
	if t.Kind == schema.KindString && !t.Array {
		isNull = Op("!").Add(val.Clone()).Dot("Valid")
	}
	var ifNull []Code
	switch c := f.Nullable; {
	case c.Always():
		ifNull = []Code{key(k), Id("b").Op("=").Append(Id("b"), Lit("null").Op("..."))}
	case c.Never():
		ifNull = []Code{Return(Id("b"), gomodel.Cd("NullError").Call(Lit(k), Id("version")))}
	default:
		ifNull = []Code{If(gomodel.CondExpr(w.at(c))).Block(
			key(k), Id("b").Op("=").Append(Id("b"), Lit("null").Op("...")),
		).Else().Block(
			Return(Id("b"), gomodel.Cd("NullError").Call(Lit(k), Id("version"))),
		)}
	}
	return []Code{If(isNull).Block(ifNull...).Else().Block(write...)}
}

// appendScalar writes a value of a fixed-width kind, or a non-null string,
// bytes or records value (as an array element, records are bytes).
func (w *jsonStruct) appendScalar(k schema.Kind, val *Statement) Code {
	call := func(fn string, arg Code) Code { return Id("b").Op("=").Add(gomodel.Cd(fn)).Call(Id("b"), arg) }
	switch k {
	case schema.KindBool:
		return call("AppendJSONBool", val)
	case schema.KindInt8, schema.KindInt16, schema.KindInt32:
		return call("AppendJSONInt", Int64().Call(val))
	case schema.KindInt64:
		return call("AppendJSONInt", val)
	case schema.KindUint16, schema.KindUint32:
		return call("AppendJSONUint", Uint64().Call(val))
	case schema.KindFloat64:
		return call("AppendJSONFloat64", val)
	case schema.KindUUID:
		return call("AppendJSONUUID", val)
	case schema.KindString:
		return call("AppendJSONString", val)
	}
	return call("AppendJSONBytes", val) // bytes and records
}

// appendUnknownTags writes the struct's unknown tagged fields, which exist
// on the wire only at flexible versions.
func (w *jsonStruct) appendUnknownTags() []Code {
	write := []Code{
		key(jsonUnknownTagsKey),
		Id("b").Op("=").Add(gomodel.Cd("AppendJSONUnknownTags")).Call(Id("b"), Id("m").Dot("UnknownTags")),
	}
	fail := Return(Id("b"), gomodel.Cd("EncodeError").Call(Lit(""), gomodel.Rt("ErrTaggedFields"), Lit("unknown tagged fields at a version without tag sections")))
	var inner []Code
	switch c := w.s.Flexible; {
	case c.Always():
		inner = write
	case c.Never():
		inner = []Code{fail}
	default:
		inner = []Code{If(gomodel.CondExpr(c)).Block(write...).Else().Block(fail)}
	}
	return []Code{If(Len(Id("m").Dot("UnknownTags")).Op(">").Lit(0).Op("&&").Op("!").Id("o").Dot("OmitUnknownTags")).Block(inner...)}
}
