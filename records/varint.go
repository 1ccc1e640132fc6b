package records

// Varints of v2 records: zigzag-encoded, at most 5 bytes for 32-bit fields
// and 10 for 64-bit ones (Kafka's ByteUtils.readVarint / readVarlong).

// readVarint reads a zigzag varint of at most max bytes from b[p:end]. It
// returns the value and the position after it; a position < 0 means the
// varint ran past end (-1) or past max bytes (-2). A one-byte varint takes
// an inlined path.
func readVarint(b []byte, p, end, max int) (int64, int) {
	if p < end {
		if c := b[p]; c < 0x80 {
			return int64(c>>1) ^ -int64(c&1), p + 1
		}
	}
	return readVarintSlow(b, p, end, max)
}

// varint1 reads the zigzag varint at b[p] if it is one byte long (below
// end): cheap enough to inline where readVarint is not.
func varint1(b []byte, p, end int) (int64, bool) {
	if p < end && p < len(b) && b[p] < 0x80 {
		c := b[p]
		return int64(c>>1) ^ -int64(c&1), true
	}
	return 0, false
}

// readVarintSlow is readVarint for any length, kept out of line so that
// readVarint inlines.
//
//go:noinline
func readVarintSlow(b []byte, p, end, max int) (int64, int) {
	if p+1 < end && p >= 0 && b[p+1] < 0x80 { // two bytes: lengths under 8 KiB
		u := uint64(b[p]&0x7f) | uint64(b[p+1])<<7
		return int64(u>>1) ^ -int64(u&1), p + 2
	}
	var u uint64
	var shift uint
	for i := 0; i < max; i++ {
		if p >= end {
			return 0, -1
		}
		c := b[p]
		p++
		u |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return int64(u>>1) ^ -int64(u&1), p
		}
		shift += 7
	}
	return 0, -2
}

// appendVarint appends v zigzag-encoded.
func appendVarint(dst []byte, v int64) []byte {
	u := uint64(v<<1) ^ uint64(v>>63)
	for u >= 0x80 {
		dst = append(dst, byte(u)|0x80)
		u >>= 7
	}
	return append(dst, byte(u))
}

// sizeVarint is the encoded size of v zigzag-encoded.
func sizeVarint(v int64) int {
	u := uint64(v<<1) ^ uint64(v>>63)
	n := 1
	for u >= 0x80 {
		u >>= 7
		n++
	}
	return n
}
