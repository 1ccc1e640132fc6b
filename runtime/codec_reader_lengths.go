package runtime

import (
	"fmt"
	"unsafe"
)

// For generated code: Reader methods for length-prefixed values (strings,
// bytes, records, arrays), nullable structs and tag sections.

// length reads a length or count: int16 (narrow) or int32, or a compact
// uvarint holding n+1. Any negative value is -1 (null).
func (r *Reader) length(compact, wide bool) int {
	var n int
	switch {
	case compact:
		if c, ok := r.compactLen(); ok {
			return c // at least -1 (null)
		}
		n = int(int32(r.Uvarint())) - 1
	case wide:
		n = int(r.Int32())
	default:
		n = int(r.Int16())
	}
	if n < 0 {
		return -1
	}
	return n
}

// compactLen reads a compact length of one or two bytes (below 16383)
// inline; ok is false, and nothing is consumed, otherwise.
func (r *Reader) compactLen() (n int, ok bool) {
	if b := r.buf; r.off+1 < len(b) {
		if c := b[r.off]; c < 0x80 {
			r.off++
			return int(c) - 1, true
		} else if d := b[r.off+1]; d < 0x80 {
			r.off += 2
			return int(c&0x7f) | int(d)<<7 - 1, true
		}
	}
	return 0, false
}

// take returns the next n bytes, or nil after failing.
func (r *Reader) take(n int) []byte {
	if uint(n) <= uint(len(r.buf)-r.off) { // also rejects a negative n
		b := r.buf[r.off : r.off+n : r.off+n]
		r.off += n
		return b
	}
	r.takeFailed(n)
	return nil
}

func (r *Reader) takeFailed(n int) {
	if n < 0 {
		r.Fail(ErrInvalidLength, fmt.Sprintf("negative length %d", n))
		return
	}
	r.Fail(ErrShortBuffer, fmt.Sprintf("need %d bytes, have %d", n, len(r.buf)-r.off))
}

// stringBody reads n bytes of a string whose length started at offset start.
func (r *Reader) stringBody(n int, old string, start int) string {
	if n > MaxStringLen {
		r.off = start
		r.Fail(ErrInvalidLength, fmt.Sprintf("string length %d over %d", n, MaxStringLen))
		return ""
	}
	b := r.take(n)
	if len(b) == 0 {
		return ""
	}
	if r.alias {
		return unsafe.String(unsafe.SliceData(b), len(b))
	}
	if string(b) == old { // compares without allocating
		return old
	}
	return string(b)
}

// String reads a string that must not be null.
func (r *Reader) String(compact bool, old string) string {
	start := r.off
	n := r.length(compact, false)
	if n < 0 {
		if !r.Failed() {
			r.off = start
			r.Fail(ErrNull, "")
		}
		return ""
	}
	return r.stringBody(n, old, start)
}

// NullString reads a nullable string.
func (r *Reader) NullString(compact bool, old NullString) NullString {
	start := r.off
	n := r.length(compact, false)
	if n < 0 {
		return NullString{}
	}
	return NullString{Value: r.stringBody(n, old.Value, start), Valid: true}
}

func (r *Reader) bytesBody(n int, old []byte) []byte {
	if uint(n) > uint(len(r.buf)-r.off) {
		r.takeFailed(n)
		return nil
	}
	b := r.buf[r.off : r.off+n : r.off+n]
	r.off += n
	if r.alias {
		return b
	}
	return copyBytes(b, old)
}

// copyBytes copies b, into old's capacity when it fits.
func copyBytes(b, old []byte) []byte {
	n := len(b)
	if cap(old) >= n && old != nil {
		// Reuse the capacity, as vtprotobuf's generated code does: Decode
		// documents that byte slices held by m may be overwritten.
		return append(old[:0], b...)
	}
	out := make([]byte, n)
	copy(out, b)
	return out
}

// Bytes reads bytes or records that must not be null. An empty value is a
// non-nil empty slice.
func (r *Reader) Bytes(compact bool, old []byte) []byte {
	start := r.off
	n := r.length(compact, true)
	if n < 0 {
		if !r.Failed() {
			r.off = start
			r.Fail(ErrNull, "")
		}
		return nil
	}
	return r.bytesBody(n, old)
}

// QuickBytes is the inlined fast path of Bytes and NullBytes: a compact
// length of two bytes (values of 127 to 16382 bytes, record batches mostly)
// whose value is all there. It returns the value's window into the input.
// Anything else (not compact, null, a one-byte or longer length, a value past
// the end) returns ok false and consumes nothing: Bytes or NullBytes then
// reads it, and reports what is wrong.
func (r *Reader) QuickBytes(compact bool) (b []byte, ok bool) {
	b = r.buf[r.off:]
	if !compact || len(b) < 2 || b[0] < 0x80 || b[1] >= 0x80 {
		return nil, false
	}
	n := int(b[0]&0x7f) | int(b[1])<<7 - 1
	if uint(n) > uint(len(b)-2) {
		return nil, false
	}
	r.off += 2 + n
	return b[2 : 2+n : 2+n], true
}

// Keep returns a window of the input as the decode wants it: the window
// itself when aliasing, otherwise a copy into old's capacity.
func (r *Reader) Keep(b, old []byte) []byte {
	if r.alias {
		return b
	}
	return copyBytes(b, old)
}

// NullBytes reads nullable bytes or records; null is nil. Record batches
// usually take QuickBytes first (generated code tries it before this call).
func (r *Reader) NullBytes(compact bool, old []byte) []byte {
	n := r.length(compact, true)
	if n < 0 {
		return nil
	}
	return r.bytesBody(n, old)
}

// ArrayLen reads an array count. It returns -1 for null when nullable and
// fails otherwise. It fails when count × minElemSize (at least 1) exceeds
// the remaining bytes, before the caller allocates anything.
func (r *Reader) ArrayLen(compact, nullable bool, minElemSize int) int {
	start := r.off
	n := r.length(compact, true)
	if r.Failed() {
		return 0
	}
	if n < 0 {
		if !nullable {
			r.off = start
			r.Fail(ErrNull, "")
			return 0
		}
		return -1
	}
	if n*max(minElemSize, 1) > len(r.buf)-r.off {
		r.off = start
		r.Fail(ErrInvalidLength, fmt.Sprintf("array of %d elements, but only %d bytes remain", n, len(r.buf)-start))
		return 0
	}
	return n
}

// SmallArrayLen is ArrayLen's inlinable fast path for a compact count below
// 127: ok is false, and nothing is consumed, for any other input, which
// ArrayLen then reads.
func (r *Reader) SmallArrayLen(compact bool, minElemSize int) (n int, ok bool) {
	if compact && r.off < len(r.buf) {
		if c := int(r.buf[r.off]); c > 0 && c < 0x80 && (c-1)*minElemSize <= len(r.buf)-r.off-1 {
			r.off++
			return c - 1, true
		}
	}
	return 0, false
}

// StructMarker reads the int8 presence marker of a nullable struct:
// negative is null; any other value is present.
func (r *Reader) StructMarker() bool { return r.Int8() >= 0 }

// TaggedStructMarker reads the uvarint presence marker of a nullable tagged
// struct: zero (or negative, in Java's signed reading) is null.
func (r *Reader) TaggedStructMarker() bool { return int32(r.Uvarint()) > 0 }

// TagCount reads the number of tagged fields of a tag section.
func (r *Reader) TagCount() int {
	start := r.off
	n := int(int32(r.Uvarint()))
	if n < 0 || n*2 > len(r.buf)-r.off {
		if !r.Failed() {
			r.off = start
			r.Fail(ErrInvalidLength, fmt.Sprintf("%d tagged fields, but only %d bytes remain", n, len(r.buf)-r.off))
		}
		return 0
	}
	return n
}

// TagHeader reads a tagged field's tag and size.
func (r *Reader) TagHeader() (tag uint32, size int) {
	tag = r.Uvarint()
	start := r.off
	size = int(int32(r.Uvarint()))
	if size < 0 && !r.Failed() {
		r.off = start
		r.Fail(ErrInvalidLength, fmt.Sprintf("negative tagged field size %d", size))
	}
	if r.Failed() {
		return 0, 0
	}
	return tag, size
}

// InvalidTag fails for a known tag read at a version that does not have it.
func (r *Reader) InvalidTag(tag uint32, version int16) {
	r.Fail(ErrInvalidTag, fmt.Sprintf("tag %d is not valid for version %d", tag, version))
}

// UnknownTag appends the size bytes of an unknown tagged field to tags,
// reusing the capacity of tags.
func (r *Reader) UnknownTag(tags Tags, tag uint32, size int) Tags {
	var old []byte
	if len(tags) < cap(tags) {
		old = tags[: len(tags)+1 : len(tags)+1][len(tags)].Data
	}
	data := r.bytesBody(size, old)
	if r.Failed() {
		return tags
	}
	if data == nil {
		data = []byte{}
	}
	return append(tags, UnknownTag{Tag: tag, Data: data})
}

// EmptyTags consumes a tag section holding no tagged field (a single zero
// byte), the common case, and reports whether it did.
func (r *Reader) EmptyTags() bool {
	if r.off < len(r.buf) && r.buf[r.off] == 0 {
		r.off++
		return true
	}
	return false
}
