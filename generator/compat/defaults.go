package compat

import (
	"encoding/base64"
	"fmt"
	"strconv"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// effectiveDefault renders the value a reader fills in for a missing field,
// from the default the loader parsed, so that equal values written
// differently ("0x10" and "16", "" and "0", "" and "false") compare equal.
// Kafka compares the texts; a changed spelling of the same value is not a
// change on the wire.
func effectiveDefault(f *schema.Field) string {
	t, d := f.Type, f.DefaultValue
	switch {
	case f.DefaultTest().IfNotNull:
		return "null"
	case t.Array, t.Kind == schema.KindStruct, t.Kind == schema.KindBytes:
		return "empty"
	}
	switch t.Kind {
	case schema.KindString:
		return strconv.Quote(d.String)
	case schema.KindBool:
		return fmt.Sprint(d.Bool)
	case schema.KindUint16, schema.KindUint32:
		return fmt.Sprint(d.Uint)
	case schema.KindFloat64:
		return fmt.Sprint(d.Float)
	case schema.KindUUID:
		return base64.RawURLEncoding.EncodeToString(d.UUID[:])
	}
	return fmt.Sprint(d.Int)
}
