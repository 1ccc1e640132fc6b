package runtime

import (
	"encoding/binary"
	"fmt"
	"math"
)

// For generated code: the Reader, its failure bookkeeping and its fixed-width
// reads; lengths, strings, bytes, arrays and tags are in codec_reader_lengths.go.

// Reader decodes Kafka's wire format from a byte slice for generated Decode
// methods (users call Decode, not the Reader). Its error is sticky:
// after the first failure every read returns a zero value, and generated code
// checks Failed after each field to stop early and name the field.
type Reader struct {
	buf   []byte
	off   int
	alias bool
	// bad is set by the first failure. A short read only records where it
	// happened (shortAt, need) so that the primitive readers stay small
	// enough to be inlined; Finish turns that into an error.
	bad     bool
	shortAt int
	need    int
	err     *Error
	path    []string // field names, innermost first, gathered while unwinding
}

// Init prepares r to read src. With alias, strings and byte slices point
// into src instead of being copied.
func (r *Reader) Init(src []byte, alias bool) {
	*r = Reader{buf: src, alias: alias}
}

// Offset is the number of bytes consumed so far.
func (r *Reader) Offset() int { return r.off }

// Remaining is the number of bytes left.
func (r *Reader) Remaining() int { return len(r.buf) - r.off }

// Failed reports whether a read has failed.
func (r *Reader) Failed() bool { return r.bad }

// Fail records err (the first failure wins) at the current offset.
func (r *Reader) Fail(err error, detail string) {
	if !r.bad {
		r.bad = true
		r.err = &Error{Op: "decode", Offset: r.off, Err: err, Detail: detail}
	}
	r.off = len(r.buf) // later reads fail fast
}

// short records a read of n bytes past the end of the input.
func (r *Reader) short(n int) {
	if !r.bad {
		r.bad, r.shortAt, r.need = true, r.off, n
	}
}

// Within records that the failure happened inside field; generated code calls
// it while unwinding, innermost field first.
func (r *Reader) Within(field string) { r.path = append(r.path, field) }

// WithinElem records that the failure happened inside element i of an array field.
func (r *Reader) WithinElem(field string, i int) {
	r.path = append(r.path, fmt.Sprintf("%s[%d]", field, i))
}

// Finish returns the bytes consumed and, after a failure, the error naming the
// message, the field path and the offset.
func (r *Reader) Finish(message string, version int16) (int, error) {
	if !r.bad {
		return r.off, nil
	}
	e := r.err
	if e == nil {
		e = &Error{Op: "decode", Offset: r.shortAt, Err: ErrShortBuffer,
			Detail: fmt.Sprintf("need %d bytes, have %d", r.need, len(r.buf)-r.shortAt)}
	}
	e.Message, e.Version = message, version
	for i := len(r.path) - 1; i >= 0; i-- {
		if e.Field != "" {
			e.Field += "."
		}
		e.Field += r.path[i]
	}
	return e.Offset, e
}

// Bool reads a bool: any non-zero byte is true, as in Java.
func (r *Reader) Bool() bool {
	if r.off >= len(r.buf) {
		if !r.bad {
			r.bad, r.shortAt, r.need = true, r.off, 1
		}
		return false
	}
	v := r.buf[r.off] != 0 // Java: any non-zero byte is true
	r.off++
	return v
}

// Int8 reads one byte as an int8.
func (r *Reader) Int8() int8 {
	if r.off >= len(r.buf) {
		if !r.bad {
			r.bad, r.shortAt, r.need = true, r.off, 1
		}
		return 0
	}
	v := int8(r.buf[r.off])
	r.off++
	return v
}

// Int16 reads a big-endian int16.
func (r *Reader) Int16() int16 {
	if len(r.buf)-r.off < 2 {
		if !r.bad {
			r.bad, r.shortAt, r.need = true, r.off, 2
		}
		return 0
	}
	v := binary.BigEndian.Uint16(r.buf[r.off:])
	r.off += 2
	return int16(v)
}

// Uint16 reads a big-endian uint16.
func (r *Reader) Uint16() uint16 { return uint16(r.Int16()) }

// Int32 reads a big-endian int32.
func (r *Reader) Int32() int32 {
	if len(r.buf)-r.off < 4 {
		if !r.bad {
			r.bad, r.shortAt, r.need = true, r.off, 4
		}
		return 0
	}
	v := binary.BigEndian.Uint32(r.buf[r.off:])
	r.off += 4
	return int32(v)
}

// Uint32 reads a big-endian uint32.
func (r *Reader) Uint32() uint32 { return uint32(r.Int32()) }

// Int64 reads a big-endian int64.
func (r *Reader) Int64() int64 {
	if len(r.buf)-r.off < 8 {
		if !r.bad {
			r.bad, r.shortAt, r.need = true, r.off, 8
		}
		return 0
	}
	v := binary.BigEndian.Uint64(r.buf[r.off:])
	r.off += 8
	return int64(v)
}

// Float64 reads the IEEE-754 bits of a float64, NaN payloads kept.
func (r *Reader) Float64() float64 { return math.Float64frombits(uint64(r.Int64())) }

// UUID reads the 16 bytes of a UUID.
func (r *Reader) UUID() UUID {
	var u UUID
	if len(r.buf)-r.off < 16 {
		r.short(16)
		return u
	}
	copy(u[:], r.buf[r.off:])
	r.off += 16
	return u
}

// Uvarint reads an unsigned varint with Java's tolerance: a fifth byte
// without its continuation bit is accepted and its high bits dropped.
func (r *Reader) Uvarint() uint32 {
	var v uint32
	for shift := uint(0); shift < 35; shift += 7 {
		if r.off >= len(r.buf) {
			r.short(1)
			return 0
		}
		b := r.buf[r.off]
		r.off++
		if b < 0x80 {
			return v | uint32(b)<<shift
		}
		if shift == 28 {
			r.off--
			r.Fail(ErrMalformedVarint, "")
			return 0
		}
		v |= uint32(b&0x7f) << shift
	}
	return v
}

// Fixed returns the next n bytes and consumes them, or nil without failing
// when fewer remain: generated code reads a run of fixed-width fields from
// it with one bounds check, and calls FailRun on nil.
func (r *Reader) Fixed(n int) []byte {
	if len(r.buf)-r.off < n {
		return nil
	}
	p := r.buf[r.off : r.off+n : r.off+n]
	r.off += n
	return p
}

// FailRun fails a run of fixed-width fields that Fixed could not return:
// ends are the fields' end offsets within the run, names their spec names.
// The error names the first field that does not fit, at its offset.
func (r *Reader) FailRun(ends []int, names []string) {
	rem := len(r.buf) - r.off
	start := 0
	for i, end := range ends {
		if end > rem {
			r.off += start
			r.short(end - start)
			r.Within(names[i])
			return
		}
		start = end
	}
}

// Grow returns s with length n, reusing its capacity and keeping the
// elements beyond its length (and what they hold) for reuse. A negative n,
// the count of a null array, returns nil.
func Grow[T any](s []T, n int) []T {
	if uint(n) <= uint(cap(s)) && s != nil {
		return s[:n]
	}
	return grow(s, n)
}

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
