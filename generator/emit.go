package generator

import (
	"fmt"
	"math"
	"strconv"

	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// RuntimePath is the import path of the package generated code builds on.
const RuntimePath = "github.com/kafkagen/kafkagen/runtime"

func rt(name string) *Statement { return Qual(RuntimePath, name) }

// verCond is the Go condition "version is in vs" for code that only runs at
// versions in within. always and never report conditions settled at
// generation time, so that no run-time test is emitted for them.
func verCond(vs, within schema.Versions) (cond *Statement, always, never bool) {
	if vs.Covers(within) {
		return nil, true, false
	}
	if vs.Intersect(within).Empty() {
		return nil, false, true
	}
	if vs.Lo == vs.Hi {
		return Id("version").Op("==").Lit(int(vs.Lo)), false, false
	}
	var parts []Code
	if vs.Lo > within.Lo {
		parts = append(parts, Id("version").Op(">=").Lit(int(vs.Lo)))
	}
	if vs.Hi < within.Hi {
		parts = append(parts, Id("version").Op("<=").Lit(int(vs.Hi)))
	}
	c := Add(parts[0])
	for _, p := range parts[1:] {
		c = c.Op("&&").Add(p)
	}
	return c, false, false
}

// notVerCond is the Go condition "version is not in vs", written without a
// negation (version < 4 rather than !(version >= 4)).
func notVerCond(vs, within schema.Versions) (cond *Statement, always, never bool) {
	c, a, n := verCond(vs, within)
	if a || n {
		return c, n, a
	}
	if vs.Lo == vs.Hi {
		return Id("version").Op("!=").Lit(int(vs.Lo)), false, false
	}
	var parts []Code
	if vs.Lo > within.Lo {
		parts = append(parts, Id("version").Op("<").Lit(int(vs.Lo)))
	}
	if vs.Hi < within.Hi {
		parts = append(parts, Id("version").Op(">").Lit(int(vs.Hi)))
	}
	c = Add(parts[0])
	for _, p := range parts[1:] {
		c = c.Op("||").Add(p)
	}
	return c, false, false
}

// boolExpr renders a settled or run-time condition as an expression.
func boolExpr(cond *Statement, always, never bool) *Statement {
	switch {
	case always:
		return True()
	case never:
		return False()
	}
	return cond
}

// within is the range of versions a struct's code can run at.
func (sm *structModel) within() schema.Versions {
	if sm.s.Used.Empty() {
		return sm.spec.ValidVersions
	}
	return sm.s.Used
}

// flexibleExpr is the message's flexibility at the current version.
func (sm *structModel) flexibleExpr() *Statement {
	c, a, n := verCond(sm.flexible, sm.within())
	if a || n {
		return boolExpr(c, a, n)
	}
	return Id("flexible")
}

// flexibleDecl declares the flexible variable when it is not settled.
func (sm *structModel) flexibleDecl() []Code {
	c, a, n := verCond(sm.flexible, sm.within())
	if a || n {
		return nil
	}
	return []Code{Id("flexible").Op(":=").Add(c)}
}

// compactExpr is whether a field's lengths are compact at the current version.
func (fm *fieldModel) compactExpr() *Statement {
	if fm.f.HasFlexibleVersions {
		return boolExpr(verCond(fm.f.FlexibleVersions, fm.owner.within()))
	}
	return fm.owner.flexibleExpr()
}

// inlineVersions are the versions where the field is written in place, not
// in the tag section.
func (fm *fieldModel) inlineVersions() schema.Versions {
	if !fm.f.HasTag {
		return fm.f.Versions
	}
	v := fm.f.Versions
	if fm.f.TaggedVersions.Lo <= v.Lo {
		return schema.None
	}
	return schema.Versions{Lo: v.Lo, Hi: min(v.Hi, fm.f.TaggedVersions.Lo-1)}
}

func (fm *fieldModel) inlineCond() (*Statement, bool, bool) {
	return verCond(fm.inlineVersions(), fm.owner.within())
}

// tagSectionCond: the field is tagged at the current version, for code
// inside the tag section, which only runs at flexible versions.
func (fm *fieldModel) tagSectionCond() (*Statement, bool, bool) {
	if !fm.f.HasTag {
		return nil, false, true
	}
	return verCond(fm.f.TaggedVersions, fm.owner.within().Intersect(fm.owner.flexible))
}

func (fm *fieldModel) taggedCond() (*Statement, bool, bool) {
	if !fm.f.HasTag {
		return nil, false, true
	}
	return verCond(fm.f.TaggedVersions, fm.owner.within())
}

func (fm *fieldModel) nullableCond() (*Statement, bool, bool) {
	return verCond(fm.f.NullableVersions, fm.owner.within().Intersect(fm.f.Versions))
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

// defaultIsNull: the field's default is null (and null is representable).
func (fm *fieldModel) defaultIsNull() bool {
	return fm.nullable && fm.f.DefaultIsNull()
}

// scalarDefault is the Go literal of a number, bool, string or uuid default.
func (fm *fieldModel) scalarDefault() (*Statement, error) {
	f := fm.f
	d := f.Default
	switch f.Type.Kind {
	case schema.KindBool:
		if d == "" {
			return False(), nil
		}
		b, err := schema.ParseBoolDefault(d)
		return Lit(b), err
	case schema.KindInt8, schema.KindInt16, schema.KindInt32, schema.KindInt64:
		if d == "" {
			return Lit(0), nil
		}
		bits := map[schema.Kind]int{schema.KindInt8: 8, schema.KindInt16: 16, schema.KindInt32: 32, schema.KindInt64: 64}[f.Type.Kind]
		n, err := schema.ParseIntDefault(d, bits)
		return Op(strconv.FormatInt(n, 10)), err
	case schema.KindUint16, schema.KindUint32:
		if d == "" {
			return Lit(0), nil
		}
		bits := 16
		if f.Type.Kind == schema.KindUint32 {
			bits = 32
		}
		n, err := schema.ParseUintDefault(d, bits)
		return Op(strconv.FormatUint(n, 10)), err
	case schema.KindFloat64:
		if d == "" {
			return Lit(0.0), nil
		}
		x, err := schema.ParseFloatDefault(d)
		if err != nil {
			return nil, err
		}
		switch {
		case math.IsNaN(x):
			return Qual("math", "Float64frombits").Call(Lit(0x7ff8000000000000)), nil
		case math.IsInf(x, 1):
			return Qual("math", "Inf").Call(Lit(1)), nil
		case math.IsInf(x, -1):
			return Qual("math", "Inf").Call(Lit(-1)), nil
		}
		return Lit(x), nil
	case schema.KindString:
		if fm.nullable {
			if fm.defaultIsNull() {
				return rt("NullString").Values(), nil
			}
			return rt("NullString").Values(Dict{Id("Value"): Lit(d), Id("Valid"): True()}), nil
		}
		return Lit(d), nil
	case schema.KindUUID:
		if d == "" {
			return rt("UUID").Values(), nil
		}
		u, err := schema.ParseUUIDDefault(d)
		if err != nil {
			return nil, err
		}
		var bs []Code
		for _, b := range u {
			bs = append(bs, Lit(int(b)))
		}
		return rt("UUID").Values(bs...), nil
	}
	return nil, fmt.Errorf("no scalar default for type %s", f.Type.Raw)
}

// notDefault is the Go condition "val differs from the field's default",
// with Java's comparison rules (spec-facts §4.4): numbers by !=, so NaN is
// never the default; arrays, bytes and structs by emptiness or nullness.
func (fm *fieldModel) notDefault(val *Statement) (*Statement, error) {
	t := fm.f.Type
	switch {
	case t.Array || t.Kind == schema.KindBytes || t.Kind == schema.KindRecords:
		if t.Kind == schema.KindRecords && !t.Array {
			return Add(val).Op("!=").Nil(), nil
		}
		if !fm.nullable {
			return Len(val).Op("!=").Lit(0), nil
		}
		if fm.defaultIsNull() {
			return Add(val).Op("!=").Nil(), nil
		}
		return Add(val).Op("==").Nil().Op("||").Len(val).Op("!=").Lit(0), nil
	case t.Kind == schema.KindStruct:
		if !fm.nullable {
			return Op("!").Add(val).Dot("isDefault").Call(), nil
		}
		if fm.defaultIsNull() {
			return Add(val).Op("!=").Nil(), nil
		}
		return Add(val).Op("==").Nil().Op("||").Op("!").Add(val).Dot("isDefault").Call(), nil
	case t.Kind == schema.KindString && fm.nullable:
		if fm.defaultIsNull() {
			return Add(val).Dot("Valid"), nil
		}
		return Op("!").Add(val).Dot("Valid").Op("||").Add(val).Dot("Value").Op("!=").Lit(fm.f.Default), nil
	case t.Kind == schema.KindUUID:
		d, err := fm.scalarDefault()
		if err != nil {
			return nil, err
		}
		return Add(val).Op("!=").Parens(d), nil
	default:
		d, err := fm.scalarDefault()
		if err != nil {
			return nil, err
		}
		return Add(val).Op("!=").Add(d), nil
	}
}

// setDefault assigns the field's default to val, keeping slice capacity.
func (fm *fieldModel) setDefault(val *Statement) ([]Code, error) {
	t := fm.f.Type
	switch {
	case t.Kind == schema.KindRecords && !t.Array:
		return []Code{Add(val).Op("=").Nil()}, nil
	case t.Array || t.Kind == schema.KindBytes:
		if fm.defaultIsNull() {
			return []Code{Add(val).Op("=").Nil()}, nil
		}
		if fm.nullable {
			return []Code{If(Add(val).Op("==").Nil()).Block(
				Add(val).Op("=").Add(fm.goType()).Values(),
			).Else().Block(
				Add(val).Op("=").Add(val).Index(Empty(), Lit(0)),
			)}, nil
		}
		return []Code{Add(val).Op("=").Add(val).Index(Empty(), Lit(0))}, nil
	case t.Kind == schema.KindStruct:
		if !fm.nullable {
			return []Code{Add(val).Dot("Reset").Call()}, nil
		}
		if fm.defaultIsNull() {
			return []Code{Add(val).Op("=").Nil()}, nil
		}
		return []Code{
			If(Add(val).Op("==").Nil()).Block(Add(val).Op("=").New(Id(fm.elem.goName))),
			Add(val).Dot("Reset").Call(),
		}, nil
	}
	d, err := fm.scalarDefault()
	if err != nil {
		return nil, err
	}
	return []Code{Add(val).Op("=").Add(d)}, nil
}

// minSize is the fewest bytes one value of kind k can take on the wire.
func minSize(k schema.Kind, elem *structModel) int {
	if n := k.FixedSize(); n > 0 {
		return n
	}
	if k == schema.KindStruct {
		return elem.minSize(map[*structModel]bool{})
	}
	return 1 // a compact length
}

// minSize is the fewest bytes the struct takes at any version it is used at.
func (sm *structModel) minSize(visiting map[*structModel]bool) int {
	if visiting[sm] {
		return 0
	}
	visiting[sm] = true
	defer delete(visiting, sm)
	w := sm.within()
	best := math.MaxInt
	for v := w.Lo; v <= w.Hi && v >= 0; v++ {
		n := 0
		if sm.flexible.Contains(v) {
			n++ // the tag section's count
		}
		for _, fm := range sm.fields {
			if !fm.inlineVersions().Contains(v) {
				continue
			}
			switch {
			case fm.array(), fm.kind() == schema.KindString, fm.kind() == schema.KindBytes, fm.kind() == schema.KindRecords:
				n++
			case fm.kind() == schema.KindStruct:
				if fm.nullable && fm.f.NullableVersions.Contains(v) {
					n++
				} else {
					n += fm.elem.minSize(visiting)
				}
			default:
				n += fm.kind().FixedSize()
			}
		}
		best = min(best, n)
		if v == math.MaxInt16 {
			break
		}
	}
	if best == math.MaxInt {
		return 0
	}
	return best
}
