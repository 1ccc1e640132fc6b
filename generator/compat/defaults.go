package compat

import (
	"encoding/base64"
	"fmt"
	"strconv"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// effectiveDefault renders the value a reader fills in for a missing field,
// so that equal values written differently ("0x10" and "16", "" and "0",
// "" and "false") compare equal. Kafka compares the texts; a changed
// spelling of the same value is not a change on the wire.
func effectiveDefault(f *schema.Field) string {
	t, text := f.Type, f.Default
	switch {
	case t.Kind == schema.KindRecords && !t.Array:
		return "null"
	case t.Array, t.Kind == schema.KindStruct, t.Kind == schema.KindBytes:
		if text == "null" {
			return "null"
		}
		return "empty"
	case t.Kind == schema.KindString:
		if text == "null" && t.CanBeNullable() && !f.NullableVersions.Empty() {
			return "null"
		}
		return strconv.Quote(text)
	}
	var value any
	var err error
	switch t.Kind {
	case schema.KindBool:
		value, err = schema.ParseBoolDefault(text)
	case schema.KindInt8, schema.KindInt16, schema.KindInt32, schema.KindInt64:
		value, err = schema.ParseIntDefault(text, t.Kind.FixedSize()*8)
	case schema.KindUint16, schema.KindUint32:
		value, err = schema.ParseUintDefault(text, t.Kind.FixedSize()*8)
	case schema.KindFloat64:
		value, err = schema.ParseFloatDefault(text)
	case schema.KindUUID:
		var id [16]byte
		id, err = schema.ParseUUIDDefault(text)
		value = base64.RawURLEncoding.EncodeToString(id[:])
	}
	if err != nil {
		// The loader rejects invalid defaults; keep the text rather than fail.
		return strconv.Quote(text)
	}
	return fmt.Sprint(value)
}
