package codec

import (
	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/internal/gomodel"
	"github.com/kafkagen/kafkagen/generator/plan"
	"github.com/kafkagen/kafkagen/generator/schema"
)

// readValue reads one field value into val. tagged: the value is a tagged
// field's payload (a nullable struct's marker is then a uvarint, and
// structs are never inlined).
func readValue(f *plan.Field, val *Statement, tagged bool, sc scope) []Code {
	t := f.Schema.Type
	var lengths *Statement
	var classic bool
	if hasLength(f.Schema) {
		lengths, classic = sc.lengthsFor(f, tagged)
	}
	name := Lit(f.Schema.Name)
	nullable := f.Schema.Nullable()
	d := func(method string, args ...Code) *Statement {
		return Id("d").Dot(method).Call(append([]Code{Id("off")}, args...)...)
	}
	assign := func(v *Statement, read *Statement) Code { return List(v, Id("off")).Op("=").Add(read) }
	// byNullable reads with ifNull where the version allows null, with
	// ifNot where it does not.
	byNullable := func(ifNull, ifNot func() []Code) []Code {
		c := f.Nullable
		switch {
		case !nullable || c.Never():
			return ifNot()
		case c.Always():
			return ifNull()
		}
		return []Code{If(gomodel.CondExpr(c)).Block(ifNull()...).Else().Block(ifNot()...)}
	}
	if t.Array {
		return readArray(f, val, lengths, classic, tagged, sc, byNullable)
	}
	switch t.Kind {
	case schema.KindString:
		if !nullable {
			return []Code{assign(val, d("String", lengths, val.Clone(), name))}
		}
		return byNullable(
			func() []Code { return []Code{assign(val, d("NullString", lengths, val.Clone(), name))} },
			func() []Code {
				return []Code{assign(Add(val).Dot("Value"), d("String", lengths, Add(val).Dot("Value"), name)), Add(val).Dot("Valid").Op("=").True()}
			},
		)
	case schema.KindBytes, schema.KindRecords:
		read := byNullable(
			func() []Code { return []Code{assign(val, d("NullBytes", lengths, val.Clone(), name))} },
			func() []Code { return []Code{assign(val, d("Bytes", lengths, val.Clone(), name))} },
		)
		if t.Kind == schema.KindBytes || classic || !sc.hot {
			return read
		}
		// Record batches of 127 to 16382 bytes take the inlined path; the
		// calls read the rest and report what is wrong.
		return []Code{If(List(Id("win"), Id("end")).Op(":=").Id("d").Dot("QuickBytes").Call(Id("off"), lengths), Id("end").Op(">").Id("off")).Block(
			List(val.Clone(), Id("off")).Op("=").List(Id("d").Dot("Keep").Call(Id("win"), val.Clone()), Id("end")),
		).Else().Block(read...)}
	case schema.KindStruct:
		decode := Id("off").Op("=").Id("d").Dot("Within").Call(Id("off"), Add(val).Dot("decode").Call(Id("d"), Id("off"), Id("version")), name)
		if !nullable {
			return []Code{decode}
		}
		alloc := If(Add(val).Op("==").Nil()).Block(Add(val).Op("=").New(Id(sc.TypeName(f.Elem))))
		marker := "StructMarker" // int8: negative is null
		if tagged {
			marker = "TaggedStructMarker" // uvarint: zero is null
		}
		return byNullable(
			func() []Code {
				sc.uses.marker = true
				return []Code{If(List(Id("present"), Id("off")).Op("=").Add(d(marker, name)), Op("!").Id("present")).Block(
					Add(val).Op("=").Nil(),
				).Else().Block(alloc, decode)}
			},
			func() []Code { return []Code{alloc, decode} },
		)
	}
	return []Code{assign(val, sc.read(primitiveKinds[t.Kind], Id("off"), name))}
}

// readArray reads an array field: its count (a count below 127 in Compact
// form inline), the slice grown to it reusing its capacity, then each
// element. After a struct element, a failure stops the decode, naming the
// element.
func readArray(f *plan.Field, val, lengths *Statement, classic, tagged bool, sc scope, byNullable func(ifNull, ifNot func() []Code) []Code) []Code {
	t := f.Schema.Type
	name := Lit(f.Schema.Name)
	minElem := Lit(f.MinElemSize)
	sc.uses.count = true
	count := func(method string) func() []Code {
		return func() []Code {
			return []Code{List(Id("n"), Id("off")).Op("=").Id("d").Dot(method).Call(Id("off"), lengths, minElem.Clone(), name.Clone())}
		}
	}
	var out []Code
	slow := byNullable(count("NullArrayLen"), count("ArrayLen"))
	if classic || !sc.hot {
		out = slow
	} else {
		out = []Code{If(List(Id("n"), Id("off")).Op("=").Id("d").Dot("SmallArrayLen").Call(Id("off"), lengths, minElem.Clone()), Id("n").Op("<").Lit(0)).Block(slow...)}
	}
	out = append(out, growTo(f, val, sc)...)
	i := Id(sc.index)
	elem := Add(val).Index(i.Clone())
	read := func(method string, args ...Code) Code {
		return List(elem.Clone(), Id("off")).Op("=").Id("d").Dot(method).Call(append([]Code{Id("off")}, args...)...)
	}
	var body []Code
	switch t.Kind {
	case schema.KindString:
		body = []Code{read("String", lengths, elem.Clone(), name)}
	case schema.KindBytes, schema.KindRecords:
		body = []Code{read("Bytes", lengths, elem.Clone(), name)}
	case schema.KindStruct:
		failed := []Code{Id("d").Dot("WithinElem").Call(name, i.Clone()), Return(Id("off"))}
		if f.Inline && !tagged {
			// The loop runs over a copy of the slice header, which stores
			// into the elements cannot change: no reload, no bounds check.
			in := sc.inlined(f)
			body = append([]Code{Id(in.recv).Op(":=").Op("&").Id("elems").Index(i.Clone())}, fixedElem(f.Inlined, in)...)
			body = append(body, decodeBody(f.Inlined, in)...)
			body = append(body, If(Id("d").Dot("Failed").Call()).Block(failed...))
			loop := For(List(i.Clone(), Id("elems")).Op(":=").List(Lit(0), val.Clone()), i.Clone().Op("<").Len(Id("elems")), i.Clone().Op("++"))
			return append(out, loop.Block(body...))
		} else {
			body = []Code{If(Id("off").Op("=").Add(elem).Dot("decode").Call(Id("d"), Id("off"), Id("version")), Id("d").Dot("Failed").Call()).Block(failed...)}
		}
	default:
		body = []Code{List(elem.Clone(), Id("off")).Op("=").Add(readPrimitive(t.Kind, f.Schema.Name))}
	}
	return append(out, For(i.Clone().Op(":=").Range().Add(val)).Block(body...))
}

// growTo gives the array val the length n read before it (-1: null),
// reusing its capacity and keeping the elements past its length, and what
// they hold, for reuse. Arrays of primitives share runtime.Grow; arrays of
// structs grow in place, so that each struct type does not make Grow
// compile once more.
func growTo(f *plan.Field, val *Statement, sc scope) []Code {
	if k := f.Schema.Type.Kind; k != schema.KindStruct {
		return []Code{Add(val).Op("=").Add(sc.call(gomodel.Cd("Grow"), "Grow"+growKinds[k]+"NoInline", val.Clone(), Id("n")))}
	}
	// A new backing array holds the old elements; an empty array is not
	// nil (null).
	grow := Add(val).Op("=").Append(Make(Index().Id(sc.TypeName(f.Elem)), Lit(0), Id("n")), Add(val).Index(Empty(), Cap(val)).Op("..."))
	needed := Id("n").Op(">").Cap(val).Op("||").Add(val).Op("==").Nil()
	if !f.Schema.Nullable() {
		return []Code{If(needed).Block(grow), Add(val).Op("=").Add(val).Index(Empty(), Id("n"))}
	}
	return []Code{Switch().Block(
		Case(Id("n").Op("<").Lit(0)).Block(Add(val).Op("=").Nil()),
		Case(needed).Block(grow, Add(val).Op("=").Add(val).Index(Empty(), Id("n"))),
		Default().Block(Add(val).Op("=").Add(val).Index(Empty(), Id("n"))),
	)}
}

// readPrimitive is the Decoder call reading one fixed-width value of the
// field named field at off.
func readPrimitive(k schema.Kind, field string) *Statement {
	return Id("d").Dot(primitiveKinds[k]).Call(Id("off"), Lit(field))
}

// decodeFixed reads a fixed-width value at offset off of the window p.
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
		return gomodel.Rt("UUID").Call(Id("p").Index(Lit(off).Op(":").Lit(off + 16)))
	}
	panic("not a fixed-width kind: " + k.String())
}
