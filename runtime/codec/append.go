package codec

import (
	"encoding/binary"
	"math"

	"github.com/kafkagen/kafkagen/runtime"
)

// For generated code: Append functions write one value in Kafka's
// big-endian wire format at the end of a buffer and return it, as append does.

// AppendBool writes a bool as one byte, 1 or 0.
func AppendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// Bool8 is a bool as Kafka writes it, for runs of fixed-width fields
// written into a slice from Extend.
func Bool8(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// AppendInt8 writes an int8 as one byte.
func AppendInt8(b []byte, v int8) []byte { return append(b, byte(v)) }

// AppendInt16 writes an int16, big-endian.
func AppendInt16(b []byte, v int16) []byte { return binary.BigEndian.AppendUint16(b, uint16(v)) }

// AppendUint16 writes a uint16, big-endian.
func AppendUint16(b []byte, v uint16) []byte { return binary.BigEndian.AppendUint16(b, v) }

// AppendInt32 writes an int32, big-endian.
func AppendInt32(b []byte, v int32) []byte { return binary.BigEndian.AppendUint32(b, uint32(v)) }

// AppendUint32 writes a uint32, big-endian.
func AppendUint32(b []byte, v uint32) []byte { return binary.BigEndian.AppendUint32(b, v) }

// AppendInt64 writes an int64, big-endian.
func AppendInt64(b []byte, v int64) []byte { return binary.BigEndian.AppendUint64(b, uint64(v)) }

// AppendUUID writes the 16 bytes of a UUID.
func AppendUUID(b []byte, v runtime.UUID) []byte { return append(b, v[:]...) }

// AppendFloat64 writes the IEEE-754 bits unchanged, as Java's
// doubleToRawLongBits does (NaN payloads are kept).
func AppendFloat64(b []byte, v float64) []byte {
	return binary.BigEndian.AppendUint64(b, math.Float64bits(v))
}

// appendLen writes a length of a string (int16), bytes or records (int32) or
// an array count (int32), or its compact form (uvarint n+1). n = -1 is null.
// wide selects int32 over int16 in the non-compact form.
//
//go:noinline
func appendLen(b []byte, n int, l Lengths, wide bool) []byte {
	switch {
	case l == Compact:
		return binary.AppendUvarint(b, uint64(n+1))
	case wide:
		return AppendInt32(b, int32(n))
	default:
		return AppendInt16(b, int16(n))
	}
}

// AppendString writes a non-null string. The caller checks the length limit.
// A Compact string under 127 bytes is written inline; the rest by a call.
func AppendString(b []byte, s string, l Lengths) []byte {
	if l && len(s) < 0x7f { // l: Compact (written so, the call stays inlinable)
		return append(append(b, byte(len(s)+1)), s...)
	}
	return appendString(b, s, l)
}

//go:noinline
func appendString(b []byte, s string, l Lengths) []byte {
	b = appendLen(b, len(s), l, false)
	return append(b, s...)
}

// AppendNullString writes a nullable string.
func AppendNullString(b []byte, s runtime.NullString, l Lengths) []byte {
	if !s.Valid {
		return appendLen(b, -1, l, false)
	}
	return AppendString(b, s.Value, l)
}

// AppendBytes writes bytes or records; nil is written as empty.
func AppendBytes(b []byte, v []byte, l Lengths) []byte {
	b = appendLen(b, len(v), l, true)
	return append(b, v...)
}

// AppendNullBytes writes nullable bytes or records; nil is null.
func AppendNullBytes(b []byte, v []byte, l Lengths) []byte {
	if v == nil {
		return appendLen(b, -1, l, true)
	}
	return AppendBytes(b, v, l)
}

// AppendArrayLen writes an array count; n = -1 is null. A Compact count
// under 127 is written inline; the rest by a call.
func AppendArrayLen(b []byte, n int, l Lengths) []byte {
	if l && uint(n+1) < 0x80 { // l: Compact (written so, the call stays inlinable)
		return append(b, byte(n+1))
	}
	return appendLen(b, n, l, true)
}

// Extend lengthens b by n bytes and returns it with the new bytes, for
// generated code writing a run of fixed-width fields with one capacity
// check. AppendTo has sized the buffer, so the growth path is cold.
func Extend(b []byte, n int) ([]byte, []byte) {
	l := len(b)
	if cap(b)-l < n {
		b = extendSlow(b, n)
	}
	b = b[:l+n]
	return b, b[l:]
}

func extendSlow(b []byte, n int) []byte {
	return append(b, make([]byte, n)...)[:len(b)]
}
