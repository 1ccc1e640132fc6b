package generator

import (
	"math"
	"strconv"

	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/plan"
	"github.com/kafkagen/kafkagen/generator/schema"
)

// The expressions every printer shares: version conditions, lengths, Go
// types, defaults and default tests, all read from the plan.

// RuntimePath is the import path of the runtime package: the types of
// generated fields and the interfaces messages implement, what users of
// generated code call.
const RuntimePath = "github.com/kafkagen/kafkagen/runtime"

// CodecPath is the import path of the codec package: the primitives
// generated methods are made of, which only generated code calls.
const CodecPath = "github.com/kafkagen/kafkagen/runtime/codec"

// rt names an identifier of package runtime.
func rt(name string) *Statement { return Qual(RuntimePath, name) }

// cd names an identifier of package codec.
func cd(name string) *Statement { return Qual(CodecPath, name) }

// condExpr is the Go test of a condition that is not static.
func condExpr(c plan.Cond) *Statement {
	t := c.Test()
	if t.Eq {
		return Id("version").Op("==").Lit(int(t.Lo))
	}
	var e *Statement
	if t.HasLo {
		e = Id("version").Op(">=").Lit(int(t.Lo))
	}
	if t.HasHi {
		hi := Id("version").Op("<=").Lit(int(t.Hi))
		if e == nil {
			return hi
		}
		return e.Op("&&").Add(hi)
	}
	return e
}

// notCondExpr is the Go test of a condition that is not static failing,
// written without a negation (version < 4 rather than !(version >= 4)).
func notCondExpr(c plan.Cond) *Statement {
	t := c.Test()
	if t.Eq {
		return Id("version").Op("!=").Lit(int(t.Lo))
	}
	var e *Statement
	if t.HasLo {
		e = Id("version").Op("<").Lit(int(t.Lo))
	}
	if t.HasHi {
		hi := Id("version").Op(">").Lit(int(t.Hi))
		if e == nil {
			return hi
		}
		return e.Op("||").Add(hi)
	}
	return e
}

// guarded is the statements body prints, under c: as they are where c
// always holds, nothing where it never does (body is then not printed, so
// that the scope records no use of its code), and in an if statement
// otherwise.
func guarded(c plan.Cond, body func() []Code) []Code {
	if c.Never() {
		return nil
	}
	stmts := body()
	switch {
	case len(stmts) == 0:
		return nil
	case c.Always():
		return stmts
	}
	return []Code{If(condExpr(c)).Block(stmts...)}
}

// rebase is c for code that runs at the versions w only.
func rebase(c plan.Cond, w schema.Versions) plan.Cond {
	return plan.Cond{On: c.On.Intersect(w), Within: w}
}

// outside is the range of versions of c.Within where c does not hold, when
// that is one range (c's range touches an end of Within); otherwise
// c.Within itself.
func outside(c plan.Cond) schema.Versions {
	w := c.Within
	switch {
	case c.Never():
		return w
	case c.On.Lo <= w.Lo && c.On.Hi < w.Hi:
		return schema.Versions{Lo: c.On.Hi + 1, Hi: w.Hi}
	case c.On.Hi >= w.Hi && c.On.Lo > w.Lo:
		return schema.Versions{Lo: w.Lo, Hi: c.On.Lo - 1}
	}
	return w
}

// lengthsFor is the runtime.Lengths of the value of a field written with a
// length or count (hasLength): Compact in a tag section (tagged), else the
// field's in place, where the message's flexible versions that the plan
// does not settle are the method's variable lengths (lengthsDecl); classic
// reports whether they are settled Classic, where no compact fast path
// applies.
func (sc scope) lengthsFor(f *plan.Field, tagged bool) (lengths *Statement, classic bool) {
	c := f.Compact
	switch {
	case tagged:
		return cd("Compact"), false
	case c.Always():
		return cd("Compact"), false
	case c.Never():
		return cd("Classic"), true
	case c == f.Owner.Flexible:
		sc.uses.lengths = true
		return Id("lengths"), false
	}
	return cd("Lengths").Call(condExpr(c)), false // the field's own flexibleVersions
}

// lengthsDecl declares the variable lengths for a method of s whose body
// used it.
func lengthsDecl(s *plan.Struct, u *uses) []Code {
	if !u.lengths {
		return nil
	}
	return []Code{Id("lengths").Op(":=").Add(cd("Lengths")).Call(condExpr(s.Flexible))}
}

// hasLength reports whether the field is written with a length or count.
func hasLength(f *schema.Field) bool {
	t := f.Type
	return t.Array || t.Kind == schema.KindString || t.Kind == schema.KindBytes || t.Kind == schema.KindRecords
}

// goType is the Go type of a field.
func (n *goNames) goType(f *schema.Field) *Statement {
	t := f.Type
	elem := n.typeName(f.Struct)
	if t.Array {
		return Index().Add(elemType(t.Kind, elem))
	}
	switch t.Kind {
	case schema.KindString:
		if f.Nullable() {
			return rt("NullString")
		}
		return String()
	case schema.KindStruct:
		if f.Nullable() {
			return Op("*").Id(elem)
		}
		return Id(elem)
	}
	return elemType(t.Kind, elem)
}

// elemType is the Go type of one value of kind k (elem: a struct's type).
func elemType(k schema.Kind, elem string) *Statement {
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
		return rt("UUID")
	}
	return Id(elem)
}

// defaultLit is the Go literal of the default of a number, bool, string or
// uuid field. A NaN is Java's Double.NaN, whose bits Double.parseDouble
// gives ("NaN"), not Go's math.NaN().
func defaultLit(f *schema.Field) *Statement {
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
			return Qual("math", "Float64frombits").Call(Lit(0x7ff8000000000000))
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
			return rt("NullString").Values()
		}
		return rt("NullString").Values(Dict{Id("Value"): Lit(d.String), Id("Valid"): True()})
	case schema.KindUUID:
		if d.UUID == ([16]byte{}) {
			return rt("UUID").Values()
		}
		var bs []Code
		for _, b := range d.UUID {
			bs = append(bs, Lit(int(b)))
		}
		return rt("UUID").Values(bs...)
	}
	panic("no scalar default for type " + f.Type.Raw)
}

// notDefault is the Go condition "val differs from f's default", the
// comparison schema.Field.DefaultTest describes.
func notDefault(f *schema.Field, val *Statement) *Statement {
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
		differs = Add(val).Op("!=").Parens(defaultLit(f))
	default:
		differs = Add(val).Op("!=").Add(defaultLit(f))
	}
	switch {
	case !test.NullDiffers:
		return differs
	case nullString:
		return Op("!").Add(val).Dot("Valid").Op("||").Add(differs)
	}
	return Add(val).Op("==").Nil().Op("||").Add(differs)
}

// setDefault assigns f's default to val, keeping slice capacity.
func (n *goNames) setDefault(f *schema.Field, val *Statement) []Code {
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
				Add(val).Op("=").Add(n.goType(f)).Values(),
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
			If(Add(val).Op("==").Nil()).Block(Add(val).Op("=").New(Id(n.typeName(f.Struct)))),
			Add(val).Dot("Reset").Call(),
		}
	}
	return []Code{Add(val).Op("=").Add(defaultLit(f))}
}
