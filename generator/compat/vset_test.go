package compat

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generator/schema"
)

func vr(lo, hi int16) schema.Versions { return schema.Versions{Lo: lo, Hi: hi} }

func TestWhere(t *testing.T) {
	odd := func(v int16) bool { return v%2 == 1 }
	tests := []struct {
		name   string
		span   schema.Versions
		ranges []schema.Versions
		holds  func(int16) bool
		want   string
	}{
		{"empty span", schema.None, []schema.Versions{vr(0, 3)}, func(int16) bool { return true }, "none"},
		{"never", vr(0, 5), nil, func(int16) bool { return false }, "none"},
		{"whole span", vr(2, 7), nil, func(int16) bool { return true }, "2-7"},
		{"inside one range", vr(0, 9), []schema.Versions{vr(3, 5)}, vr(3, 5).Contains, "3-5"},
		{"range over the span's ends", vr(2, 4), []schema.Versions{vr(0, 9)}, vr(0, 9).Contains, "2-4"},
		{"open range", vr(0, schema.NoMax), []schema.Versions{vr(4, schema.NoMax)}, vr(4, schema.NoMax).Contains, "4+"},
		{"outside a range", vr(0, 9), []schema.Versions{vr(3, 5)}, func(v int16) bool { return !vr(3, 5).Contains(v) }, "0-2, 6-9"},
		{"empty ranges ignored", vr(0, 3), []schema.Versions{schema.None}, func(int16) bool { return true }, "0-3"},
		{"adjacent segments merge", vr(0, 9), []schema.Versions{vr(0, 2), vr(3, 5)}, vr(0, 5).Contains, "0-5"},
		{"single versions", vr(0, 4), []schema.Versions{vr(1, 1), vr(3, 3)},
			func(v int16) bool { return v == 1 || v == 3 }, "1, 3"},
		// The predicate is asked once per segment, at its first version:
		// ranges that do not cut the span where it changes give segments.
		{"one segment per cut", vr(0, 3), []schema.Versions{vr(1, 1), vr(2, 2), vr(3, 3)}, odd, "1, 3"},
		{"top version", vr(schema.NoMax, schema.NoMax), nil, func(int16) bool { return true }, "32767+"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, where(tt.span, tt.ranges, tt.holds).String())
		})
	}
}

func TestWhereCallsPerSegment(t *testing.T) {
	calls := 0
	got := where(vr(0, schema.NoMax), []schema.Versions{vr(10, 20), vr(15, schema.NoMax)}, func(v int16) bool {
		calls++
		return v >= 10
	})
	assert.Equal(t, "10+", got.String())
	assert.Equal(t, 4, calls, "segments 0-9, 10-14, 15-20, 21+: never once per version")
}

func TestVersionsWord(t *testing.T) {
	assert.Equal(t, "version 3", vset{vr(3, 3)}.versionsWord())
	assert.Equal(t, "versions 3-4", vset{vr(3, 4)}.versionsWord())
	assert.Equal(t, "versions 1, 3", vset{vr(1, 1), vr(3, 3)}.versionsWord())
	assert.Equal(t, "versions 5+", vset{vr(5, schema.NoMax)}.versionsWord())
}

// TestCycleIsBounded: the loader rejects a struct that contains itself, but
// Compare does not rely on it. A loaded model is rewired into a cycle on
// both sides and the comparison still ends, reporting what differs once.
func TestCycleIsBounded(t *testing.T) {
	load := func(offsetType string) *schema.Spec {
		spec, err := schema.Load("Loop.json", []byte(`{
  "type": "data", "name": "Loop", "validVersions": "0-3", "flexibleVersions": "0+",
  "fields": [
    { "name": "Next", "type": "[]Node", "versions": "0+", "about": "Nodes.", "fields": [
      { "name": "Offset", "type": "`+offsetType+`", "versions": "0+", "about": "An offset." },
      { "name": "Child", "type": "[]Leaf", "versions": "0+", "about": "Children.", "fields": [
        { "name": "Id", "type": "int32", "versions": "0+", "about": "An id." }
      ]}
    ]}
  ]
}`))
		require.NoError(t, err)
		node := spec.Root.Fields[0].Struct
		child := node.Fields[1]
		child.Type = node.Fields[0].Type // keep the wire type consistent: a struct array
		child.Type.Array, child.Type.Kind, child.Type.StructName = true, schema.KindStruct, "Node"
		child.Struct = node // Node now contains itself
		return spec
	}
	findings := Compare(load("int32"), load("int64"))
	require.Len(t, findings, 1)
	assert.Equal(t, RuleFieldType, findings[0].Rule)
	assert.Equal(t, "Loop.json:5:7: Loop.Next.Offset: type changed from int32 to int64 at versions 0-3", findings[0].String())
}
