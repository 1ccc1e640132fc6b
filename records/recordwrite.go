package records

import "github.com/kafkagen/kafkagen/runtime/codec"

// add appends a record to the batch, keeping its timestamps.
//
// Building is bound by instructions, and a call makes the caller save its
// live registers, so the common record is written here without one: its
// strings add up to at most maxInlineStrings bytes (each length then
// takes one or two bytes), it has fewer than 64 headers, and b.buf has
// room for it. Its body is written after room for a two-byte length, and
// moves back a byte for a one-byte length (bodies under 64 bytes). Strings
// move in 4-, 8- and 16-byte words, the last one overlapping the one
// before. Any other record is written by addSlow, called as add's last act
// so that nothing add holds lives across it.
func (b *BatchBuilder) add(delta int32, ts int64, key, value []byte, headers []Header) {
	strs := len(key) + len(value)
	for j := range headers {
		strs += len(headers[j].Key) + len(headers[j].Value)
	}
	// The length slot, attributes, deltas (10 and 5 bytes at most),
	// lengths (two bytes each), the header count, and 15 bytes the last
	// 16-byte word of a moved body may read past it.
	bound := 40 + strs + 4*len(headers)
	if strs > maxInlineStrings || len(headers) >= 64 || cap(b.buf)-len(b.buf) < bound {
		b.addSlow(delta, ts, key, value, headers)
		return
	}
	tsDelta := b.stamp(delta, ts)
	n := len(b.buf)
	w := b.buf[n : n+bound : n+bound]
	w[2] = 0 // attributes
	i := putVarint(w, 3, tsDelta)
	i = putVarint(w, i, zigzag(int64(delta)))
	// The four strings are written by the same code, written out each
	// time: as a function it is too big to inline (a call would save every
	// live register), and as a loop over the strings its state spills
	// (a fifth more instructions per record, measured with Valgrind).
	if key == nil {
		w[i] = 1 // zigzag -1
		i++
	} else if l := len(key); l == 0 {
		w[i] = 0
		i++
	} else {
		if l < 64 {
			w[i] = byte(l << 1)
			i++
		} else {
			w[i], w[i+1] = byte(l<<1)|0x80, byte(l>>6)
			i += 2
		}
		d := w[i : i+l : i+l]
		i += l
		switch {
		case l > 16:
			for o := 0; o < l-16; o += 16 {
				*(*[16]byte)(d[o:]) = [16]byte(key[o:])
			}
			*(*[16]byte)(d[l-16:]) = [16]byte(key[l-16:])
		case l >= 8:
			*(*[8]byte)(d) = [8]byte(key)
			*(*[8]byte)(d[l-8:]) = [8]byte(key[l-8:])
		case l >= 4:
			*(*[4]byte)(d) = [4]byte(key)
			*(*[4]byte)(d[l-4:]) = [4]byte(key[l-4:])
		default:
			d[0], d[l/2], d[l-1] = key[0], key[l/2], key[l-1]
		}
	}
	if value == nil {
		w[i] = 1 // zigzag -1
		i++
	} else if l := len(value); l == 0 {
		w[i] = 0
		i++
	} else {
		if l < 64 {
			w[i] = byte(l << 1)
			i++
		} else {
			w[i], w[i+1] = byte(l<<1)|0x80, byte(l>>6)
			i += 2
		}
		d := w[i : i+l : i+l]
		i += l
		switch {
		case l > 16:
			for o := 0; o < l-16; o += 16 {
				*(*[16]byte)(d[o:]) = [16]byte(value[o:])
			}
			*(*[16]byte)(d[l-16:]) = [16]byte(value[l-16:])
		case l >= 8:
			*(*[8]byte)(d) = [8]byte(value)
			*(*[8]byte)(d[l-8:]) = [8]byte(value[l-8:])
		case l >= 4:
			*(*[4]byte)(d) = [4]byte(value)
			*(*[4]byte)(d[l-4:]) = [4]byte(value[l-4:])
		default:
			d[0], d[l/2], d[l-1] = value[0], value[l/2], value[l-1]
		}
	}
	w[i] = byte(len(headers) << 1)
	i++
	for j := range headers {
		hk, hv := headers[j].Key, headers[j].Value
		if hk == nil {
			w[i] = 1 // zigzag -1
			i++
		} else if l := len(hk); l == 0 {
			w[i] = 0
			i++
		} else {
			if l < 64 {
				w[i] = byte(l << 1)
				i++
			} else {
				w[i], w[i+1] = byte(l<<1)|0x80, byte(l>>6)
				i += 2
			}
			d := w[i : i+l : i+l]
			i += l
			switch {
			case l > 16:
				for o := 0; o < l-16; o += 16 {
					*(*[16]byte)(d[o:]) = [16]byte(hk[o:])
				}
				*(*[16]byte)(d[l-16:]) = [16]byte(hk[l-16:])
			case l >= 8:
				*(*[8]byte)(d) = [8]byte(hk)
				*(*[8]byte)(d[l-8:]) = [8]byte(hk[l-8:])
			case l >= 4:
				*(*[4]byte)(d) = [4]byte(hk)
				*(*[4]byte)(d[l-4:]) = [4]byte(hk[l-4:])
			default:
				d[0], d[l/2], d[l-1] = hk[0], hk[l/2], hk[l-1]
			}
		}
		if hv == nil {
			w[i] = 1 // zigzag -1
			i++
		} else if l := len(hv); l == 0 {
			w[i] = 0
			i++
		} else {
			if l < 64 {
				w[i] = byte(l << 1)
				i++
			} else {
				w[i], w[i+1] = byte(l<<1)|0x80, byte(l>>6)
				i += 2
			}
			d := w[i : i+l : i+l]
			i += l
			switch {
			case l > 16:
				for o := 0; o < l-16; o += 16 {
					*(*[16]byte)(d[o:]) = [16]byte(hv[o:])
				}
				*(*[16]byte)(d[l-16:]) = [16]byte(hv[l-16:])
			case l >= 8:
				*(*[8]byte)(d) = [8]byte(hv)
				*(*[8]byte)(d[l-8:]) = [8]byte(hv[l-8:])
			case l >= 4:
				*(*[4]byte)(d) = [4]byte(hv)
				*(*[4]byte)(d[l-4:]) = [4]byte(hv[l-4:])
			default:
				d[0], d[l/2], d[l-1] = hv[0], hv[l/2], hv[l-1]
			}
		}
	}
	if body := i - 2; body >= 64 {
		w[0], w[1] = byte(body<<1)|0x80, byte(body>>6) // body < 8192
	} else {
		w[0] = byte(body << 1)
		for o := 0; o < body; o += 16 {
			*(*[16]byte)(w[1+o:]) = [16]byte(w[2+o:])
		}
		i--
	}
	b.buf = b.buf[:n+i] // only the length changes: one store
}

// maxInlineStrings bounds the strings of a record add writes itself.
const maxInlineStrings = 4096

// stamp counts a record at offset delta with timestamp ts into the
// batch's last offset delta and timestamps, and returns its zigzag
// timestamp delta.
func (b *BatchBuilder) stamp(delta int32, ts int64) uint64 {
	if b.count == 0 {
		b.baseTime, b.maxTime = ts, ts
		if b.DeleteHorizonMs != NoTimestamp {
			b.baseTime = b.DeleteHorizonMs
		}
	}
	b.maxTime = max(b.maxTime, ts)
	b.lastDelta = delta
	b.count++
	return zigzag(ts - b.baseTime)
}

// addSlow is add for any record: its size computed first, b.buf grown to
// it, each string copied.
//
//go:noinline
func (b *BatchBuilder) addSlow(delta int32, ts int64, key, value []byte, headers []Header) {
	tsDelta := b.stamp(delta, ts)
	offsetDelta := zigzag(int64(delta))
	body := 1 + codec.SizeUvarint(tsDelta) + codec.SizeUvarint(offsetDelta) + stringSize(key) + stringSize(value) +
		codec.SizeUvarint(uint64(len(headers))<<1)
	for j := range headers {
		body += stringSize(headers[j].Key) + stringSize(headers[j].Value)
	}
	n := len(b.buf)
	b.buf = grow(b.buf, codec.SizeUvarint(uint64(body)<<1)+body)
	w := b.buf[n:cap(b.buf)]
	i := putUvarint(w, 0, uint64(body)<<1)
	w[i] = 0 // attributes
	i = putUvarint(w, i+1, tsDelta)
	i = putUvarint(w, i, offsetDelta)
	i = putString(w, i, key)
	i = putString(w, i, value)
	i = putUvarint(w, i, uint64(len(headers))<<1)
	for j := range headers {
		i = putString(w, i, headers[j].Key)
		i = putString(w, i, headers[j].Value)
	}
	b.buf = b.buf[:n+i]
}

// stringSize is the encoded size of v: its varint length (-1 for nil) and
// its bytes.
func stringSize(v []byte) int {
	if v == nil {
		return 1
	}
	return codec.SizeUvarint(uint64(len(v))<<1) + len(v)
}

// putString writes v at w[i:] with its varint length (-1 for nil) and
// returns the position after it.
func putString(w []byte, i int, v []byte) int {
	if v == nil {
		return putUvarint(w, i, 1) // zigzag -1
	}
	i = putUvarint(w, i, uint64(len(v))<<1)
	return i + copy(w[i:], v)
}

// putVarint writes u at w[i:] as putUvarint does, one- and two-byte
// values in line.
func putVarint(w []byte, i int, u uint64) int {
	if u < 0x80 {
		w[i] = byte(u)
		return i + 1
	}
	if u < 0x4000 {
		w[i], w[i+1] = byte(u)|0x80, byte(u>>7)
		return i + 2
	}
	return putUvarint(w, i, u)
}

// appendRecord appends one v2 record with the given deltas (for a
// record outside a BatchBuilder, such as a transaction marker's).
func appendRecord(dst []byte, offsetDelta int32, timestampDelta int64, key, value []byte, headers []Header) []byte {
	b := BatchBuilder{buf: dst, count: 1} // not a first record: ts - baseTime is timestampDelta
	b.add(offsetDelta, timestampDelta, key, value, headers)
	return b.buf
}
