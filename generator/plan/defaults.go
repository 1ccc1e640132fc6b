package plan

import (
	"fmt"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// Default is a field's default value, parsed once from the spec text. Which
// member holds it depends on the field's type: Bool, Int (int8 to int64),
// Uint (uint16, uint32), Float, String (strings), UUID. Null is set for a
// null default of a field that can hold null (records always default to
// null); strings, bytes, arrays and structs that are not null default to
// the empty value (for strings, the String member).
type Default struct {
	Null   bool
	Bool   bool
	Int    int64
	Uint   uint64
	Float  float64
	String string
	UUID   [16]byte
}

// IsZero reports whether the default is Go's zero value of the field's
// scalar type (for the types a Default holds a value of).
func (d Default) IsZero() bool { return d == Default{} }

// parseDefault reads f's default text as Kafka's generator does. canBeNull
// is whether the field's Go type represents null.
func parseDefault(f *schema.Field, canBeNull bool) (Default, error) {
	var d Default
	text := f.Default
	t := f.Type
	if t.Array || t.Kind == schema.KindBytes || t.Kind == schema.KindRecords || t.Kind == schema.KindStruct {
		d.Null = canBeNull && f.DefaultIsNull()
		return d, nil
	}
	var err error
	switch t.Kind {
	case schema.KindBool:
		d.Bool, err = schema.ParseBoolDefault(text)
	case schema.KindInt8:
		d.Int, err = schema.ParseIntDefault(text, 8)
	case schema.KindInt16:
		d.Int, err = schema.ParseIntDefault(text, 16)
	case schema.KindInt32:
		d.Int, err = schema.ParseIntDefault(text, 32)
	case schema.KindInt64:
		d.Int, err = schema.ParseIntDefault(text, 64)
	case schema.KindUint16:
		d.Uint, err = schema.ParseUintDefault(text, 16)
	case schema.KindUint32:
		d.Uint, err = schema.ParseUintDefault(text, 32)
	case schema.KindFloat64:
		d.Float, err = schema.ParseFloatDefault(text)
	case schema.KindUUID:
		d.UUID, err = schema.ParseUUIDDefault(text)
	case schema.KindString:
		if canBeNull && f.DefaultIsNull() {
			d.Null = true
		} else {
			d.String = text
		}
	default:
		err = fmt.Errorf("no default for type %s", t.Raw)
	}
	if err != nil {
		return Default{}, fmt.Errorf("field %s: default %q: %w", f.Name, text, err)
	}
	return d, nil
}
