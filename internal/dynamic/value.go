// Package dynamic reads Kafka messages knowing nothing but their specs, the
// way protobuf's dynamicpb does: Decode interprets a schema.Spec at run time
// to turn wire bytes into a value tree, with the generated decoders'
// checks and errors, and AppendJSON writes the tree exactly as the
// generated AppendJSON of kafkagen -json writes the same message. Frames
// (frames.go) add the request and response headers, and kafkagen dump is
// built on it. Nothing here is generated, so it reads messages of any
// Kafka version from its spec folder alone.
package dynamic

import (
	"fmt"

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

// goNullable reports whether null is a value of the field at some version
// it is present at: the generated Go type can hold null (NullString, nil
// slice, pointer). The default comparisons depend on it, as in generated
// code.
func goNullable(f *schema.Field) bool {
	return f.Type.CanBeNullable() && !f.NullableVersions.Intersect(f.Versions).Empty()
}

// defaultValue is the field's default, as a generated Reset sets it.
func defaultValue(f *schema.Field) (Value, error) {
	t := f.Type
	switch {
	case t.Kind == schema.KindRecords && !t.Array:
		return Value{Null: true}, nil
	case t.Array || t.Kind == schema.KindBytes:
		return Value{Null: goNullable(f) && f.DefaultIsNull()}, nil
	case t.Kind == schema.KindStruct:
		if goNullable(f) && f.DefaultIsNull() {
			return Value{Null: true}, nil
		}
		st, err := defaultStruct(f.Struct)
		return Value{Struct: st}, err
	case t.Kind == schema.KindString:
		if goNullable(f) && f.DefaultIsNull() {
			return Value{Null: true}, nil
		}
		return Value{Str: f.Default}, nil
	}
	return scalarDefault(f)
}

// defaultStruct is a struct holding every field's default.
func defaultStruct(def *schema.Struct) (*Struct, error) {
	st := &Struct{Def: def, Fields: make([]Value, len(def.Fields))}
	for i, f := range def.Fields {
		v, err := defaultValue(f)
		if err != nil {
			return nil, err
		}
		st.Fields[i] = v
	}
	return st, nil
}

// scalarDefault is the default of a number, bool or uuid field.
func scalarDefault(f *schema.Field) (Value, error) {
	d := f.Default
	var v Value
	var err error
	switch k := f.Type.Kind; k {
	case schema.KindBool:
		if d != "" {
			var b bool
			b, err = schema.ParseBoolDefault(d)
			if b {
				v.Int = 1
			}
		}
	case schema.KindInt8, schema.KindInt16, schema.KindInt32, schema.KindInt64:
		if d != "" {
			v.Int, err = schema.ParseIntDefault(d, bitsOf(k))
		}
	case schema.KindUint16, schema.KindUint32:
		if d != "" {
			var u uint64
			u, err = schema.ParseUintDefault(d, bitsOf(k))
			v.Int = int64(u)
		}
	case schema.KindFloat64:
		if d != "" {
			v.Float, err = schema.ParseFloatDefault(d)
		}
	case schema.KindUUID:
		if d != "" {
			v.UUID, err = schema.ParseUUIDDefault(d)
		}
	default:
		err = fmt.Errorf("no scalar default for type %s", f.Type.Raw)
	}
	if err != nil {
		return Value{}, fmt.Errorf("field %s: default %q: %w", f.Name, d, err)
	}
	return v, nil
}

func bitsOf(k schema.Kind) int {
	switch k {
	case schema.KindInt8:
		return 8
	case schema.KindInt16, schema.KindUint16:
		return 16
	case schema.KindInt32, schema.KindUint32:
		return 32
	}
	return 64
}

// notDefault reports whether v differs from the field's default, with the
// comparisons of generated code (and Java's): numbers by !=, so a NaN is
// never its default; bytes, records and arrays by null or emptiness;
// structs field by field.
func notDefault(f *schema.Field, v Value) (bool, error) {
	t := f.Type
	nullable := goNullable(f)
	defaultNull := nullable && f.DefaultIsNull()
	switch {
	case t.Kind == schema.KindRecords && !t.Array:
		return !v.Null, nil
	case t.Array || t.Kind == schema.KindBytes:
		if defaultNull {
			return !v.Null, nil
		}
		return v.Null || len(v.Elems) != 0 || len(v.Bytes) != 0, nil
	case t.Kind == schema.KindStruct:
		switch {
		case defaultNull:
			return !v.Null, nil
		case v.Null:
			return true, nil
		}
		def, err := isDefault(v.Struct)
		return !def, err
	case t.Kind == schema.KindString:
		if defaultNull {
			return !v.Null, nil
		}
		return v.Null || v.Str != f.Default, nil
	}
	d, err := scalarDefault(f)
	if err != nil {
		return false, err
	}
	switch t.Kind {
	case schema.KindFloat64:
		return v.Float != d.Float, nil // true for NaN, as in Java
	case schema.KindUUID:
		return v.UUID != d.UUID, nil
	}
	return v.Int != d.Int, nil
}

// isDefault reports whether every field of st holds its default and it has
// no unknown tagged fields (Java's equals against a new instance).
func isDefault(st *Struct) (bool, error) {
	if len(st.Unknown) > 0 {
		return false, nil
	}
	for i, f := range st.Def.Fields {
		nd, err := notDefault(f, st.Fields[i])
		if nd || err != nil {
			return false, err
		}
	}
	return true, nil
}
