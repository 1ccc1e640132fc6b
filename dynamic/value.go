package dynamic

import (
	"github.com/kafkagen/kafkagen/generator/plan"
	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/runtime"
)

// Value is one field value of a decoded message. Which members are
// meaningful depends on the field's type.
type Value struct {
	Null   bool         // strings, bytes, records, arrays and structs
	Int    int64        // bool (0 or 1), int8, int16, uint16, int32, uint32, int64
	Float  float64      // float64
	Str    string       // string
	Bytes  []byte       // bytes and records; aliases the decoded input
	UUID   runtime.UUID // uuid
	Elems  []Value      // array elements
	Struct *Struct      // struct
}

// Struct is a decoded struct: one value per field of Def, at its default
// where the version does not have the field, and the unknown tagged fields
// in the order read.
type Struct struct {
	Def     *schema.Struct
	Fields  []Value
	Unknown runtime.Tags
}

// Field returns the value of the field named name (its spec name), and
// whether the struct has such a field.
func (st *Struct) Field(name string) (Value, bool) {
	for i, f := range st.Def.Fields {
		if f.Name == name {
			return st.Fields[i], true
		}
	}
	return Value{}, false
}

// defaultValue is the field's default, as a generated Reset sets it.
func defaultValue(f *plan.Field) Value {
	sf := f.Schema
	d := sf.DefaultValue
	switch t := sf.Type; {
	case sf.DefaultTest().IfNotNull:
		return Value{Null: true}
	case t.Array || t.Kind == schema.KindBytes:
		return Value{}
	case t.Kind == schema.KindStruct:
		return Value{Struct: defaultStruct(f.Elem)}
	case t.Kind == schema.KindString:
		return Value{Str: d.String}
	case t.Kind == schema.KindBool && d.Bool:
		return Value{Int: 1}
	case t.Kind == schema.KindUint16 || t.Kind == schema.KindUint32:
		return Value{Int: int64(d.Uint)}
	}
	return Value{Int: d.Int, Float: d.Float, UUID: d.UUID}
}

// defaultStruct is a struct holding every field's default.
func defaultStruct(s *plan.Struct) *Struct {
	st := &Struct{Def: s.Schema, Fields: make([]Value, len(s.Fields))}
	for i, f := range s.Fields {
		st.Fields[i] = defaultValue(f)
	}
	return st
}

// notDefault reports whether v differs from the field's default, the
// comparison schema.Field.DefaultTest describes.
func notDefault(f *plan.Field, v Value) bool {
	test := f.Schema.DefaultTest()
	switch {
	case test.IfNotNull:
		return !v.Null
	case v.Null:
		return test.NullDiffers
	}
	switch t := f.Schema.Type; {
	case t.Array || t.Kind == schema.KindBytes:
		return len(v.Elems) != 0 || len(v.Bytes) != 0
	case t.Kind == schema.KindStruct:
		return !isDefault(f.Elem, v.Struct)
	}
	def := defaultValue(f)
	switch f.Schema.Type.Kind {
	case schema.KindString:
		return v.Str != def.Str
	case schema.KindFloat64:
		return v.Float != def.Float // true for NaN, as in Java
	case schema.KindUUID:
		return v.UUID != def.UUID
	}
	return v.Int != def.Int
}

// isDefault reports whether every field of st holds its default and it has
// no unknown tagged fields (Java's equals against a new instance).
func isDefault(s *plan.Struct, st *Struct) bool {
	if len(st.Unknown) > 0 {
		return false
	}
	for i, f := range s.Fields {
		if notDefault(f, st.Fields[i]) {
			return false
		}
	}
	return true
}
