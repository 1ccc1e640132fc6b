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

// RuntimePath is the import path of the package generated code builds on.
const RuntimePath = "github.com/kafkagen/kafkagen/runtime"

func rt(name string) *Statement { return Qual(RuntimePath, name) }

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

// guarded is stmts under c: as they are where c always holds, nothing where
// it never does, and in an if statement otherwise.
func guarded(c plan.Cond, stmts ...Code) []Code {
	switch {
	case len(stmts) == 0 || c.Never():
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

// lengthsOf is the runtime.Lengths of a struct's lengths at the current
// version: a constant where the plan settles it, else the variable lengths
// that methods declare (see needsLengths).
func lengthsOf(c plan.Cond) *Statement {
	switch {
	case c.Always():
		return rt("Compact")
	case c.Never():
		return rt("Classic")
	}
	return Id("lengths")
}

// lengthsFor is the runtime.Lengths of a field's value: Compact in a tag
// section (tagged), else the field's in place; classic reports whether
// they are settled Classic, where no compact fast path applies.
func lengthsFor(fm *fieldModel, tagged bool) (lengths *Statement, classic bool) {
	if tagged {
		return rt("Compact"), false
	}
	return fieldLengths(fm), fm.p.Compact.Never()
}

// fieldLengths is the runtime.Lengths of a field written in place.
func fieldLengths(fm *fieldModel) *Statement {
	c := fm.p.Compact
	if c == fm.owner.p.Flexible || c.Static() {
		return lengthsOf(c)
	}
	return rt("Lengths").Call(condExpr(c)) // the field's own flexibleVersions
}

// lengthsDecl declares the variable lengths for a method of sm that uses it.
func lengthsDecl(sm *structModel) []Code {
	if !needsLengths(sm) {
		return nil
	}
	return []Code{Id("lengths").Op(":=").Add(rt("Lengths")).Call(condExpr(sm.p.Flexible))}
}

// needsLengths reports whether the code of sm's methods (with the structs
// inlined into them) refers to the variable lengths: its flexibility is not
// settled, and it writes a length in place with the message's flexible
// versions.
func needsLengths(sm *structModel) bool {
	if sm.p.Flexible.Static() {
		return false
	}
	for _, fm := range sm.fields {
		p := fm.p
		if p.InPlace.Never() || p.Width > 0 {
			continue
		}
		if p.Inline && needsLengths(fm.inlined) {
			return true
		}
		if fm.hasLength() && p.Compact == sm.p.Flexible {
			return true
		}
	}
	return false
}

// hasLength reports whether the field is written with a length or count.
func (fm *fieldModel) hasLength() bool {
	t := fm.f.Type
	return t.Array || t.Kind == schema.KindString || t.Kind == schema.KindBytes || t.Kind == schema.KindRecords
}

// goType is the Go type of a field.
func (fm *fieldModel) goType() *Statement {
	t := fm.f.Type
	if t.Array {
		return Index().Add(elemType(t.Kind, fm.elem))
	}
	switch t.Kind {
	case schema.KindString:
		if fm.nullable {
			return rt("NullString")
		}
		return String()
	case schema.KindStruct:
		if fm.nullable {
			return Op("*").Id(fm.elem.goName)
		}
		return Id(fm.elem.goName)
	}
	return elemType(t.Kind, fm.elem)
}

func elemType(k schema.Kind, elem *structModel) *Statement {
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
	return Id(elem.goName)
}

// scalarDefault is the Go literal of the default of a number, bool, string
// or uuid field.
func (fm *fieldModel) scalarDefault() *Statement {
	d := fm.p.Default
	switch k := fm.f.Type.Kind; k {
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
		case !fm.nullable:
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
	panic("no scalar default for type " + fm.f.Type.Raw)
}

// notDefault is the Go condition "val differs from the field's default",
// with Java's comparison rules (docs/protocol.md): numbers by !=, so NaN is
// never the default; arrays, bytes and structs by emptiness or nullness.
func (fm *fieldModel) notDefault(val *Statement) *Statement {
	t := fm.f.Type
	null := fm.p.Default.Null
	switch {
	case t.Kind == schema.KindRecords && !t.Array:
		return Add(val).Op("!=").Nil()
	case t.Array || t.Kind == schema.KindBytes:
		switch {
		case !fm.nullable:
			return Len(val).Op("!=").Lit(0)
		case null:
			return Add(val).Op("!=").Nil()
		}
		return Add(val).Op("==").Nil().Op("||").Len(val).Op("!=").Lit(0)
	case t.Kind == schema.KindStruct:
		switch {
		case !fm.nullable:
			return Op("!").Add(val).Dot("isDefault").Call()
		case null:
			return Add(val).Op("!=").Nil()
		}
		return Add(val).Op("==").Nil().Op("||").Op("!").Add(val).Dot("isDefault").Call()
	case t.Kind == schema.KindString && fm.nullable:
		if null {
			return Add(val).Dot("Valid")
		}
		return Op("!").Add(val).Dot("Valid").Op("||").Add(val).Dot("Value").Op("!=").Lit(fm.p.Default.String)
	case t.Kind == schema.KindUUID:
		return Add(val).Op("!=").Parens(fm.scalarDefault())
	}
	return Add(val).Op("!=").Add(fm.scalarDefault())
}

// setDefault assigns the field's default to val, keeping slice capacity.
func (fm *fieldModel) setDefault(val *Statement) []Code {
	t := fm.f.Type
	null := fm.p.Default.Null
	switch {
	case t.Kind == schema.KindRecords && !t.Array:
		return []Code{Add(val).Op("=").Nil()}
	case t.Array || t.Kind == schema.KindBytes:
		switch {
		case null:
			return []Code{Add(val).Op("=").Nil()}
		case fm.nullable:
			return []Code{If(Add(val).Op("==").Nil()).Block(
				Add(val).Op("=").Add(fm.goType()).Values(),
			).Else().Block(
				Add(val).Op("=").Add(val).Index(Empty(), Lit(0)),
			)}
		}
		return []Code{Add(val).Op("=").Add(val).Index(Empty(), Lit(0))}
	case t.Kind == schema.KindStruct:
		switch {
		case !fm.nullable:
			return []Code{Add(val).Dot("Reset").Call()}
		case null:
			return []Code{Add(val).Op("=").Nil()}
		}
		return []Code{
			If(Add(val).Op("==").Nil()).Block(Add(val).Op("=").New(Id(fm.elem.goName))),
			Add(val).Dot("Reset").Call(),
		}
	}
	return []Code{Add(val).Op("=").Add(fm.scalarDefault())}
}
