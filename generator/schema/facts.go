package schema

import (
	"fmt"
	"strings"
)

// The facts below are Kafka's rules about a loaded spec, each written once
// here and read by every consumer: the plan and the printers over it, the
// run-time interpreter (package dynamic) and compat. Defaults are parsed
// when a spec loads (settle), after validation has accepted them, so that
// no later stage parses or fails on them.

// Default is a field's default value, parsed once from the spec text. Which
// member holds it depends on the field's type: Bool, Int (int8 to int64),
// Uint (uint16, uint32), Float, String (strings), UUID. Null is set for a
// null default of a field that can hold null (Nullable); strings, bytes,
// arrays and structs that are not null default to the empty value (for
// strings, the String member).
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

// settle computes the facts of a spec that loaded without problems.
func (s *Spec) settle() {
	for _, st := range append([]*Struct{s.Root}, s.Structs...) {
		for _, f := range st.Fields {
			// Validation has accepted every default: no error here.
			f.DefaultValue, _ = parseDefault(f)
		}
	}
}

// parseDefault reads f's default text as Kafka's generator does.
func parseDefault(f *Field) (Default, error) {
	var d Default
	text := f.Default
	t := f.Type
	if t.Array || t.Kind == KindBytes || t.Kind == KindRecords || t.Kind == KindStruct {
		d.Null = f.Nullable() && f.DefaultIsNull()
		return d, nil
	}
	var err error
	switch t.Kind {
	case KindBool:
		d.Bool, err = ParseBoolDefault(text)
	case KindInt8, KindInt16, KindInt32, KindInt64:
		d.Int, err = ParseIntDefault(text, t.Kind.FixedSize()*8)
	case KindUint16, KindUint32:
		d.Uint, err = ParseUintDefault(text, t.Kind.FixedSize()*8)
	case KindFloat64:
		d.Float, err = ParseFloatDefault(text)
	case KindUUID:
		d.UUID, err = ParseUUIDDefault(text)
	case KindString:
		if f.Nullable() && f.DefaultIsNull() {
			d.Null = true
		} else {
			d.String = text
		}
	}
	if err != nil {
		return Default{}, fmt.Errorf("field %s: default %q: %w", f.Name, text, err)
	}
	return d, nil
}

// Nullable reports whether null is a value of the field: its type can be
// null and it is nullable at some version it has. Generated Go types then
// hold null (NullString, a nil slice, a pointer), and comparisons with the
// default tell null apart.
func (f *Field) Nullable() bool {
	return f.Type.CanBeNullable() && !f.NullableVersions.Intersect(f.Versions).Empty()
}

// JSONKey is the field's key in Kafka's JSON form: its name with the first
// letter in lower case (Java's camelCaseName).
func (f *Field) JSONKey() string { return strings.ToLower(f.Name[:1]) + f.Name[1:] }

// InPlaceVersions are the versions at which the field is written in place
// (present, and not in the tag section). Tagged versions are open-ended,
// so this is the part of the field's versions before they start.
func (f *Field) InPlaceVersions() Versions {
	v := f.Versions
	if !f.HasTag || f.TaggedVersions.Empty() {
		return v
	}
	if f.TaggedVersions.Lo <= v.Lo {
		return None
	}
	return Versions{Lo: v.Lo, Hi: min(v.Hi, f.TaggedVersions.Lo-1)}
}

// HasTagSections reports whether the message has flexible versions, so
// that each of its structs keeps the tagged fields it does not know.
func (s *Spec) HasTagSections() bool {
	return !s.FlexibleVersions.Intersect(s.ValidVersions).Empty()
}

// DefaultTest is how a value is found to differ from its field's default,
// the comparison of Java's generated code that decides whether a tagged
// field is written and whether a field that a version lacks may be left
// out: null against a null default; else null differs where null is a
// value (NullDiffers), and a non-null value is compared by kind: numbers,
// bools, uuids and strings with != (so a NaN never equals its default),
// arrays and bytes by having elements, structs by not holding their own
// defaults (Java's equals against a new instance).
type DefaultTest struct {
	// IfNotNull: the default is null (a records field's always is): a
	// value differs unless it is null.
	IfNotNull bool
	// NullDiffers: the default is not null, but null is a value.
	NullDiffers bool
}

// DefaultTest is the comparison of f's values with its default.
func (f *Field) DefaultTest() DefaultTest {
	if f.Type.Kind == KindRecords && !f.Type.Array || f.DefaultValue.Null {
		return DefaultTest{IfNotNull: true}
	}
	return DefaultTest{NullDiffers: f.Nullable()}
}

// HeaderVersions says which header version each version of a request or
// response travels with: requests use header v2 at the spec's flexible
// versions and v1 at the others, responses v1 and v0. Two exceptions go by
// bare api key, as in Kafka's ApiMessageType: ControlledShutdown (7) v0
// requests use header v0, which has no client id, and ApiVersions (18)
// responses always use v0 (KIP-511), so that a client can read the error
// of a version the broker does not support.
type HeaderVersions struct {
	// Flexible and Plain are the header versions at the flexible versions
	// and at the others.
	Flexible, Plain  int16
	FlexibleVersions Versions
	// Only, when not negative, is the header version of every version.
	Only int16
	// AtZero, when not negative, is the header version of version 0.
	AtZero int16
}

// HeaderVersions is the header rule of a request or response spec.
func (s *Spec) HeaderVersions() HeaderVersions {
	h := HeaderVersions{Flexible: 2, Plain: 1, FlexibleVersions: s.FlexibleVersions, Only: -1, AtZero: -1}
	if s.Type == TypeResponse {
		h.Flexible, h.Plain = 1, 0
	}
	switch {
	case s.Type == TypeResponse && s.APIKey == 18:
		h.Only = 0
	case s.Type == TypeRequest && s.APIKey == 7:
		h.AtZero = 0
	}
	return h
}

// At is the header version that version travels with.
func (h HeaderVersions) At(version int16) int16 {
	switch {
	case h.Only >= 0:
		return h.Only
	case h.AtZero >= 0 && version == 0:
		return h.AtZero
	case h.FlexibleVersions.Contains(version):
		return h.Flexible
	}
	return h.Plain
}
