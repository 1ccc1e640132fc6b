package codec

// For generated code: how decoding reuses the memory of the message it
// decodes into, so that decoding a stream of messages into one allocates
// only what outgrows it.

// Grow returns s with length n, reusing its capacity and keeping the
// elements beyond its length (and what they hold) for reuse. A negative n,
// the count of a null array, returns nil.
func Grow[T any](s []T, n int) []T {
	if uint(n) <= uint(cap(s)) && s != nil {
		return s[:n]
	}
	return grow(s, n)
}

// grow is Grow for an s without the capacity, or a null or empty array.
func grow[T any](s []T, n int) []T {
	if n < 0 {
		return nil
	}
	if s == nil && n == 0 {
		return []T{} // non-nil: an empty array is not null
	}
	s = s[:cap(s)]
	return append(s, make([]T, n-len(s))...)
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
