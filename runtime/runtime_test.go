package runtime

import (
	"encoding/hex"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Unsigned varint vectors from Kafka's ByteUtilsTest (spec-facts §6).
var uvarints = []struct {
	value uint32
	hex   string
}{
	{0, "00"}, {1, "01"}, {63, "3f"}, {64, "40"}, {8191, "ff3f"}, {8192, "8040"},
	{1048575, "ffff3f"}, {1048576, "808040"}, {math.MaxInt32, "ffffffff07"},
	{0xffffffff, "ffffffff0f"}, {uint32(0xffffffc0), "c0ffffff0f"}, // -1, -64
	{uint32(0xffffe000), "80c0ffff0f"}, {uint32(0x80000000), "8080808008"},
}

func TestUvarint(t *testing.T) {
	for _, c := range uvarints {
		assert.Equal(t, c.hex, hex.EncodeToString(AppendUvarint(nil, c.value)), "%d", c.value)
		assert.Equal(t, len(c.hex)/2, SizeUvarint(c.value), "%d", c.value)
		var r Reader
		b, _ := hex.DecodeString(c.hex)
		r.Init(b, false)
		assert.Equal(t, c.value, r.Uvarint(), c.hex)
		assert.False(t, r.Failed())
	}
}

func TestUvarintJavaTolerance(t *testing.T) {
	var r Reader
	r.Init([]byte{0xff, 0xff, 0xff, 0xff, 0x7f}, false) // V100: the fifth byte's high bits dropped
	assert.Equal(t, int32(-1), int32(r.Uvarint()))
	require.False(t, r.Failed())

	r.Init([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, false) // a sixth byte
	r.Uvarint()
	_, err := r.Finish("M", 0)
	assert.True(t, errors.Is(err, ErrMalformedVarint), "%v", err)
}

// Compact lengths take an inline path for one- and two-byte varints; both
// paths must agree with the general varint reader.
func TestCompactLengths(t *testing.T) {
	for _, n := range []int{0, 1, 126, 127, 128, 16382, 16383, 16384, 40000} {
		b := AppendBytes(nil, make([]byte, n), true)
		var r Reader
		r.Init(b, true)
		got := r.Bytes(true, nil)
		require.False(t, r.Failed(), "%d", n)
		assert.Len(t, got, n)
		assert.Equal(t, len(b), r.Offset())
		assert.Equal(t, len(b), SizeBytes(n, true))
	}
	var r Reader
	r.Init([]byte{0x00}, false)
	assert.Nil(t, r.NullBytes(true, nil), "compact 0 is null")
}

// QuickBytes takes only two-byte compact lengths whose value is all there,
// and otherwise consumes nothing, leaving the input to NullBytes.
func TestQuickBytes(t *testing.T) {
	value := make([]byte, 200)
	for i := range value {
		value[i] = byte(i)
	}
	valid := AppendBytes(nil, value, true) // length 201: c9 01
	for _, c := range []struct {
		name    string
		in      []byte
		compact bool
		want    []byte // nil: not taken
	}{
		{"two-byte length", valid, true, value},
		{"two-byte length, trailing bytes", append(append([]byte{}, valid...), 7, 7), true, value},
		{"non-canonical empty value", []byte{0x81, 0x00}, true, []byte{}},
		{"not compact", valid, false, nil},
		{"one-byte length", AppendBytes(nil, []byte("abc"), true), true, nil},
		{"null", []byte{0x00}, true, nil},
		{"non-canonical null", []byte{0x80, 0x00}, true, nil},
		{"three-byte length", AppendBytes(nil, make([]byte, 16383), true), true, nil},
		{"value past the end", valid[:len(valid)-1], true, nil},
		{"one byte left", valid[:1], true, nil},
		{"nothing left", nil, true, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var r Reader
			r.Init(c.in, true)
			got, ok := r.QuickBytes(c.compact)
			if c.want == nil {
				assert.False(t, ok)
				assert.Equal(t, 0, r.Offset(), "nothing consumed")
				return
			}
			require.True(t, ok)
			assert.Equal(t, c.want, got)
			assert.Equal(t, 2+len(c.want), r.Offset())
			assert.Equal(t, len(got), cap(got), "the window ends at the value")
		})
	}
}

func TestKeepCopiesUnlessAliasing(t *testing.T) {
	in := []byte{1, 2, 3}
	var r Reader
	r.Init(in, true)
	assert.Same(t, &in[0], &r.Keep(in, nil)[0], "aliased")

	r.Init(in, false)
	old := make([]byte, 1, 8)
	got := r.Keep(in, old)
	assert.Equal(t, in, got)
	assert.Same(t, &old[:1][0], &got[0], "copied into old's capacity")
}

func TestFloat64KeepsNaNBits(t *testing.T) {
	nan := math.Float64frombits(0x7ff8000000000000) // Java's Double.NaN
	assert.Equal(t, "7ff8000000000000", hex.EncodeToString(AppendFloat64(nil, nan)))
	assert.Equal(t, "8000000000000000", hex.EncodeToString(AppendFloat64(nil, math.Copysign(0, -1))))
	var r Reader
	r.Init(AppendFloat64(nil, nan), false)
	assert.Equal(t, uint64(0x7ff8000000000000), math.Float64bits(r.Float64()))
}

func TestShortReadsReportOffset(t *testing.T) {
	var r Reader
	r.Init([]byte{0, 1, 2}, false)
	r.Int16()
	r.Int32()
	r.Within("F")
	n, err := r.Finish("M", 3)
	require.Error(t, err)
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, 2, n)
	assert.Equal(t, Error{Op: "decode", Message: "M", Field: "F", Version: 3, Offset: 2, Err: ErrShortBuffer, Detail: "need 4 bytes, have 1"}, *e)
	assert.Equal(t, "kafka decode M.F v3 at byte 2: short buffer: need 4 bytes, have 1", err.Error())
}

func TestTagOrder(t *testing.T) {
	assert.NoError(t, Tags{{Tag: 3}, {Tag: 9}}.Check(2))
	assert.ErrorIs(t, Tags{{Tag: 20}, {Tag: 10}}.Check(-1), ErrTagOrder)
	assert.ErrorIs(t, Tags{{Tag: 2}}.Check(2), ErrTagOrder, "a defined tag")
	b, err := AppendTagSection(nil, Tags{{Tag: 1000, Data: []byte{1, 2, 3}}}, -1)
	require.NoError(t, err)
	assert.Equal(t, "01e80703010203", hex.EncodeToString(b)) // V6's section
}

func TestUUIDText(t *testing.T) {
	u, err := ParseUUID("H3KKO4NTRPaCWtEmm3vW7A")
	require.NoError(t, err)
	assert.Equal(t, "H3KKO4NTRPaCWtEmm3vW7A", u.String())
	_, err = ParseUUID("short")
	assert.Error(t, err)
}
