package codec

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/kafkagen/kafkagen/runtime"
)

// For generated code: the Decoder, its failure bookkeeping and its
// fixed-width reads; lengths, strings, bytes, arrays and tag sections are in
// codec_decoder_lengths.go.

// Decoder reads Kafka's wire format from a byte slice for generated decode
// methods (users call Decode, not the Decoder).
//
// The read offset is not kept in the Decoder: every read takes the offset to
// read at and returns the offset after what it read, so that generated code
// keeps it in a register while it walks a message. A failed read records
// the first failure (what, where, and the spec name of the field being
// read) and returns an offset past the end of any input, at which every
// later read fails too without recording anything; generated code therefore
// checks Failed only where it must stop (after an array element) or name an
// enclosing field, and unwinds with one WithinElem or Within call there.
type Decoder struct {
	buf   []byte
	alias bool
	// bad is set by the first failure, which happened at offset at while
	// reading field. A short read only records how many bytes it needed
	// (need), so that the fixed-width reads stay small enough to be
	// inlined; Finish builds its error. Other failures build err at once.
	bad   bool
	at    int
	need  int
	field string
	err   *runtime.Error
	path  []string // enclosing fields, innermost first, gathered while unwinding
}

// stopped is the offset a failed read returns: past the end of any input,
// so that every later read fails at once.
const stopped = math.MaxInt

// Init prepares d to decode src, copying strings and byte slices out of it.
func (d *Decoder) Init(src []byte) { *d = Decoder{buf: src} }

// InitAliased prepares d to decode src with strings and byte slices pointing
// into src.
func (d *Decoder) InitAliased(src []byte) { *d = Decoder{buf: src, alias: true} }

// Failed reports whether a read has failed.
func (d *Decoder) Failed() bool { return d.bad }

// fail records the first failure: err at offset at, while reading field
// (a spec field name, or "" for the struct itself). It returns the offset
// every read returns after a failure.
//
//go:noinline
func (d *Decoder) fail(at int, field string, err error, detail string) int {
	if !d.bad {
		d.bad, d.at, d.field = true, at, field
		d.err = &runtime.Error{Op: "decode", Offset: at, Err: err, Detail: detail}
	}
	return stopped
}

// short fails a read of need bytes at offset at.
func (d *Decoder) short(at, need int, field string) int {
	if !d.bad {
		d.bad, d.at, d.need, d.field = true, at, need, field
	}
	return stopped
}

// Within names field as enclosing a failure: generated code calls it when
// a struct decoded in place of field reports a failure. start is the offset
// the struct was read at and end what its decode returned, which Within
// returns; a failure that happened before start (the struct was then never
// really read) is left alone.
func (d *Decoder) Within(start, end int, field string) int {
	if d.bad && start != stopped {
		d.path = append(d.path, field)
	}
	return end
}

// WithinElem names element i of the array field as enclosing a failure;
// generated code calls it when an element's decode fails, and returns.
//
//go:noinline
func (d *Decoder) WithinElem(field string, i int) {
	d.path = append(d.path, fmt.Sprintf("%s[%d]", field, i))
}

// Finish returns the bytes read (end, the offset the message's decode
// returned) or, after a failure, the failure's offset and the error naming
// the message, the field path and what is wrong.
func (d *Decoder) Finish(message string, version int16, end int) (int, error) {
	if !d.bad {
		return end, nil
	}
	e := d.err
	if e == nil {
		e = &runtime.Error{Op: "decode", Offset: d.at, Err: runtime.ErrShortBuffer,
			Detail: fmt.Sprintf("need %d bytes, have %d", d.need, len(d.buf)-d.at)}
	}
	e.Message, e.Version, e.Field = message, version, d.field
	for _, enclosing := range d.path { // innermost first
		if e.Field == "" {
			e.Field = enclosing
		} else {
			e.Field = enclosing + "." + e.Field
		}
	}
	return e.Offset, e
}

// Bool reads a bool at off: any non-zero byte is true, as in Java.
func (d *Decoder) Bool(off int, field string) (bool, int) {
	if b := d.buf; off < len(b) {
		return b[off] != 0, off + 1
	}
	return false, d.short(off, 1, field)
}

// Int8 reads an int8 at off.
func (d *Decoder) Int8(off int, field string) (int8, int) {
	if b := d.buf; off < len(b) {
		return int8(b[off]), off + 1
	}
	return 0, d.short(off, 1, field)
}

// Int16 reads a big-endian int16 at off.
func (d *Decoder) Int16(off int, field string) (int16, int) {
	if b := d.buf; len(b)-off >= 2 {
		return int16(binary.BigEndian.Uint16(b[off:])), off + 2
	}
	return 0, d.short(off, 2, field)
}

// Uint16 reads a big-endian uint16 at off.
func (d *Decoder) Uint16(off int, field string) (uint16, int) {
	if b := d.buf; len(b)-off >= 2 {
		return binary.BigEndian.Uint16(b[off:]), off + 2
	}
	return 0, d.short(off, 2, field)
}

// Int32 reads a big-endian int32 at off.
func (d *Decoder) Int32(off int, field string) (int32, int) {
	if b := d.buf; len(b)-off >= 4 {
		return int32(binary.BigEndian.Uint32(b[off:])), off + 4
	}
	return 0, d.short(off, 4, field)
}

// Uint32 reads a big-endian uint32 at off.
func (d *Decoder) Uint32(off int, field string) (uint32, int) {
	if b := d.buf; len(b)-off >= 4 {
		return binary.BigEndian.Uint32(b[off:]), off + 4
	}
	return 0, d.short(off, 4, field)
}

// Int64 reads a big-endian int64 at off.
func (d *Decoder) Int64(off int, field string) (int64, int) {
	if b := d.buf; len(b)-off >= 8 {
		return int64(binary.BigEndian.Uint64(b[off:])), off + 8
	}
	return 0, d.short(off, 8, field)
}

// Float64 reads the IEEE-754 bits of a float64 at off, NaN payloads kept.
func (d *Decoder) Float64(off int, field string) (float64, int) {
	if b := d.buf; len(b)-off >= 8 {
		return math.Float64frombits(binary.BigEndian.Uint64(b[off:])), off + 8
	}
	return 0, d.short(off, 8, field)
}

// UUID reads the 16 bytes of a UUID at off.
func (d *Decoder) UUID(off int, field string) (runtime.UUID, int) {
	if b := d.buf; len(b)-off >= 16 {
		return runtime.UUID(b[off : off+16]), off + 16
	}
	return runtime.UUID{}, d.short(off, 16, field)
}

// Fixed returns the n bytes at off, or nil when fewer remain: generated code
// reads a run of fixed-width fields from it with one bounds check, and
// calls FailFixed on nil.
func (d *Decoder) Fixed(off, n int) []byte {
	if b := d.buf; len(b)-off >= n {
		return b[off : off+n : off+n]
	}
	return nil
}

// FailFixed fails a run of fixed-width fields at off that Fixed could not
// return. fields lists the run's fields in wire order as name:width,
// separated by spaces ("PartitionIndex:4 ErrorCode:2"), so that generated
// code passes one constant; the failure names the first field that does not
// fit, at its offset.
func (d *Decoder) FailFixed(off int, fields string) int {
	if d.bad {
		return stopped
	}
	rem := len(d.buf) - off
	start := 0
	for f := range strings.FieldsSeq(fields) {
		name, width, _ := strings.Cut(f, ":")
		w, _ := strconv.Atoi(width)
		if start+w > rem {
			return d.short(off+start, w, name)
		}
		start += w
	}
	return d.short(off, start, "") // not reached: Fixed failed
}

// Uvarint reads an unsigned varint at off with Java's tolerance: a fifth
// byte without its continuation bit is accepted and its high bits dropped.
func (d *Decoder) Uvarint(off int, field string) (uint32, int) {
	b := d.buf
	var v uint32
	for i, shift := off, uint(0); shift < 35; i, shift = i+1, shift+7 {
		if i >= len(b) {
			return 0, d.short(i, 1, field)
		}
		c := b[i]
		if c < 0x80 {
			return v | uint32(c)<<shift, i + 1
		}
		if shift == 28 {
			return 0, d.fail(i, field, runtime.ErrMalformedVarint, "")
		}
		v |= uint32(c&0x7f) << shift
	}
	return v, off // not reached
}
