package generator

import (
	"fmt"
	"math"
	"strconv"

	. "github.com/dave/jennifer/jen"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// notDefault is the Go condition "val differs from the field's default",
// with the comparisons of Java's generated code (docs/protocol.md), which
// decide whether a tagged field is written and whether an absent field may
// be left out: numbers by !=, so NaN never equals its default; bytes,
// records and arrays by null or emptiness; structs by their isDefault
// method (Java's equals against a new instance).
func (w *jsonStruct) notDefault(fld *schema.Field, val *Statement) (*Statement, error) {
	t := fld.Type
	nullable := w.n.nullable[fld]
	defaultNull := nullable && fld.DefaultIsNull()
	switch {
	case t.Kind == schema.KindRecords && !t.Array:
		return Add(val).Op("!=").Nil(), nil
	case t.Array || t.Kind == schema.KindBytes:
		switch {
		case !nullable:
			return Len(val).Op("!=").Lit(0), nil
		case defaultNull:
			return Add(val).Op("!=").Nil(), nil
		}
		return Add(val).Op("==").Nil().Op("||").Len(val.Clone()).Op("!=").Lit(0), nil
	case t.Kind == schema.KindStruct:
		switch {
		case !nullable:
			return Op("!").Add(val).Dot("isDefault").Call(), nil
		case defaultNull:
			return Add(val).Op("!=").Nil(), nil
		}
		return Add(val).Op("==").Nil().Op("||").Op("!").Add(val.Clone()).Dot("isDefault").Call(), nil
	case t.Kind == schema.KindString && nullable:
		if defaultNull {
			return Add(val).Dot("Valid"), nil
		}
		return Op("!").Add(val).Dot("Valid").Op("||").Add(val.Clone()).Dot("Value").Op("!=").Lit(fld.Default), nil
	}
	d, err := scalarDefaultLit(fld)
	if err != nil {
		return nil, err
	}
	if t.Kind == schema.KindUUID {
		d = Parens(d)
	}
	return Add(val).Op("!=").Add(d), nil
}

// scalarDefaultLit is the Go literal of the default of a number, bool,
// non-nullable string or uuid field.
func scalarDefaultLit(f *schema.Field) (*Statement, error) {
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
		switch {
		case err != nil:
			return nil, err
		case math.IsNaN(x):
			return Qual("math", "NaN").Call(), nil
		case math.IsInf(x, 0):
			return Qual("math", "Inf").Call(Lit(int(math.Copysign(1, x)))), nil
		}
		return Lit(x), nil
	case schema.KindString:
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
