package schema

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseDefault(t *testing.T) {
	f := func(typ, text string, nullable bool) *Field {
		kind := map[string]Kind{"bool": KindBool, "int8": KindInt8, "int16": KindInt16,
			"int32": KindInt32, "int64": KindInt64, "uint16": KindUint16, "uint32": KindUint32,
			"float64": KindFloat64, "string": KindString, "uuid": KindUUID, "records": KindRecords}[typ]
		fld := &Field{Name: "F", Type: Type{Raw: typ, Kind: kind}, Default: text, HasDefault: text != "",
			Versions: All, NullableVersions: None}
		if nullable {
			fld.NullableVersions = Versions{Lo: 3, Hi: NoMax}
		}
		return fld
	}
	cases := []struct {
		field *Field
		want  Default
	}{
		{f("bool", "TRUE", false), Default{Bool: true}},
		{f("int8", "-128", false), Default{Int: -128}},
		{f("int16", "0x7fff", false), Default{Int: math.MaxInt16}},
		{f("int64", "-1", false), Default{Int: -1}},
		{f("uint16", "65535", false), Default{Uint: 65535}},
		{f("float64", "0.5", false), Default{Float: 0.5}},
		{f("string", "none", false), Default{String: "none"}},
		{f("string", "null", true), Default{Null: true}},
		{f("string", "null", false), Default{String: "null"}}, // not nullable: the text itself
		{f("uuid", "AAAAAAAAAAAAAAAAAAAAAQ", false), Default{UUID: [16]byte{15: 1}}},
		{f("records", "", true), Default{Null: true}}, // records default to null
		{f("int32", "", false), Default{}},
	}
	for _, c := range cases {
		got, err := parseDefault(c.field)
		require.NoError(t, err, "%s %q", c.field.Type.Raw, c.field.Default)
		assert.Equal(t, c.want, got, "%s %q", c.field.Type.Raw, c.field.Default)
	}
	_, err := parseDefault(f("int8", "128", false))
	assert.ErrorContains(t, err, "field F: default \"128\"")
}

// TestFacts pins the facts of single fields and specs: Go nullability (a
// nullable range outside the field's versions does not count), JSON keys,
// in-place versions, the comparison with the default, header versions.
func TestFacts(t *testing.T) {
	v := func(lo, hi int16) Versions { return Versions{Lo: lo, Hi: hi} }
	nullableOutside := &Field{Name: "Names", Type: Type{Raw: "[]string", Array: true, Kind: KindString}, Versions: v(0, 2), NullableVersions: v(3, NoMax)}
	assert.False(t, nullableOutside.Nullable())
	nullable := &Field{Name: "Names", Type: Type{Raw: "[]string", Array: true, Kind: KindString}, Versions: v(0, NoMax), NullableVersions: v(3, NoMax)}
	assert.True(t, nullable.Nullable())
	assert.Equal(t, "names", nullable.JSONKey())
	assert.Equal(t, "tAG", (&Field{Name: "TAG"}).JSONKey())

	tagged := &Field{Versions: v(1, NoMax), HasTag: true, TaggedVersions: v(4, NoMax)}
	assert.Equal(t, v(1, 3), tagged.InPlaceVersions())
	alwaysTagged := &Field{Versions: v(2, NoMax), HasTag: true, TaggedVersions: v(2, NoMax)}
	assert.True(t, alwaysTagged.InPlaceVersions().Empty())
	assert.Equal(t, v(0, 5), (&Field{Versions: v(0, 5)}).InPlaceVersions())

	records := &Field{Type: Type{Raw: "records", Kind: KindRecords}, Versions: All, NullableVersions: None}
	assert.Equal(t, DefaultTest{IfNotNull: true}, records.DefaultTest())
	nullable.DefaultValue = Default{Null: true}
	assert.Equal(t, DefaultTest{IfNotNull: true}, nullable.DefaultTest())
	nullable.DefaultValue = Default{}
	assert.Equal(t, DefaultTest{NullDiffers: true}, nullable.DefaultTest())
	assert.Equal(t, DefaultTest{}, nullableOutside.DefaultTest())

	cases := []struct {
		typ      SpecType
		key      int16
		flexible Versions
		want     []int16 // header versions of versions 0 to 3
	}{
		{TypeRequest, 0, v(2, NoMax), []int16{1, 1, 2, 2}},
		{TypeRequest, 3, None, []int16{1, 1, 1, 1}},
		{TypeRequest, 7, v(3, NoMax), []int16{0, 1, 1, 2}},
		{TypeResponse, 1, v(0, NoMax), []int16{1, 1, 1, 1}},
		{TypeResponse, 18, v(3, NoMax), []int16{0, 0, 0, 0}},
		{TypeResponse, 19, v(1, NoMax), []int16{0, 1, 1, 1}},
	}
	for _, c := range cases {
		h := (&Spec{Type: c.typ, APIKey: c.key, HasAPIKey: true, FlexibleVersions: c.flexible}).HeaderVersions()
		for version, want := range c.want {
			assert.Equal(t, want, h.At(int16(version)), "%s %d v%d", c.typ, c.key, version)
		}
	}
}
