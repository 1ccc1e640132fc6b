package gomodel

import (
	"strconv"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// literalDefault is, for a field whose Go zero value (what a struct literal
// leaves in it) is not its default, the default as the docs and errors name
// it: "1", "empty, not null"; "" when the zero value is the default. New and
// Make hold the defaults (Reset), so the difference only bites literals:
// a nullable list left nil sends null where the default is an empty list,
// and a version without the field refuses a zero that is not its default.
func literalDefault(f *schema.Field) string {
	t := f.Type
	switch {
	case f.DefaultValue.Null:
		return "" // the zero value (nil, an invalid NullString) is null
	case t.Array || t.Kind == schema.KindBytes || t.Kind == schema.KindRecords || t.Kind == schema.KindStruct:
		if f.Nullable() {
			return "empty, not null"
		}
		return "" // nil and empty write the same bytes
	case t.Kind == schema.KindString:
		switch {
		case f.DefaultValue.String != "":
			return strconv.Quote(f.DefaultValue.String)
		case f.Nullable():
			return `"", not null`
		}
		return ""
	case f.DefaultValue.IsZero():
		return ""
	}
	return f.Default
}
