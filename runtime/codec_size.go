package runtime

// For generated code: Size functions give the encoded length of one value,
// so that Size and AppendTo agree byte for byte.

// SizeUvarint is the encoded length of v.
func SizeUvarint(v uint32) int {
	switch {
	case v < 1<<7:
		return 1
	case v < 1<<14:
		return 2
	case v < 1<<21:
		return 3
	case v < 1<<28:
		return 4
	}
	return 5
}

// SizeString is the encoded size of a string of n bytes (n = -1: null).
func SizeString(n int, compact bool) int {
	if compact {
		return SizeUvarint(uint32(n+1)) + max(n, 0)
	}
	return 2 + max(n, 0)
}

// SizeNullString is the encoded size of a nullable string.
func SizeNullString(s NullString, compact bool) int {
	n := len(s.Value)
	if !s.Valid {
		n = -1
	}
	return SizeString(n, compact)
}

// SizeBytes is the encoded size of bytes or records of length n (n = -1: null).
func SizeBytes(n int, compact bool) int {
	if compact {
		return SizeUvarint(uint32(n+1)) + max(n, 0)
	}
	return 4 + max(n, 0)
}

// SizeNullBytes is the encoded size of nullable bytes (nil: null).
func SizeNullBytes(v []byte, compact bool) int {
	n := len(v)
	if v == nil {
		n = -1
	}
	return SizeBytes(n, compact)
}

// SizeArrayLen is the encoded size of an array count (n = -1: null).
func SizeArrayLen(n int, compact bool) int {
	if compact {
		return SizeUvarint(uint32(n + 1))
	}
	return 4
}
