package records

// Next reads the next record into r, reporting false at the end or at an
// error.
func (rr *RecordReader) Next(r *Record) bool {
	// The records real producers write are read here, in line: v2 records
	// whose varints take one or two bytes (lengths under 8 KiB, deltas
	// within ±4096), whose header keys are not null, and whose headers fit
	// the room r.Headers has. Anything else, valid or not, goes to next and
	// its general decoder (decodeV2), which also finds every error, having
	// changed nothing but r: both always agree.
	//
	// This is the hot loop of reading, written out for the compiler: each
	// varint is one bounds check, one load and one test on its one-byte
	// path, its second byte read in place; lengths skip the zigzag
	// arithmetic (an even value is a length, 1 is -1). Reading is bound by
	// the number of instructions, so every byte string is cut from rec
	// (whose length and capacity are its end) after exactly the checks the
	// compiler needs to drop its own bounds checks and its guard against
	// an empty slice pointing past its array: a length above 0, the end
	// within rec, the start before the end. Empty strings take a path of
	// their own. No header and one header, the common cases, are read in
	// line; other counts by readHeaders.
	if rr.i < rr.fast {
		data, p := rr.data, rr.p
		if uint(p) >= uint(len(data)) {
			goto general
		}
		u, i := uint(data[p]), p+1
		if u >= 0x80 {
			if uint(i) >= uint(len(data)) || data[i] >= 0x80 {
				goto general
			}
			u, i = u&0x7f|uint(data[i])<<7, i+1
		}
		end := i + int(u>>1)
		if u&1 != 0 || uint(end) > uint(len(data)) {
			goto general
		}
		rec := data[:end:end]
		if uint(i) >= uint(len(rec)) {
			goto general
		}
		r.Size = end - p
		r.Attributes = int8(rec[i])
		i++

		// Timestamp and offset deltas.
		if uint(i) >= uint(len(rec)) {
			goto general
		}
		if u, i = uint(rec[i]), i+1; u >= 0x80 {
			if uint(i) >= uint(len(rec)) || rec[i] >= 0x80 {
				goto general
			}
			u, i = u&0x7f|uint(rec[i])<<7, i+1
		}
		r.TimestampDelta = int64(u>>1) ^ -int64(u&1)
		if uint(i) >= uint(len(rec)) {
			goto general
		}
		if u, i = uint(rec[i]), i+1; u >= 0x80 {
			if uint(i) >= uint(len(rec)) || rec[i] >= 0x80 {
				goto general
			}
			u, i = u&0x7f|uint(rec[i])<<7, i+1
		}
		r.OffsetDelta = int32(u>>1) ^ -int32(u&1)

		// Key and value.
		if uint(i) >= uint(len(rec)) {
			goto general
		}
		if u, i = uint(rec[i]), i+1; u >= 0x80 {
			if uint(i) >= uint(len(rec)) || rec[i] >= 0x80 {
				goto general
			}
			u, i = u&0x7f|uint(rec[i])<<7, i+1
		}
		if n, k := int(u>>1), i+int(u>>1); u&1 == 0 && n > 0 && uint(k) <= uint(len(rec)) && uint(i) < uint(k) {
			r.Key, i = rec[i:k:k], k
		} else if u == 1 {
			r.Key = nil
		} else if u == 0 {
			r.Key = rec[i:i:i]
		} else {
			goto general
		}
		if uint(i) >= uint(len(rec)) {
			goto general
		}
		if u, i = uint(rec[i]), i+1; u >= 0x80 {
			if uint(i) >= uint(len(rec)) || rec[i] >= 0x80 {
				goto general
			}
			u, i = u&0x7f|uint(rec[i])<<7, i+1
		}
		if n, k := int(u>>1), i+int(u>>1); u&1 == 0 && n > 0 && uint(k) <= uint(len(rec)) && uint(i) < uint(k) {
			r.Value, i = rec[i:k:k], k
		} else if u == 1 {
			r.Value = nil
		} else if u == 0 {
			r.Value = rec[i:i:i]
		} else {
			goto general
		}

		// Headers, into r.Headers' existing room.
		if uint(i) >= uint(len(rec)) {
			goto general
		}
		if u, i = uint(rec[i]), i+1; u >= 0x80 {
			if uint(i) >= uint(len(rec)) || rec[i] >= 0x80 {
				goto general
			}
			u, i = u&0x7f|uint(rec[i])<<7, i+1
		}
		if hs := r.Headers; u == 2 && len(hs) == 1 {
			// One header, in the room of the last record's one.
			h := &hs[0]
			if uint(i) >= uint(len(rec)) {
				goto general
			}
			if u, i = uint(rec[i]), i+1; u >= 0x80 {
				if uint(i) >= uint(len(rec)) || rec[i] >= 0x80 {
					goto general
				}
				u, i = u&0x7f|uint(rec[i])<<7, i+1
			}
			if n, k := int(u>>1), i+int(u>>1); u&1 == 0 && n > 0 && uint(k) <= uint(len(rec)) && uint(i) < uint(k) {
				h.Key, i = rec[i:k:k], k
			} else if u == 0 {
				h.Key = rec[i:i:i]
			} else {
				goto general // a null or negative header key
			}
			if uint(i) >= uint(len(rec)) {
				goto general
			}
			if u, i = uint(rec[i]), i+1; u >= 0x80 {
				if uint(i) >= uint(len(rec)) || rec[i] >= 0x80 {
					goto general
				}
				u, i = u&0x7f|uint(rec[i])<<7, i+1
			}
			if n, k := int(u>>1), i+int(u>>1); u&1 == 0 && n > 0 && uint(k) <= uint(len(rec)) && uint(i) < uint(k) {
				h.Value, i = rec[i:k:k], k
			} else if u == 1 {
				h.Value = nil
			} else if u == 0 {
				h.Value = rec[i:i:i]
			} else {
				goto general
			}
		} else if u == 0 {
			if len(hs) != 0 {
				r.Headers = hs[:0]
			}
		} else {
			if u&1 != 0 || u>>1 > uint(cap(hs)) {
				goto general
			}
			if len(hs) != int(u>>1) {
				hs = hs[:u>>1]
				r.Headers = hs
			}
			if i = readHeaders(rec, i, hs); i < 0 {
				goto general
			}
		}
		if i != end {
			goto general
		}
		offDelta := r.OffsetDelta
		r.Offset = rr.base + int64(offDelta)
		r.Timestamp = rr.tsBase + r.TimestampDelta&rr.tsMask
		r.Sequence = rr.sequence(offDelta)
		rr.p = end
		rr.i++
		return true
	}
general:
	return rr.next(r)
}

// readHeaders reads len(hs) headers from rec[i:] into hs for Next's fast
// path, returning the position after them or -1 for anything the fast path
// leaves to the general decoder.
func readHeaders(rec []byte, i int, hs []Header) int {
	for j := range hs {
		h := &hs[j]
		if uint(i) >= uint(len(rec)) {
			return -1
		}
		u := uint(rec[i])
		if i++; u >= 0x80 {
			if uint(i) >= uint(len(rec)) || rec[i] >= 0x80 {
				return -1
			}
			u, i = u&0x7f|uint(rec[i])<<7, i+1
		}
		if n, k := int(u>>1), i+int(u>>1); u&1 == 0 && n > 0 && uint(k) <= uint(len(rec)) && uint(i) < uint(k) {
			h.Key, i = rec[i:k:k], k
		} else if u == 0 {
			h.Key = rec[i:i:i]
		} else {
			return -1 // a null or negative header key
		}
		if uint(i) >= uint(len(rec)) {
			return -1
		}
		if u, i = uint(rec[i]), i+1; u >= 0x80 {
			if uint(i) >= uint(len(rec)) || rec[i] >= 0x80 {
				return -1
			}
			u, i = u&0x7f|uint(rec[i])<<7, i+1
		}
		if n, k := int(u>>1), i+int(u>>1); u&1 == 0 && n > 0 && uint(k) <= uint(len(rec)) && uint(i) < uint(k) {
			h.Value, i = rec[i:k:k], k
		} else if u == 1 {
			h.Value = nil
		} else if u == 0 {
			h.Value = rec[i:i:i]
		} else {
			return -1
		}
	}
	return i
}
