package schema

import "strings"

// entityBase is the element type each entityType requires (rule 19).
var entityBase = map[string]string{
	"transactionalId": "string",
	"groupId":         "string",
	"topicName":       "string",
	"producerId":      "int64",
	"brokerId":        "int32",
}

// field checks one field's own attributes (rules 15, 18, 19, 21-34, 39-42).
func (v *validator) field(f *Field, sub string, top bool) {
	t := f.Type
	elem := t.Raw
	if t.Array {
		elem = strings.TrimPrefix(t.Raw, "[]")
	}
	// Rule 15.
	if !validFieldName(f.Name) {
		v.errorf(v.attr(f.Pos, "name", true), sub, "Invalid field name %s", f.Name)
	}
	// Rule 18.
	if !f.NullableVersions.Empty() && !t.CanBeNullable() {
		v.errorf(v.attr(f.Pos, "nullableVersions", true), sub, "Type %s cannot be nullable.", t.Raw)
	}
	// Rule 19.
	if base, ok := entityBase[f.EntityType]; ok && elem != base {
		v.errorf(v.attr(f.Pos, "entityType", true), sub,
			"Field %s has entity type %s, but field type %s, which does not match.", f.Name, f.EntityType, elem)
	}
	// Rules 21 and 40.
	if f.HasFlexibleVersions {
		if t.Array || (t.Kind != KindString && t.Kind != KindBytes) {
			v.errorf(v.attr(f.Pos, "flexibleVersions", true), sub,
				"Invalid flexibleVersions override for %s. Only fields of type string or bytes can specify a flexibleVersions override.", f.Name)
		} else if !v.s.FlexibleVersions.Covers(f.FlexibleVersions) {
			v.errorf(v.attr(f.Pos, "flexibleVersions", true), sub,
				"The flexible versions for field %s are %s, which are not a subset of the flexible versions for the message as a whole, which are %s",
				f.Name, f.FlexibleVersions, v.s.FlexibleVersions)
		}
	}
	// Rule 22.
	if f.HasTag && f.MapKey {
		v.errorf(v.attr(f.Pos, "mapKey", false), sub, "Tagged fields cannot be used as keys.")
	}
	// Rules 23-27.
	v.tagRules(f, sub)
	// Rule 28.
	if f.ZeroCopy && (t.Array || t.Kind != KindBytes) {
		v.errorf(v.attr(f.Pos, "zeroCopy", false), sub,
			"Invalid zeroCopy value for %s. Only fields of type bytes can use zeroCopy flag.", f.Name)
	}
	// Rules 29-34.
	if f.Default != "" {
		v.defaultRules(f, sub)
	}
	// Rule 39.
	if top && f.MapKey {
		v.errorf(v.attr(f.Pos, "mapKey", false), sub, "Cannot set mapKey on top level fields.")
	}
	// Rule 41.
	if !f.TaggedVersions.Empty() {
		flexible := v.s.FlexibleVersions
		if f.HasFlexibleVersions {
			flexible = f.FlexibleVersions
		}
		if !flexible.Covers(f.TaggedVersions) {
			v.errorf(v.attr(f.Pos, "taggedVersions", true), sub,
				"Field %s specifies tagged versions %s that are not a subset of the flexible versions %s",
				f.Name, f.TaggedVersions, flexible)
		}
	}
	// Rule 42 (arrays of arrays are rejected by ParseType).
	if t.Kind == KindRecords {
		if t.Array {
			v.errorf(v.attr(f.Pos, "type", true), sub, "Arrays of records are not supported.")
		} else if f.HasTag {
			v.errorf(v.attr(f.Pos, "tag", false), sub, "A records field cannot be tagged.")
		}
	}
}

// tagRules is FieldSpec.checkTagInvariants (rules 23-27).
func (v *validator) tagRules(f *Field, sub string) {
	if !f.HasTag {
		if !f.TaggedVersions.Empty() {
			v.errorf(v.attr(f.Pos, "taggedVersions", false), sub,
				"Field %s does not specify a tag, but specifies tagged versions of %s. Please specify a tag, or remove the taggedVersions.",
				f.Name, f.TaggedVersions)
		}
		return
	}
	if f.Tag < 0 {
		v.errorf(v.attr(f.Pos, "tag", true), sub,
			"Field %s specifies a tag of %d. Tags cannot be negative.", f.Name, f.Tag)
	}
	if f.TaggedVersions.Empty() {
		v.errorf(v.attr(f.Pos, "tag", false), sub,
			"Field %s specifies a tag of %d, but has no tagged versions. If a tag is specified, taggedVersions must be specified as well.",
			f.Name, f.Tag)
		return
	}
	nullableTagged := f.NullableVersions.Intersect(f.TaggedVersions)
	if !nullableTagged.Empty() && nullableTagged != f.TaggedVersions {
		v.errorf(v.attr(f.Pos, "nullableVersions", true), sub,
			"Field %s specifies nullableVersions %s and taggedVersions %s. Either all tagged versions must be nullable, or none must be.",
			f.Name, f.NullableVersions, f.TaggedVersions)
	}
	if !f.TaggedVersions.Open() {
		v.errorf(v.attr(f.Pos, "taggedVersions", true), sub,
			"Field %s specifies taggedVersions %s, which is not open-ended. taggedVersions must be either none, or an open-ended range (that ends with a plus sign).",
			f.Name, f.TaggedVersions)
	}
	if !f.Versions.Covers(f.TaggedVersions) {
		v.errorf(v.attr(f.Pos, "taggedVersions", true), sub,
			"Field %s specifies taggedVersions %s, and versions %s. taggedVersions must be a subset of versions.",
			f.Name, f.TaggedVersions, f.Versions)
	}
}

// defaultRules is FieldSpec.fieldDefault (rules 29-34) for a non-empty default.
func (v *validator) defaultRules(f *Field, sub string) {
	t := f.Type
	at := v.attr(f.Pos, "default", true)
	invalid := func(err error) {
		v.errorf(at, sub, "Invalid default for %s field %s: %v", t.Raw, f.Name, err)
	}
	nullDefault := func() {
		if f.Default == "null" && !f.NullableVersions.Covers(f.Versions) {
			v.errorf(at, sub, "null cannot be the default for field %s, because not all versions of this field are nullable.", f.Name)
		}
	}
	switch {
	case t.Array:
		if f.Default == "null" {
			nullDefault()
		} else {
			v.errorf(at, sub, "Invalid default for array field %s. The only valid default for an array field is the empty array or null.", f.Name)
		}
	case t.Kind == KindBool:
		if _, err := ParseBoolDefault(f.Default); err != nil {
			v.errorf(at, sub, "Invalid default for boolean field %s: %s", f.Name, f.Default)
		}
	case t.Kind == KindInt8, t.Kind == KindInt16, t.Kind == KindInt32, t.Kind == KindInt64:
		if _, err := ParseIntDefault(f.Default, t.Kind.FixedSize()*8); err != nil {
			invalid(err)
		}
	case t.Kind == KindUint16, t.Kind == KindUint32:
		if _, err := ParseUintDefault(f.Default, t.Kind.FixedSize()*8); err != nil {
			invalid(err)
		}
	case t.Kind == KindUUID:
		if _, err := ParseUUIDDefault(f.Default); err != nil {
			invalid(err)
		}
	case t.Kind == KindFloat64:
		if _, err := ParseFloatDefault(f.Default); err != nil {
			invalid(err)
		}
	case t.Kind == KindString:
		nullDefault()
	case t.Kind == KindBytes:
		if f.Default == "null" {
			nullDefault()
		} else {
			v.errorf(at, sub, "Invalid default for bytes field %s. The only valid default for a bytes field is empty or null.", f.Name)
		}
	case t.Kind == KindRecords:
		// Kafka ignores it: a records default is always null.
	case t.Kind == KindStruct:
		if f.Default == "null" {
			nullDefault()
		} else {
			v.errorf(at, sub, "Invalid default for struct field %s. The only valid default for a struct field is the empty struct or null.", f.Name)
		}
	}
}
