package records

// Varints of v2 records: zigzag-encoded, at most 5 bytes for 32-bit fields
// and 10 for 64-bit ones (Kafka's ByteUtils.readVarint / readVarlong).

// readVarint reads a zigzag varint of at most max bytes from b[p:end]. It
// returns the value and the position after it; a position < 0 means the
// varint ran past end (-1) or past max bytes (-2).
func readVarint(b []byte, p, end, max int) (int64, int) {
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

// zigzag encodes v as varints of v2 records store it.
func zigzag(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

// putUvarint writes u at b[i:], which has room for it, and returns the
// position after it. Short enough to inline everywhere.
func putUvarint(b []byte, i int, u uint64) int {
	for u >= 0x80 {
		b[i] = byte(u) | 0x80
		u >>= 7
		i++
	}
	b[i] = byte(u)
	return i + 1
}
