package codec

import (
	"math/bits"

	"github.com/kafkagen/kafkagen/runtime"
)

// For generated code: Size functions give the encoded length of one value,
// so that Size and AppendTo agree byte for byte. Those of length-prefixed
// values are not inlined: sizes are computed once per encode into a buffer
// without room, where a smaller size method is worth a call.

// SizeUvarint is the encoded length of v as an unsigned varint (7 bits a
// byte): encoding/binary has the writer and the reader, not the size.
func SizeUvarint(v uint64) int { return (bits.Len64(v|1)*9 + 64) / 64 }

// SizeString is the encoded size of a string of n bytes (n = -1: null).
//
//go:noinline
func SizeString(n int, l Lengths) int {
	if l == Compact {
		return SizeUvarint(uint64(n+1)) + max(n, 0)
	}
	return 2 + max(n, 0)
}

// SizeNullString is the encoded size of a nullable string.
//
//go:noinline
func SizeNullString(s runtime.NullString, l Lengths) int {
	if !s.Valid {
		return SizeString(-1, l)
	}
	return SizeString(len(s.Value), l)
}

// SizeBytes is the encoded size of bytes or records of length n (n = -1: null).
//
//go:noinline
func SizeBytes(n int, l Lengths) int {
	if l == Compact {
		return SizeUvarint(uint64(n+1)) + max(n, 0)
	}
	return 4 + max(n, 0)
}

// SizeNullBytes is the encoded size of nullable bytes (nil: null).
//
//go:noinline
func SizeNullBytes(v []byte, l Lengths) int {
	if v == nil {
		return SizeBytes(-1, l)
	}
	return SizeBytes(len(v), l)
}

// SizeArrayLen is the encoded size of an array count (n = -1: null).
//
//go:noinline
func SizeArrayLen(n int, l Lengths) int {
	if l == Compact {
		return SizeUvarint(uint64(n + 1))
	}
	return 4
}

// SizeTagSection is the encoded size of a tag section holding only the
// tags t: one byte when there are none, the common case.
//
//go:noinline
func SizeTagSection(t runtime.Tags) int {
	if len(t) == 0 {
		return 1
	}
	return SizeUvarint(uint64(len(t))) + TagsSize(t)
}
