package dynamic

import (
	"fmt"
	"math"

	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/runtime"
)

// Decode reads spec's message at version from the start of src and returns
// it with the number of bytes read. It accepts exactly what the generated
// Decode accepts, and fails as it does: with a *runtime.Error naming the
// field path (spec field names) and the byte offset, wrapping one of the
// runtime sentinels. Bytes values alias src.
func Decode(spec *schema.Spec, src []byte, version int16) (*Struct, int, error) {
	if !spec.ValidVersions.Contains(version) {
		return nil, 0, runtime.UnsupportedVersion("decode", spec.Name, version, spec.ValidVersions.Lo, spec.ValidVersions.Hi)
	}
	d := &decoder{buf: src, version: version, messageFlexible: spec.FlexibleVersions, minSizes: map[*schema.Struct]int{}}
	st := d.readStruct(spec.Root)
	if d.err != nil {
		return nil, d.err.Offset, d.finish(spec.Name)
	}
	return st, d.off, nil
}

// decoder reads one message. Its error is sticky: after the first failure
// every read returns a zero value, and the path of the field being read
// (pushed on the way in, popped on success) stays as it was.
type decoder struct {
	buf             []byte
	off             int
	version         int16
	messageFlexible schema.Versions // the spec's flexibleVersions
	err             *runtime.Error
	path            []string // the field being read, outermost first
	minSizes        map[*schema.Struct]int
}

func (d *decoder) fail(at int, err error, detail string) {
	if d.err == nil {
		d.err = &runtime.Error{Op: "decode", Offset: at, Err: err, Detail: detail}
	}
	d.off = len(d.buf)
}

func (d *decoder) short(at, need int) {
	d.fail(at, runtime.ErrShortBuffer, fmt.Sprintf("need %d bytes, have %d", need, len(d.buf)-at))
}

func (d *decoder) push(field string) { d.path = append(d.path, field) }

func (d *decoder) pop() {
	if d.err == nil {
		d.path = d.path[:len(d.path)-1]
	}
}

// finish completes the error with the message, version and field path.
func (d *decoder) finish(message string) error {
	e := d.err
	e.Message, e.Version = message, d.version
	for i, p := range d.path {
		if i > 0 {
			e.Field += "."
		}
		e.Field += p
	}
	return e
}

// take returns the next n bytes.
func (d *decoder) take(n int) []byte {
	if d.err != nil {
		return nil
	}
	if n > len(d.buf)-d.off {
		d.short(d.off, n)
		return nil
	}
	b := d.buf[d.off : d.off+n : d.off+n]
	d.off += n
	return b
}

// fixed reads a big-endian integer of n bytes.
func (d *decoder) fixed(n int) uint64 {
	b := d.take(n)
	var v uint64
	for _, c := range b {
		v = v<<8 | uint64(c)
	}
	return v
}

// uvarint reads an unsigned varint with Java's tolerance: a fifth byte
// without its continuation bit is accepted and its high bits dropped.
func (d *decoder) uvarint() uint32 {
	var v uint32
	for shift := uint(0); shift < 35; shift += 7 {
		if d.err != nil {
			return 0
		}
		if d.off >= len(d.buf) {
			d.short(d.off, 1)
			return 0
		}
		c := d.buf[d.off]
		if c < 0x80 {
			d.off++
			return v | uint32(c)<<shift
		}
		if shift == 28 {
			d.fail(d.off, runtime.ErrMalformedVarint, "")
			return 0
		}
		d.off++
		v |= uint32(c&0x7f) << shift
	}
	return v
}

// length reads a length or count (int16, int32, or a compact uvarint
// holding n+1); any negative value is -1, null.
func (d *decoder) length(compact, wide bool) int {
	var n int
	switch {
	case compact:
		n = int(int32(d.uvarint())) - 1
	case wide:
		n = int(int32(d.fixed(4)))
	default:
		n = int(int16(d.fixed(2)))
	}
	if n < 0 || d.err != nil {
		return -1
	}
	return n
}

// lengthOrNull reads the length of a string, bytes or array (see length).
// When the value ends there (a failed read, or null: an error with ErrNull
// where nullable is false) it returns that value and done; else the length.
func (d *decoder) lengthOrNull(compact, wide, nullable bool) (n int, v Value, done bool) {
	start := d.off
	n = d.length(compact, wide)
	switch {
	case d.err != nil:
		return n, Value{}, true
	case n < 0 && !nullable:
		d.fail(start, runtime.ErrNull, "")
		return n, Value{}, true
	case n < 0:
		return n, Value{Null: true}, true
	}
	return n, Value{}, false
}

// str reads a string; null where nullable is false fails with ErrNull.
func (d *decoder) str(compact, nullable bool) Value {
	start := d.off
	n, v, done := d.lengthOrNull(compact, false, nullable)
	switch {
	case done:
		return v
	case n > runtime.MaxStringLen:
		d.fail(start, runtime.ErrInvalidLength, fmt.Sprintf("string length %d over %d", n, runtime.MaxStringLen))
		return Value{}
	}
	return Value{Str: string(d.take(n))}
}

// bytes reads bytes or records; null where nullable is false fails with
// ErrNull. An empty value is non-nil.
func (d *decoder) bytes(compact, nullable bool) Value {
	n, v, done := d.lengthOrNull(compact, true, nullable)
	if done {
		return v
	}
	b := d.take(n)
	if b == nil && d.err == nil {
		b = []byte{}
	}
	return Value{Bytes: b}
}

// scalar reads a value of a fixed-width kind.
func (d *decoder) scalar(k schema.Kind) Value {
	switch k {
	case schema.KindBool:
		return Value{Int: int64(min(d.fixed(1), 1))} // any non-zero byte is true
	case schema.KindInt8:
		return Value{Int: int64(int8(d.fixed(1)))}
	case schema.KindInt16:
		return Value{Int: int64(int16(d.fixed(2)))}
	case schema.KindUint16:
		return Value{Int: int64(uint16(d.fixed(2)))}
	case schema.KindInt32:
		return Value{Int: int64(int32(d.fixed(4)))}
	case schema.KindUint32:
		return Value{Int: int64(uint32(d.fixed(4)))}
	case schema.KindInt64:
		return Value{Int: int64(d.fixed(8))}
	case schema.KindFloat64:
		return Value{Float: math.Float64frombits(d.fixed(8))}
	case schema.KindUUID:
		var v Value
		if b := d.take(16); b != nil {
			copy(v.UUID[:], b)
		}
		return v
	}
	panic("dynamic: not a fixed-width kind: " + k.String())
}

// inline reports whether a field is written in place at the version (present
// and not tagged).
func (d *decoder) inline(f *schema.Field) bool {
	return f.Versions.Contains(d.version) && !f.TaggedAt(d.version)
}

// flexible reports whether the version has compact lengths and tag sections.
func (d *decoder) flexible() bool { return d.messageFlexible.Contains(d.version) }

// compact reports whether a field's lengths are compact at the version.
func (d *decoder) compact(f *schema.Field) bool { return f.FlexibleAt(d.messageFlexible, d.version) }
