package gomodel

import (
	"fmt"
	"math"
	"strconv"

	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// The Go types of fields, their defaults and the tests against them, for
// every printer.

// GoType is the Go type of a field.
func (n *Names) GoType(f *schema.Field) *Statement {
	t := f.Type
	elem := n.TypeName(f.Struct)
	if t.Array {
		return Index().Add(ElemType(t.Kind, elem))
	}
	switch t.Kind {
	case schema.KindString:
		if f.Nullable() {
			return Rt("NullString")
		}
		return String()
	case schema.KindStruct:
		if f.Nullable() {
			return Op("*").Id(elem)
		}
		return Id(elem)
	}
	return ElemType(t.Kind, elem)
}

// ElemType is the Go type of one value of kind k (elem: a struct's type).
func ElemType(k schema.Kind, elem string) *Statement {
	switch k {
	case schema.KindBool:
		return Bool()
	case schema.KindInt8:
		return Int8()
	case schema.KindInt16:
		return Int16()
	case schema.KindUint16:
		return Uint16()
	case schema.KindInt32:
		return Int32()
	case schema.KindUint32:
		return Uint32()
	case schema.KindInt64:
		return Int64()
	case schema.KindFloat64:
		return Float64()
	case schema.KindString:
		return String()
	case schema.KindBytes, schema.KindRecords:
		return Index().Byte()
	case schema.KindUUID:
		return Rt("UUID")
	}
	return Id(elem)
}

// DefaultLit is the Go literal of the default of a number, bool, string or
// uuid field. A NaN is printed by its bits, which the schema parsed as
// Java's Double.NaN (schema.ParseFloatDefault).
func DefaultLit(f *schema.Field) *Statement {
	d := f.DefaultValue
	switch k := f.Type.Kind; k {
	case schema.KindBool:
		return Lit(d.Bool)
	case schema.KindInt8, schema.KindInt16, schema.KindInt32, schema.KindInt64:
		return Op(strconv.FormatInt(d.Int, 10))
	case schema.KindUint16, schema.KindUint32:
		return Op(strconv.FormatUint(d.Uint, 10))
	case schema.KindFloat64:
		switch x := d.Float; {
		case math.IsNaN(x):
			return Qual("math", "Float64frombits").Call(Op(fmt.Sprintf("%#x", math.Float64bits(x))))
		case math.IsInf(x, 1):
			return Qual("math", "Inf").Call(Lit(1))
		case math.IsInf(x, -1):
			return Qual("math", "Inf").Call(Lit(-1))
		}
		return Lit(d.Float)
	case schema.KindString:
		switch {
		case !f.Nullable():
			return Lit(d.String)
		case d.Null:
			return Rt("NullString").Values()
		}
		return Rt("NullString").Values(Dict{Id("Value"): Lit(d.String), Id("Valid"): True()})
	case schema.KindUUID:
		if d.UUID == ([16]byte{}) {
			return Rt("UUID").Values()
		}
		var bs []Code
		for _, b := range d.UUID {
			bs = append(bs, Lit(int(b)))
		}
		return Rt("UUID").Values(bs...)
	}
	panic("no scalar default for type " + f.Type.Raw)
}

// NotDefault is the Go condition "val differs from f's default", the
// comparison schema.Field.DefaultTest describes.
func NotDefault(f *schema.Field, val *Statement) *Statement {
	test := f.DefaultTest()
	nullString := f.Type.Kind == schema.KindString && !f.Type.Array
	if test.IfNotNull {
		if nullString {
			return Add(val).Dot("Valid")
		}
		return Add(val).Op("!=").Nil()
	}
	var differs *Statement
	switch t := f.Type; {
	case t.Array || t.Kind == schema.KindBytes:
		differs = Len(val).Op("!=").Lit(0)
	case t.Kind == schema.KindStruct:
		differs = Op("!").Add(val).Dot("isDefault").Call()
	case nullString && test.NullDiffers:
		differs = Add(val).Dot("Value").Op("!=").Lit(f.DefaultValue.String)
	case t.Kind == schema.KindUUID:
		differs = Add(val).Op("!=").Parens(DefaultLit(f))
	default:
		differs = Add(val).Op("!=").Add(DefaultLit(f))
	}
	switch {
	case !test.NullDiffers:
		return differs
	case nullString:
		return Op("!").Add(val).Dot("Valid").Op("||").Add(differs)
	}
	return Add(val).Op("==").Nil().Op("||").Add(differs)
}

// SetDefault assigns f's default to val, keeping slice capacity.
func (n *Names) SetDefault(f *schema.Field, val *Statement) []Code {
	t := f.Type
	null := f.DefaultValue.Null
	switch {
	case t.Kind == schema.KindRecords && !t.Array:
		return []Code{Add(val).Op("=").Nil()}
	case t.Array || t.Kind == schema.KindBytes:
		switch {
		case null:
			return []Code{Add(val).Op("=").Nil()}
		case f.Nullable():
			return []Code{If(Add(val).Op("==").Nil()).Block(
				Add(val).Op("=").Add(n.GoType(f)).Values(),
			).Else().Block(
				Add(val).Op("=").Add(val).Index(Empty(), Lit(0)),
			)}
		}
		return []Code{Add(val).Op("=").Add(val).Index(Empty(), Lit(0))}
	case t.Kind == schema.KindStruct:
		switch {
		case !f.Nullable():
			return []Code{Add(val).Dot("Reset").Call()}
		case null:
			return []Code{Add(val).Op("=").Nil()}
		}
		return []Code{
			If(Add(val).Op("==").Nil()).Block(Add(val).Op("=").New(Id(n.TypeName(f.Struct)))),
			Add(val).Dot("Reset").Call(),
		}
	}
	return []Code{Add(val).Op("=").Add(DefaultLit(f))}
}

// InitialValue is f's default as the value of a composite literal's key
// (Make's and New's), what SetDefault leaves in a zero value: nil where
// that is Go's zero value (literalDefault says which), so that the literal
// leaves the field out. A struct held by value takes its own defaults.
func (n *Names) InitialValue(f *schema.Field) *Statement {
	t := f.Type
	switch {
	case t.Kind == schema.KindRecords && !t.Array:
		return nil // Reset leaves records nil
	case t.Kind == schema.KindStruct && !t.Array && !f.Nullable():
		return Id("Make" + n.TypeName(f.Struct)).Call()
	case literalDefault(f) == "":
		return nil
	case t.Kind == schema.KindStruct && !t.Array:
		return Id("New" + n.TypeName(f.Struct)).Call()
	case t.Array || t.Kind == schema.KindBytes:
		return n.GoType(f).Values() // empty, not null
	}
	return DefaultLit(f)
}
