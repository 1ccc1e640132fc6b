package records

// decodeV2Fast is decodeV2 for the records real producers write: varints
// of one or two bytes (lengths under 8 KiB, deltas within ±4096), a
// non-null header key, and no more headers than r.Headers has room for.
// It returns ok false, having changed nothing but r, for anything else,
// valid or not: decodeV2 then reads that record and finds its errors, so
// both always agree.
//
// It is the hot loop of reading, written out for the compiler: each varint
// is one bounds check, one load and one test on its one-byte path, its
// second byte read in place (a helper's return values would be merged and
// tested again), lengths skip the zigzag arithmetic (an even value is a
// length, 1 is -1), and every slice is cut from rec, whose length bounds
// it. Helpers that do not inline cost more than the repetition.
func (r *Record) decodeV2Fast(data []byte, p int) (next int, ok bool) {
	if uint(p) >= uint(len(data)) {
		return 0, false
	}
	u, i := uint(data[p]), p+1
	if u >= 0x80 {
		if uint(i) >= uint(len(data)) || data[i] >= 0x80 {
			return 0, false
		}
		u, i = u&0x7f|uint(data[i])<<7, i+1
	}
	end := i + int(u>>1)
	if u&1 != 0 || u < 6<<1 || end > len(data) {
		return 0, false
	}
	rec := data[:end]
	r.Size = end - p
	r.Attributes = int8(rec[i])
	i++

	// Timestamp and offset deltas.
	if uint(i) >= uint(len(rec)) {
		return 0, false
	}
	if u, i = uint(rec[i]), i+1; u >= 0x80 {
		if uint(i) >= uint(len(rec)) || rec[i] >= 0x80 {
			return 0, false
		}
		u, i = u&0x7f|uint(rec[i])<<7, i+1
	}
	r.TimestampDelta = int64(u>>1) ^ -int64(u&1)
	if uint(i) >= uint(len(rec)) {
		return 0, false
	}
	if u, i = uint(rec[i]), i+1; u >= 0x80 {
		if uint(i) >= uint(len(rec)) || rec[i] >= 0x80 {
			return 0, false
		}
		u, i = u&0x7f|uint(rec[i])<<7, i+1
	}
	r.OffsetDelta = int32(u>>1) ^ -int32(u&1)

	// Key and value.
	if uint(i) >= uint(len(rec)) {
		return 0, false
	}
	if u, i = uint(rec[i]), i+1; u >= 0x80 {
		if uint(i) >= uint(len(rec)) || rec[i] >= 0x80 {
			return 0, false
		}
		u, i = u&0x7f|uint(rec[i])<<7, i+1
	}
	if k := i + int(u>>1); u&1 == 0 && k <= len(rec) {
		r.Key, i = rec[i:k:k], k
	} else if u == 1 {
		r.Key = nil
	} else {
		return 0, false
	}
	if uint(i) >= uint(len(rec)) {
		return 0, false
	}
	if u, i = uint(rec[i]), i+1; u >= 0x80 {
		if uint(i) >= uint(len(rec)) || rec[i] >= 0x80 {
			return 0, false
		}
		u, i = u&0x7f|uint(rec[i])<<7, i+1
	}
	if k := i + int(u>>1); u&1 == 0 && k <= len(rec) {
		r.Value, i = rec[i:k:k], k
	} else if u == 1 {
		r.Value = nil
	} else {
		return 0, false
	}

	// Headers, into r.Headers' existing room.
	if uint(i) >= uint(len(rec)) {
		return 0, false
	}
	if u, i = uint(rec[i]), i+1; u >= 0x80 {
		if uint(i) >= uint(len(rec)) || rec[i] >= 0x80 {
			return 0, false
		}
		u, i = u&0x7f|uint(rec[i])<<7, i+1
	}
	if u&1 != 0 || u>>1 > uint(cap(r.Headers)) {
		return 0, false
	}
	if len(r.Headers) != int(u>>1) {
		r.Headers = r.Headers[:u>>1] // most batches keep one count: store it once
	}
	hs := r.Headers
	for j := range hs {
		h := &hs[j]
		if uint(i) >= uint(len(rec)) {
			return 0, false
		}
		if u, i = uint(rec[i]), i+1; u >= 0x80 {
			if uint(i) >= uint(len(rec)) || rec[i] >= 0x80 {
				return 0, false
			}
			u, i = u&0x7f|uint(rec[i])<<7, i+1
		}
		if k := i + int(u>>1); u&1 == 0 && k <= len(rec) {
			h.Key, i = rec[i:k:k], k
		} else {
			return 0, false // a null or negative header key
		}
		if uint(i) >= uint(len(rec)) {
			return 0, false
		}
		if u, i = uint(rec[i]), i+1; u >= 0x80 {
			if uint(i) >= uint(len(rec)) || rec[i] >= 0x80 {
				return 0, false
			}
			u, i = u&0x7f|uint(rec[i])<<7, i+1
		}
		if k := i + int(u>>1); u&1 == 0 && k <= len(rec) {
			h.Value, i = rec[i:k:k], k
		} else if u == 1 {
			h.Value = nil
		} else {
			return 0, false
		}
	}
	if i != end {
		return 0, false
	}
	return end, true
}
