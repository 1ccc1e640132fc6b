package codec

import (
	"fmt"
	"unsafe"

	"github.com/kafkagen/kafkagen/runtime"
)

// For generated code: Decoder methods for length-prefixed values (strings,
// bytes, records, arrays), nullable structs and tag sections. Each takes the
// offset to read at and returns the offset after the value; field is the
// spec name the failure is reported under.

// length reads a length or count at off: an int16 (strings) or int32 in
// Classic form, or a uvarint holding n+1 in Compact form. Any negative value
// is -1 (null).
func (d *Decoder) length(off int, l Lengths, wide bool, field string) (int, int) {
	var n int
	switch {
	case l == Compact:
		if b := d.buf; len(b)-off >= 2 { // one or two bytes inline
			if c := b[off]; c < 0x80 {
				return int(c) - 1, off + 1
			} else if e := b[off+1]; e < 0x80 {
				return int(c&0x7f) | int(e)<<7 - 1, off + 2
			}
		}
		var u uint32
		u, off = d.Uvarint(off, field)
		n = int(int32(u)) - 1
	case wide:
		var v int32
		v, off = d.Int32(off, field)
		n = int(v)
	default:
		var v int16
		v, off = d.Int16(off, field)
		n = int(v)
	}
	return max(n, -1), off
}

// body returns the n bytes at off, or fails (at off) when n is negative or
// more than remain.
func (d *Decoder) body(off, n int, field string) ([]byte, int) {
	if b, rem := d.buf, len(d.buf)-off; rem >= 0 && uint(n) <= uint(rem) { // also rejects a negative n
		return b[off : off+n : off+n], off + n
	}
	if n < 0 {
		return nil, d.fail(off, field, runtime.ErrInvalidLength, fmt.Sprintf("negative length %d", n))
	}
	return nil, d.short(off, n, field)
}

// stringBody reads the n bytes of a string whose length starts at start.
func (d *Decoder) stringBody(start, off, n int, old, field string) (string, int) {
	if n > runtime.MaxStringLen {
		return "", d.fail(start, field, runtime.ErrInvalidLength, fmt.Sprintf("string length %d over %d", n, runtime.MaxStringLen))
	}
	b, off := d.body(off, n, field)
	switch {
	case len(b) == 0:
		return "", off
	case d.alias:
		return unsafe.String(unsafe.SliceData(b), len(b)), off
	case string(b) == old: // compares without allocating
		return old, off
	}
	return string(b), off
}

// String reads a string that must not be null at off; old is the field's
// current value, kept when the bytes are the same.
func (d *Decoder) String(off int, l Lengths, old string, field string) (string, int) {
	start := off
	n, off := d.length(off, l, false, field)
	if n < 0 {
		if d.bad {
			return "", stopped
		}
		return "", d.fail(start, field, runtime.ErrNull, "")
	}
	return d.stringBody(start, off, n, old, field)
}

// NullString reads a nullable string at off.
func (d *Decoder) NullString(off int, l Lengths, old runtime.NullString, field string) (runtime.NullString, int) {
	start := off
	n, off := d.length(off, l, false, field)
	if n < 0 {
		return runtime.NullString{}, off
	}
	s, off := d.stringBody(start, off, n, old.Value, field)
	return runtime.NullString{Value: s, Valid: true}, off
}

// Keep returns a window of the input from QuickBytes as the decode wants
// it: the window itself when aliasing, otherwise a copy into old's capacity.
func (d *Decoder) Keep(win, old []byte) []byte {
	if d.alias || win == nil {
		return win
	}
	return copyBytes(win, old)
}

// QuickBytes is the inlined fast path of Bytes and NullBytes for record
// batches: a Compact length of two bytes (values of 127 to 16382 bytes)
// whose value is all there. It returns the value's window into the input
// and the offset after it; for anything else it returns end == off, having
// read nothing, and generated code calls Bytes or NullBytes, which read it
// the long way and report what is wrong.
func (d *Decoder) QuickBytes(off int, l Lengths) (win []byte, end int) {
	b := d.buf
	// The second byte is 1 to 127: a canonical two-byte length.
	if l == Classic || len(b)-off < 2 || b[off] < 0x80 || b[off+1]-1 >= 0x7f {
		return nil, off
	}
	end = off + 2 + (int(b[off]&0x7f) | int(b[off+1])<<7 - 1)
	if end > len(b) {
		return nil, off
	}
	return b[off+2 : end : end], end
}

// Bytes reads bytes or records that must not be null at off. An empty value
// is a non-nil empty slice. Without aliasing, the value is copied into old's
// capacity when it fits.
func (d *Decoder) Bytes(off int, l Lengths, old []byte, field string) ([]byte, int) {
	return d.bytes(off, l, old, false, field)
}

// NullBytes reads nullable bytes or records at off; null is nil.
func (d *Decoder) NullBytes(off int, l Lengths, old []byte, field string) ([]byte, int) {
	return d.bytes(off, l, old, true, field)
}

// bytes is Bytes and NullBytes the long way.
func (d *Decoder) bytes(off int, l Lengths, old []byte, nullable bool, field string) ([]byte, int) {
	start := off
	n, off := d.length(off, l, true, field)
	if n < 0 {
		if nullable || d.bad {
			return nil, off
		}
		return nil, d.fail(start, field, runtime.ErrNull, "")
	}
	b, off := d.body(off, n, field)
	return d.Keep(b, old), off
}

// SmallArrayLen is the inlined fast path of ArrayLen and NullArrayLen: a
// Compact count below 127 whose minimum size (count × minElemSize) fits in
// the bytes that remain. It returns the count and the offset after it, or
// -1 and off, having read nothing, for anything else, which generated code
// then reads with ArrayLen or NullArrayLen.
func (d *Decoder) SmallArrayLen(off int, l Lengths, minElemSize int) (int, int) {
	if b := d.buf; l == Compact && off < len(b) {
		if c := int(b[off]); c > 0 && c < 0x80 && (c-1)*minElemSize <= len(b)-off-1 {
			return c - 1, off + 1
		}
	}
	return -1, off
}

// ArrayLen reads the count of an array that must not be null at off. It
// fails when count × minElemSize exceeds the bytes that remain, before the
// caller allocates anything.
func (d *Decoder) ArrayLen(off int, l Lengths, minElemSize int, field string) (int, int) {
	return d.arrayLen(off, l, false, minElemSize, field)
}

// NullArrayLen is ArrayLen for an array that may be null: the count is -1
// for null, which Grow turns into a nil slice.
func (d *Decoder) NullArrayLen(off int, l Lengths, minElemSize int, field string) (int, int) {
	return d.arrayLen(off, l, true, minElemSize, field)
}

func (d *Decoder) arrayLen(off int, l Lengths, nullable bool, minElemSize int, field string) (int, int) {
	start := off
	n, off := d.length(off, l, true, field)
	switch {
	case d.bad:
		return 0, stopped
	case n < 0 && nullable:
		return -1, off
	case n < 0:
		return 0, d.fail(start, field, runtime.ErrNull, "")
	case n*max(minElemSize, 1) > len(d.buf)-off:
		return 0, d.fail(start, field, runtime.ErrInvalidLength, fmt.Sprintf("array of %d elements, but only %d bytes remain", n, len(d.buf)-start))
	}
	return n, off
}

// StructMarker reads the int8 presence marker of a nullable struct at off:
// negative is null; any other value is present.
func (d *Decoder) StructMarker(off int, field string) (present bool, end int) {
	v, off := d.Int8(off, field)
	return v >= 0 && !d.bad, off
}

// TaggedStructMarker reads the uvarint presence marker of a nullable tagged
// struct at off: zero (or negative, in Java's signed reading) is null.
func (d *Decoder) TaggedStructMarker(off int, field string) (present bool, end int) {
	v, off := d.Uvarint(off, field)
	return int32(v) > 0, off
}

// TagCount reads the number of tagged fields of a tag section at off. The
// common section holding none, a single zero byte, is read inline.
func (d *Decoder) TagCount(off int) (int, int) {
	if off < len(d.buf) && d.buf[off] == 0 {
		return 0, off + 1
	}
	return d.tagCount(off)
}

func (d *Decoder) tagCount(off int) (int, int) {
	start := off
	u, off := d.Uvarint(off, "")
	n := int(int32(u))
	if d.bad {
		return 0, stopped
	}
	if n < 0 || n*2 > len(d.buf)-off {
		return 0, d.fail(start, "", runtime.ErrInvalidLength, fmt.Sprintf("%d tagged fields, but only %d bytes remain", n, len(d.buf)-start))
	}
	return n, off
}

// TagHeader reads a tagged field's tag and size at off.
func (d *Decoder) TagHeader(off int) (tag uint32, size int, end int) {
	tag, off = d.Uvarint(off, "")
	start := off
	u, off := d.Uvarint(off, "")
	size = int(int32(u))
	if size < 0 && !d.bad {
		off = d.fail(start, "", runtime.ErrInvalidLength, fmt.Sprintf("negative tagged field size %d", size))
	}
	if d.bad {
		return 0, 0, stopped
	}
	return tag, size, off
}

// InvalidTag fails for a known tag, field's, read at off at a version that
// does not have it.
func (d *Decoder) InvalidTag(off int, tag uint32, version int16, field string) int {
	return d.fail(off, field, runtime.ErrInvalidTag, fmt.Sprintf("tag %d is not valid for version %d", tag, version))
}

// UnknownTag appends the size bytes at off, an unknown tagged field, to
// tags, reusing the capacity of tags.
func (d *Decoder) UnknownTag(off int, tags runtime.Tags, tag uint32, size int) (runtime.Tags, int) {
	var old []byte
	if len(tags) < cap(tags) {
		old = tags[: len(tags)+1 : len(tags)+1][len(tags)].Data
	}
	data, off := d.body(off, size, "")
	if d.bad {
		return tags, stopped
	}
	data = d.Keep(data, old)
	if data == nil {
		data = []byte{}
	}
	return append(tags, runtime.UnknownTag{Tag: tag, Data: data}), off
}

// Tags reads the tag section at off of a struct that defines no tagged
// field: every field in it is unknown, and appended to *tags, which the
// caller has emptied (keeping its capacity). The common section holding
// none, a single zero byte, is read inline.
func (d *Decoder) Tags(off int, tags *runtime.Tags) int {
	if off < len(d.buf) && d.buf[off] == 0 {
		return off + 1
	}
	return d.tags(off, tags)
}

func (d *Decoder) tags(off int, tags *runtime.Tags) int {
	n, off := d.TagCount(off)
	for i := 0; i < n && !d.bad; i++ {
		var tag uint32
		var size int
		tag, size, off = d.TagHeader(off)
		*tags, off = d.UnknownTag(off, *tags, tag, size)
	}
	return off
}
