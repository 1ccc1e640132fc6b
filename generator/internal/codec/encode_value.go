package codec

import (
	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/internal/gomodel"
	"github.com/kafkagen/kafkagen/generator/plan"
	"github.com/kafkagen/kafkagen/generator/schema"
)

// appendValue writes one field value, val, with Java's write errors: null
// where the version does not allow it, strings over 32767 bytes. tagged:
// the value is a tagged field's payload (a nullable struct's marker is then
// a uvarint, and structs are never inlined).
func appendValue(f *plan.Field, val *Statement, tagged bool, sc scope) []Code {
	t := f.Schema.Type
	var lengths *Statement
	if hasLength(f.Schema) {
		lengths, _ = sc.lengthsFor(f, tagged)
	}
	name := f.Schema.Name
	nullable := f.Schema.Nullable()
	nullErr := func() Code { return sc.encodeErr(gomodel.Cd("NullError").Call(Lit(name), Id("version"))) }
	tooLongErr := func() Code { return sc.encodeErr(gomodel.Cd("StringTooLongError").Call(Lit(name))) }
	// nullGuard fails a null value where the version does not allow null.
	nullGuard := func(isNull *Statement) []Code {
		c := f.Nullable
		switch {
		case !nullable || c.Always():
			return nil
		case c.Never():
			return []Code{If(isNull).Block(nullErr())}
		}
		return []Code{If(gomodel.NotCondExpr(c).Op("&&").Add(isNull)).Block(nullErr())}
	}
	tooLong := func(s *Statement) Code {
		return If(Len(s).Op(">").Add(gomodel.Rt("MaxStringLen"))).Block(tooLongErr())
	}
	appendTo := func(fn string, args ...Code) Code {
		return Id("b").Op("=").Add(gomodel.Cd(fn)).Call(append([]Code{Id("b")}, args...)...)
	}
	// writeOne writes a single value: through a package helper in code that
	// runs once per message (calls.go).
	writeOne := func(fn string, args ...Code) Code {
		return Id("b").Op("=").Add(sc.write(fn, append([]Code{Id("b")}, args...)...))
	}
	if t.Array {
		out := []Code{writeOne("AppendArrayLen", Len(val), lengths)}
		if nullable {
			out = append(nullGuard(Add(val).Op("==").Nil()), If(Add(val).Op("==").Nil()).Block(
				appendTo("AppendArrayLen", Lit(-1), lengths),
			).Else().Block(out...))
		}
		each := func(stmts ...Code) Code {
			return For(List(Id("_"), Id("e")).Op(":=").Range().Add(val)).Block(stmts...)
		}
		switch t.Kind {
		case schema.KindString:
			return append(out, each(tooLong(Id("e")), appendTo("AppendString", Id("e"), lengths)))
		case schema.KindBytes, schema.KindRecords:
			return append(out, each(appendTo("AppendBytes", Id("e"), lengths)))
		case schema.KindStruct:
			if f.Inline && !tagged {
				in := sc.inlined(f)
				body := append([]Code{Id(in.recv).Op(":=").Op("&").Add(val).Index(Id("i"))}, appendBody(f.Inlined, in)...)
				return append(out, For(Id("i").Op(":=").Range().Add(val)).Block(body...))
			}
			return append(out, For(Id("i").Op(":=").Range().Add(val)).Block(
				If(sc.assignErr().Add(val).Index(Id("i")).Dot("appendTo").Call(Id("b"), Id("version")), Err().Op("!=").Nil()).Block(
					sc.encodeErr(gomodel.Cd("WithinElem").Call(Err(), Lit(name), Id("i"))),
				),
			))
		}
		return append(out, each(Id("b").Op("=").Add(appendPrimitive(t.Kind, Id("e")))))
	}
	switch t.Kind {
	case schema.KindString:
		if !nullable {
			return []Code{tooLong(val), writeOne("AppendString", val, lengths)}
		}
		out := nullGuard(Op("!").Add(val).Dot("Valid"))
		out = append(out, If(Add(val).Dot("Valid").Op("&&").Len(Add(val).Dot("Value")).Op(">").Add(gomodel.Rt("MaxStringLen"))).Block(tooLongErr()))
		return append(out, appendTo("AppendNullString", val, lengths))
	case schema.KindBytes, schema.KindRecords:
		if !nullable {
			return []Code{appendTo("AppendBytes", val, lengths)}
		}
		return append(nullGuard(Add(val).Op("==").Nil()), appendTo("AppendNullBytes", val, lengths))
	case schema.KindStruct:
		call := If(sc.assignErr().Add(val).Dot("appendTo").Call(Id("b"), Id("version")), Err().Op("!=").Nil()).Block(
			sc.encodeErr(gomodel.Cd("Within").Call(Err(), Lit(name))),
		)
		if !nullable {
			return []Code{call}
		}
		// A nullable struct is preceded by a marker where it may be null: an
		// int8 (-1 null, 1 present), or in a tag section a uvarint (0, 1).
		null := Lit(0xff)
		if tagged {
			null = Lit(0)
		}
		c := f.Nullable
		switch {
		case c.Never():
			return []Code{If(Add(val).Op("==").Nil()).Block(nullErr()), call}
		case c.Always():
			return []Code{If(Add(val).Op("==").Nil()).Block(
				Id("b").Op("=").Append(Id("b"), null),
			).Else().Block(Id("b").Op("=").Append(Id("b"), Lit(1)), call)}
		}
		return []Code{If(Add(val).Op("==").Nil()).Block(
			If(gomodel.NotCondExpr(c)).Block(nullErr()),
			Id("b").Op("=").Append(Id("b"), null),
		).Else().Block(
			If(gomodel.CondExpr(c)).Block(Id("b").Op("=").Append(Id("b"), Lit(1))),
			call,
		)}
	}
	return []Code{writeOne("Append"+primitiveKinds[t.Kind], val)}
}

// encodeFixed writes a fixed-width value at offset off of the window p.
func encodeFixed(k schema.Kind, off int, val *Statement) Code {
	be := func(fn string, v Code) Code {
		return Qual("encoding/binary", "BigEndian").Dot(fn).Call(Id("p").Index(Lit(off).Op(":")), v)
	}
	switch k {
	case schema.KindBool:
		return Id("p").Index(Lit(off)).Op("=").Add(gomodel.Cd("Bool8")).Call(val)
	case schema.KindInt8:
		return Id("p").Index(Lit(off)).Op("=").Byte().Call(val)
	case schema.KindInt16, schema.KindUint16:
		return be("PutUint16", Uint16().Call(val))
	case schema.KindInt32, schema.KindUint32:
		return be("PutUint32", Uint32().Call(val))
	case schema.KindInt64:
		return be("PutUint64", Uint64().Call(val))
	case schema.KindFloat64:
		return be("PutUint64", Qual("math", "Float64bits").Call(val))
	case schema.KindUUID:
		return Copy(Id("p").Index(Lit(off).Op(":").Lit(off+16)), Add(val).Index(Op(":")))
	}
	panic("not a fixed-width kind: " + k.String())
}

// appendPrimitive is the Append call writing one fixed-width value.
func appendPrimitive(k schema.Kind, val *Statement) *Statement {
	fn := map[schema.Kind]string{
		schema.KindBool: "AppendBool", schema.KindInt8: "AppendInt8", schema.KindInt16: "AppendInt16",
		schema.KindUint16: "AppendUint16", schema.KindInt32: "AppendInt32", schema.KindUint32: "AppendUint32",
		schema.KindInt64: "AppendInt64", schema.KindFloat64: "AppendFloat64", schema.KindUUID: "AppendUUID",
	}[k]
	return gomodel.Cd(fn).Call(Id("b"), val)
}
