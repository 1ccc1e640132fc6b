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
	// This is the hot loop of reading, written out for the compiler (a
	// call per record to a decoder costs 6%): each varint is one bounds
	// check, one load and one test on its one-byte path, its second byte
	// read in place (a helper's return values would be merged and tested
	// again), lengths skip the zigzag arithmetic (an even value is a
	// length, 1 is -1), and every slice is cut from rec, whose length
	// bounds it.
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
		if u&1 != 0 || u < 6<<1 || end > len(data) {
			goto general
		}
		rec := data[:end]
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
		if k := i + int(u>>1); u&1 == 0 && k <= len(rec) {
			r.Key, i = rec[i:k:k], k
		} else if u == 1 {
			r.Key = nil
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
		if k := i + int(u>>1); u&1 == 0 && k <= len(rec) {
			r.Value, i = rec[i:k:k], k
		} else if u == 1 {
			r.Value = nil
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
		hs := r.Headers
		if u&1 != 0 || u>>1 > uint(cap(hs)) {
			goto general
		}
		if len(hs) != int(u>>1) {
			hs = hs[:u>>1]
			r.Headers = hs // most batches keep one count: store it once
		}
		for j := range hs {
			h := &hs[j]
			if uint(i) >= uint(len(rec)) {
				goto general
			}
			if u, i = uint(rec[i]), i+1; u >= 0x80 {
				if uint(i) >= uint(len(rec)) || rec[i] >= 0x80 {
					goto general
				}
				u, i = u&0x7f|uint(rec[i])<<7, i+1
			}
			if k := i + int(u>>1); u&1 == 0 && k <= len(rec) {
				h.Key, i = rec[i:k:k], k
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
			if k := i + int(u>>1); u&1 == 0 && k <= len(rec) {
				h.Value, i = rec[i:k:k], k
			} else if u == 1 {
				h.Value = nil
			} else {
				goto general
			}
		}
		if i != end {
			goto general
		}
		r.Offset = rr.base + int64(r.OffsetDelta)
		r.Timestamp = rr.tsBase + r.TimestampDelta&rr.tsMask
		r.Sequence = NoSequence
		if rr.baseSeq >= 0 {
			r.Sequence = addSequence(rr.baseSeq, r.OffsetDelta)
		}
		rr.p = end
		rr.i++
		return true
	}
general:
	return rr.next(r)
}
