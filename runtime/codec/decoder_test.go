package codec

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/runtime"
)

// decodeWith runs read over src with a Decoder and returns what Finish says.
func decodeWith(src []byte, alias bool, read func(d *Decoder, off int) int) (*Decoder, int, error) {
	var d Decoder
	if alias {
		d.InitAliased(src)
	} else {
		d.Init(src)
	}
	end := read(&d, 0)
	n, err := d.Finish("M", 7, end)
	return &d, n, err
}

// failure asserts err is the *Error of a decode of M v7 failing at field
// with sentinel at offset.
func failure(t *testing.T, err error, sentinel error, field string, offset int) {
	t.Helper()
	var e *runtime.Error
	require.ErrorAs(t, err, &e)
	assert.True(t, errors.Is(err, sentinel), "%v is not %v", err, sentinel)
	assert.Equal(t, "decode", e.Op)
	assert.Equal(t, "M", e.Message)
	assert.Equal(t, int16(7), e.Version)
	assert.Equal(t, field, e.Field, "%v", err)
	assert.Equal(t, offset, e.Offset, "%v", err)
}

func TestDecoderFixedWidth(t *testing.T) {
	src := []byte{1, 0xff, 0x80, 0x01, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3}
	_, n, err := decodeWith(src, false, func(d *Decoder, off int) int {
		var b bool
		var i8 int8
		var i16 int16
		var i32 int32
		var i64 int64
		b, off = d.Bool(off, "B")
		i8, off = d.Int8(off, "I8")
		i16, off = d.Int16(off, "I16")
		i32, off = d.Int32(off, "I32")
		i64, off = d.Int64(off, "I64")
		assert.Equal(t, true, b)
		assert.Equal(t, int8(-1), i8)
		assert.Equal(t, int16(-32767), i16)
		assert.Equal(t, int32(2), i32)
		assert.Equal(t, int64(3), i64)
		return off
	})
	require.NoError(t, err)
	assert.Equal(t, len(src), n)

	// A short read names its field at its offset, and every later read
	// fails without recording anything.
	_, _, err = decodeWith(src[:5], false, func(d *Decoder, off int) int {
		_, off = d.Int16(off, "A")
		_, off = d.Int32(off, "B") // 3 bytes left
		assert.Equal(t, stopped, off)
		_, off = d.Int8(off, "C")
		return off
	})
	failure(t, err, runtime.ErrShortBuffer, "B", 2)
	assert.ErrorContains(t, err, "need 4 bytes, have 3")
}

func TestDecoderRuns(t *testing.T) {
	src := []byte{0, 1, 0, 0, 0, 2}
	_, _, err := decodeWith(src, false, func(d *Decoder, off int) int {
		p := d.Fixed(off, 6)
		require.NotNil(t, p)
		off += 6
		require.Nil(t, d.Fixed(off, 1))
		return d.FailFixed(off, "X:1")
	})
	failure(t, err, runtime.ErrShortBuffer, "X", 6)
	// The failure names the first field of the run that does not fit.
	_, _, err = decodeWith(src[:3], false, func(d *Decoder, off int) int {
		require.Nil(t, d.Fixed(off, 6))
		return d.FailFixed(off, "A:2 B:4")
	})
	failure(t, err, runtime.ErrShortBuffer, "B", 2)
}

func TestDecoderFailFixed(t *testing.T) {
	src := []byte{0, 1, 0, 0, 0, 2}
	for _, c := range []struct {
		name   string
		src    []byte
		fields string
		field  string
		at     int
		need   string
	}{
		{"nothing left", src[:0], "A:2 B:4", "A", 0, "need 2 bytes, have 0"},
		{"first field short", src[:1], "A:2 B:4", "A", 0, "need 2 bytes, have 1"},
		{"second field short", src[:3], "A:2 B:4", "B", 2, "need 4 bytes, have 1"},
		{"last of three", src[:6], "A:1 B:4 C:8", "C", 5, "need 8 bytes, have 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := decodeWith(c.src, false, func(d *Decoder, off int) int {
				require.Nil(t, d.Fixed(off, 14))
				off = d.FailFixed(off, c.fields)
				assert.Equal(t, stopped, off)
				return off
			})
			failure(t, err, runtime.ErrShortBuffer, c.field, c.at)
			assert.ErrorContains(t, err, c.need)
		})
	}
	// After an earlier failure, nothing more is recorded.
	_, _, err := decodeWith(src[:1], false, func(d *Decoder, off int) int {
		_, off = d.Int16(off, "First")
		return d.FailFixed(off, "A:2")
	})
	failure(t, err, runtime.ErrShortBuffer, "First", 0)
}

func TestDecoderStrings(t *testing.T) {
	compact := AppendString(nil, "hello", Compact)
	classic := AppendString(nil, "hello", Classic)
	for _, c := range []struct {
		src []byte
		l   Lengths
	}{{compact, Compact}, {classic, Classic}} {
		for _, alias := range []bool{false, true} {
			_, n, err := decodeWith(c.src, alias, func(d *Decoder, off int) int {
				s, off := d.String(off, c.l, "", "S")
				assert.Equal(t, "hello", s)
				return off
			})
			require.NoError(t, err)
			assert.Equal(t, len(c.src), n)
		}
	}
	// An unchanged value is kept: no allocation.
	old := "hello"
	_, _, err := decodeWith(compact, false, func(d *Decoder, off int) int {
		s, off := d.String(off, Compact, old, "S")
		assert.True(t, s == old)
		return off
	})
	require.NoError(t, err)

	null := AppendNullString(nil, runtime.NullString{}, Compact)
	_, _, err = decodeWith(null, false, func(d *Decoder, off int) int {
		s, off := d.NullString(off, Compact, runtime.NullString{}, "S")
		assert.False(t, s.Valid)
		return off
	})
	require.NoError(t, err)
	_, _, err = decodeWith(null, false, func(d *Decoder, off int) int {
		_, off = d.String(off, Compact, "", "S")
		return off
	})
	failure(t, err, runtime.ErrNull, "S", 0)
	_, _, err = decodeWith([]byte{0x81, 0x80, 0x02}, false, func(d *Decoder, off int) int {
		_, off = d.String(off, Compact, "", "S") // 32768 bytes announced
		return off
	})
	failure(t, err, runtime.ErrInvalidLength, "S", 0)
	_, _, err = decodeWith(compact[:4], false, func(d *Decoder, off int) int {
		_, off = d.String(off, Compact, "", "S")
		return off
	})
	failure(t, err, runtime.ErrShortBuffer, "S", 1)
}

// Record batches of 127 to 16382 bytes take QuickBytes; every other length
// is read by Bytes and NullBytes, and both agree with the encoders.
func TestDecoderBytes(t *testing.T) {
	for _, n := range []int{0, 1, 126, 127, 128, 16382, 16383, 40000} {
		for _, l := range []Lengths{Compact, Classic} {
			src := AppendBytes(nil, make([]byte, n), l)
			_, _, err := decodeWith(src, true, func(d *Decoder, off int) int {
				win, end := d.QuickBytes(off, l)
				quick := l == Compact && n >= 127 && n <= 16382
				assert.Equal(t, quick, end > off, "%d bytes, %v", n, l)
				if quick {
					assert.Len(t, win, n)
					assert.Equal(t, len(src), end)
				}
				b, off := d.Bytes(off, l, nil, "B")
				assert.Len(t, b, n)
				assert.NotNil(t, b)
				assert.Equal(t, len(src), off)
				return off
			})
			require.NoError(t, err)
		}
	}
	// A null written in two bytes (0x80 0x00) is not a quick length.
	_, _, err := decodeWith([]byte{0x80, 0x00}, false, func(d *Decoder, off int) int {
		_, end := d.QuickBytes(off, Compact)
		assert.Equal(t, off, end)
		b, off := d.NullBytes(off, Compact, nil, "B")
		assert.Nil(t, b)
		return off
	})
	require.NoError(t, err)
	// Decode copies into the old value's capacity.
	old := make([]byte, 0, 200)
	src := AppendBytes(nil, make([]byte, 150), Compact)
	_, _, err = decodeWith(src, false, func(d *Decoder, off int) int {
		win, end := d.QuickBytes(off, Compact)
		b := d.Keep(win, old)
		assert.Equal(t, &old[:1][0], &b[0])
		return end
	})
	require.NoError(t, err)
}

func TestDecoderArrays(t *testing.T) {
	src := AppendArrayLen(nil, 3, Compact)
	src = append(src, 0, 0, 0)
	_, _, err := decodeWith(src, false, func(d *Decoder, off int) int {
		n, end := d.SmallArrayLen(off, Compact, 1)
		assert.Equal(t, 3, n)
		assert.Equal(t, 1, end)
		n, end = d.SmallArrayLen(off, Compact, 2) // 6 bytes do not fit
		assert.Equal(t, -1, n)
		assert.Equal(t, off, end)
		n, end = d.ArrayLen(off, Compact, 1, "A")
		assert.Equal(t, 3, n)
		return end + 3
	})
	require.NoError(t, err)
	_, _, err = decodeWith(src, false, func(d *Decoder, off int) int {
		_, off = d.ArrayLen(off, Compact, 2, "A")
		return off
	})
	failure(t, err, runtime.ErrInvalidLength, "A", 0)
	null := AppendArrayLen(nil, -1, Classic)
	_, _, err = decodeWith(null, false, func(d *Decoder, off int) int {
		n, off := d.NullArrayLen(off, Classic, 4, "A")
		assert.Equal(t, -1, n)
		assert.Nil(t, Grow([]int32{1}, n))
		return off
	})
	require.NoError(t, err)
	_, _, err = decodeWith(null, false, func(d *Decoder, off int) int {
		_, off = d.ArrayLen(off, Classic, 4, "A")
		return off
	})
	failure(t, err, runtime.ErrNull, "A", 0)
}

func TestDecoderTags(t *testing.T) {
	section, err := AppendTagSection(nil, runtime.Tags{{Tag: 3, Data: []byte{1, 2}}, {Tag: 9, Data: nil}}, -1)
	require.NoError(t, err)
	_, n, err := decodeWith(section, false, func(d *Decoder, off int) int {
		var tags runtime.Tags
		off = d.Tags(off, &tags)
		assert.Equal(t, runtime.Tags{{Tag: 3, Data: []byte{1, 2}}, {Tag: 9, Data: []byte{}}}, tags)
		return off
	})
	require.NoError(t, err)
	assert.Equal(t, len(section), n)
	_, _, err = decodeWith([]byte{0}, false, func(d *Decoder, off int) int {
		tags := runtime.Tags{}
		off = d.Tags(off, &tags)
		assert.Empty(t, tags)
		return off
	})
	require.NoError(t, err)
	_, _, err = decodeWith([]byte{5, 0}, false, func(d *Decoder, off int) int {
		_, off = d.TagCount(off)
		return off
	})
	failure(t, err, runtime.ErrInvalidLength, "", 0)
	_, _, err = decodeWith([]byte{1, 2, 0}, false, func(d *Decoder, off int) int {
		_, off = d.TagCount(off)
		tag, _, off := d.TagHeader(off)
		return d.InvalidTag(off, tag, 7, "T")
	})
	failure(t, err, runtime.ErrInvalidTag, "T", 3)
}

// Within and WithinElem build the path of enclosing fields, innermost
// last in the error; Within leaves a failure before its struct alone.
func TestDecoderPath(t *testing.T) {
	_, _, err := decodeWith([]byte{0, 0}, false, func(d *Decoder, off int) int {
		start := off
		_, off = d.Int32(off, "Leaf")
		off = d.Within(start, off, "Inner")
		d.WithinElem("Outer", 4)
		return off
	})
	failure(t, err, runtime.ErrShortBuffer, "Outer[4].Inner.Leaf", 0)
	_, _, err = decodeWith([]byte{0, 0}, false, func(d *Decoder, off int) int {
		_, off = d.Int32(off, "Before")
		start := off
		_, off = d.Int32(off, "Leaf")
		return d.Within(start, off, "Inner")
	})
	failure(t, err, runtime.ErrShortBuffer, "Before", 0)
}

func TestDecoderUvarint(t *testing.T) {
	for _, c := range uvarints {
		b := binary.AppendUvarint(nil, uint64(c.value))
		_, n, err := decodeWith(b, false, func(d *Decoder, off int) int {
			v, off := d.Uvarint(off, "U")
			assert.Equal(t, c.value, v, c.hex)
			return off
		})
		require.NoError(t, err)
		assert.Equal(t, len(b), n)
	}
	_, _, err := decodeWith([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, false, func(d *Decoder, off int) int {
		_, off = d.Uvarint(off, "U")
		return off
	})
	failure(t, err, runtime.ErrMalformedVarint, "U", 4)
}
