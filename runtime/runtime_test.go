package runtime

import (
	"encoding/hex"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Unsigned varint vectors from Kafka's ByteUtilsTest (docs/protocol.md,
// "Unsigned varints").
var uvarints = []struct {
	value uint32
	hex   string
}{
	{0, "00"}, {1, "01"}, {63, "3f"}, {64, "40"}, {8191, "ff3f"}, {8192, "8040"},
	{1048575, "ffff3f"}, {1048576, "808040"}, {math.MaxInt32, "ffffffff07"},
	{0xffffffff, "ffffffff0f"}, {uint32(0xffffffc0), "c0ffffff0f"}, // -1, -64
	{uint32(0xffffe000), "80c0ffff0f"}, {uint32(0x80000000), "8080808008"},
}

// The encoders of varints agree with Kafka's vectors (the decoder's side is
// TestDecoderUvarint).
func TestUvarint(t *testing.T) {
	for _, c := range uvarints {
		assert.Equal(t, c.hex, hex.EncodeToString(AppendUvarint(nil, c.value)), "%d", c.value)
		assert.Equal(t, len(c.hex)/2, SizeUvarint(c.value), "%d", c.value)
	}
}

// A fifth byte without its continuation bit has its high bits dropped, as
// Java's ByteUtils.readUnsignedVarint does (V100); a sixth byte is an error.
func TestDecoderUvarintJavaTolerance(t *testing.T) {
	_, n, err := decodeWith([]byte{0xff, 0xff, 0xff, 0xff, 0x7f}, false, func(d *Decoder, off int) int {
		v, off := d.Uvarint(off, "U")
		assert.Equal(t, int32(-1), int32(v))
		return off
	})
	require.NoError(t, err)
	assert.Equal(t, 5, n)
}

// Compact lengths take an inline path for one- and two-byte varints; both
// paths agree with the encoder and the size functions, and a compact 0 is
// null.
func TestDecoderCompactLengths(t *testing.T) {
	for _, n := range []int{0, 1, 126, 127, 128, 16382, 16383, 16384, 40000} {
		b := AppendBytes(nil, make([]byte, n), Compact)
		assert.Equal(t, len(b), SizeBytes(n, Compact), "%d", n)
		_, end, err := decodeWith(b, true, func(d *Decoder, off int) int {
			got, off := d.Bytes(off, Compact, nil, "B")
			assert.Len(t, got, n)
			return off
		})
		require.NoError(t, err, "%d", n)
		assert.Equal(t, len(b), end, "%d", n)
	}
	_, _, err := decodeWith([]byte{0x00}, false, func(d *Decoder, off int) int {
		got, off := d.NullBytes(off, Compact, nil, "B")
		assert.Nil(t, got, "compact 0 is null")
		assert.Equal(t, 1, off)
		return off
	})
	require.NoError(t, err)
}

// QuickBytes takes only canonical two-byte compact lengths whose value is
// all there, and otherwise reads nothing, leaving the input to NullBytes.
func TestDecoderQuickBytes(t *testing.T) {
	value := make([]byte, 200)
	for i := range value {
		value[i] = byte(i)
	}
	valid := AppendBytes(nil, value, Compact) // length 201: c9 01
	for _, c := range []struct {
		name string
		in   []byte
		l    Lengths
		want []byte // nil: not taken
	}{
		{"two-byte length", valid, Compact, value},
		{"two-byte length, trailing bytes", append(append([]byte{}, valid...), 7, 7), Compact, value},
		{"classic lengths", valid, Classic, nil},
		{"one-byte length", AppendBytes(nil, []byte("abc"), Compact), Compact, nil},
		{"null", []byte{0x00}, Compact, nil},
		{"non-canonical null", []byte{0x80, 0x00}, Compact, nil},
		{"non-canonical empty value", []byte{0x81, 0x00}, Compact, nil},
		{"three-byte length", AppendBytes(nil, make([]byte, 16383), Compact), Compact, nil},
		{"value past the end", valid[:len(valid)-1], Compact, nil},
		{"one byte left", valid[:1], Compact, nil},
		{"nothing left", nil, Compact, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := decodeWith(c.in, true, func(d *Decoder, off int) int {
				win, end := d.QuickBytes(off, c.l)
				if c.want == nil {
					assert.Nil(t, win)
					assert.Equal(t, off, end, "nothing read")
					return end
				}
				assert.Equal(t, c.want, win)
				assert.Equal(t, 2+len(c.want), end)
				assert.Equal(t, len(win), cap(win), "the window ends at the value")
				return end
			})
			require.NoError(t, err)
		})
	}
}

// Keep returns the window itself when aliasing, and otherwise a copy, into
// the old value's capacity when it fits.
func TestDecoderKeepCopiesUnlessAliasing(t *testing.T) {
	in := []byte{1, 2, 3}
	var d Decoder
	d.InitAliased(in)
	assert.Same(t, &in[0], &d.Keep(in, nil)[0], "aliased")

	d.Init(in)
	got := d.Keep(in, nil)
	assert.Equal(t, in, got)
	assert.NotSame(t, &in[0], &got[0], "copied")
	old := make([]byte, 1, 8)
	got = d.Keep(in, old)
	assert.Equal(t, in, got)
	assert.Same(t, &old[:1][0], &got[0], "copied into old's capacity")
	small := make([]byte, 1, 2)
	got = d.Keep(in, small)
	assert.Equal(t, in, got)
	assert.NotSame(t, &small[:1][0], &got[0], "old's capacity is too small")
}

// Grow reuses capacity and keeps the elements past the length for reuse;
// a negative count is a null array, an empty one is not null.
func TestGrow(t *testing.T) {
	s := []string{"a", "b", "c"}
	short := Grow(s, 1)
	assert.Equal(t, []string{"a"}, short)
	again := Grow(short, 3)
	assert.Equal(t, []string{"a", "b", "c"}, again, "the elements past the length are kept")
	assert.Same(t, &s[0], &again[0], "same memory")
	longer := Grow(short, 5)
	assert.Equal(t, []string{"a", "b", "c", "", ""}, longer, "growing keeps what the capacity held")
	assert.Nil(t, Grow(s, -1))
	empty := Grow[string](nil, 0)
	assert.NotNil(t, empty)
	assert.Empty(t, empty)
}

func TestDecoderFloat64KeepsNaNBits(t *testing.T) {
	nan := math.Float64frombits(0x7ff8000000000000) // Java's Double.NaN
	assert.Equal(t, "7ff8000000000000", hex.EncodeToString(AppendFloat64(nil, nan)))
	assert.Equal(t, "8000000000000000", hex.EncodeToString(AppendFloat64(nil, math.Copysign(0, -1))))
	payload := math.Float64frombits(0x7ff0000000000123) // a signalling NaN with a payload
	for _, v := range []float64{nan, payload, math.Copysign(0, -1)} {
		src := AppendFloat64(nil, v)
		_, _, err := decodeWith(src, false, func(d *Decoder, off int) int {
			got, off := d.Float64(off, "F")
			assert.Equal(t, math.Float64bits(v), math.Float64bits(got))
			return off
		})
		require.NoError(t, err)
	}
}

// A short read's error is complete: message, field, version, offset, what
// was needed, and its text.
func TestDecoderShortReadError(t *testing.T) {
	var d Decoder
	d.Init([]byte{0, 1, 2})
	_, off := d.Int16(0, "A")
	_, off = d.Int32(off, "F")
	n, err := d.Finish("M", 3, off)
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
