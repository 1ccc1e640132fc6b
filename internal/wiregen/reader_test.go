package wiregen

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// This file is a strict, schema-driven decoder used only by the tests. It
// reads an encoding back into a value tree, which the serialiser then writes
// again, and it rejects every encoding that is valid for Java but not
// canonical: a tag section out of order or with duplicates, a known tagged
// field holding its default, a known tag whose declared size does not match
// its payload, an unknown tag not above every tag of its struct, a nullable
// struct marker other than 0x01/0xff, a bool other than 0/1, a non-minimal
// varint, and a null where the field is not nullable.

// decodeError is a rejection, carried by panic inside the reader.
type decodeError struct{ msg string }

func (e decodeError) Error() string { return e.msg }

// decodeStats counts what a decoded encoding exercised.
type decodeStats struct {
	nulls       int // null strings, bytes, records, arrays and structs
	tagged      int // known tagged fields
	unknownTags int // unknown tagged fields
	longValues  int // strings, bytes and records longer than 127 bytes
}

type reader struct {
	b               []byte
	version         int16
	messageFlexible schema.Versions
	flexible        bool
	stats           *decodeStats
}

// decode reads a whole encoding of spec's message at version.
func decode(spec *schema.Spec, version int16, b []byte) (sv *structValue, stats decodeStats, err error) {
	defer func() {
		if p := recover(); p != nil {
			de, ok := p.(decodeError)
			if !ok {
				panic(p)
			}
			sv, err = nil, de
		}
	}()
	r := &reader{
		b:               b,
		version:         version,
		messageFlexible: spec.FlexibleVersions,
		flexible:        spec.FlexibleVersions.Contains(version),
		stats:           &stats,
	}
	sv = r.readStruct(spec.Root)
	if len(r.b) != 0 {
		r.fail("%d bytes left over", len(r.b))
	}
	return sv, stats, nil
}

func (r *reader) fail(format string, args ...any) {
	panic(decodeError{fmt.Sprintf(format, args...)})
}

func (r *reader) take(n int) []byte {
	if n < 0 || n > len(r.b) {
		r.fail("need %d bytes, have %d", n, len(r.b))
	}
	p := r.b[:n:n]
	r.b = r.b[n:]
	return p
}

func (r *reader) uvarint() int {
	x, n := binary.Uvarint(r.b)
	if n <= 0 || x > 1<<31-1 {
		r.fail("bad varint")
	}
	if len(binary.AppendUvarint(nil, x)) != n {
		r.fail("non-minimal varint")
	}
	r.b = r.b[n:]
	return int(x)
}

func (r *reader) readStruct(st *schema.Struct) *structValue {
	sv := &structValue{def: st, fields: make([]value, len(st.Fields))}
	maxTag := -1
	for i, f := range st.Fields {
		if f.HasTag {
			maxTag = max(maxTag, f.Tag)
		}
		if !f.Versions.Contains(r.version) {
			continue
		}
		if f.TaggedAt(r.version) {
			sv.fields[i] = defaultValue(f, r.version)
			continue
		}
		sv.fields[i] = r.readField(f, false)
	}
	if !r.flexible {
		return sv
	}
	n := r.uvarint()
	last := -1
	for range n {
		tag := r.uvarint()
		if tag <= last {
			r.fail("tag %d after tag %d", tag, last)
		}
		last = tag
		payload := r.take(r.uvarint())
		i := tagIndex(st, tag)
		if i < 0 {
			if tag <= maxTag {
				r.fail("unknown tag %d is not above the struct's tags", tag)
			}
			sv.unknown = append(sv.unknown, rawTag{tag: tag, data: bytes.Clone(payload)})
			r.stats.unknownTags++
			continue
		}
		f := st.Fields[i]
		if !f.Versions.Contains(r.version) || !f.TaggedAt(r.version) {
			r.fail("tag %d is not valid for version %d", tag, r.version)
		}
		sub := *r
		sub.b = payload
		v := sub.readField(f, true)
		if len(sub.b) != 0 {
			r.fail("tag %d (%s): %d payload bytes left over", tag, f.Name, len(sub.b))
		}
		if isDefault(f, v, r.version) {
			r.fail("tag %d (%s) holds its default", tag, f.Name)
		}
		sv.fields[i] = v
		r.stats.tagged++
	}
	return sv
}

func tagIndex(st *schema.Struct, tag int) int {
	for i, f := range st.Fields {
		if f.HasTag && f.Tag == tag {
			return i
		}
	}
	return -1
}

// length reads a length or count; width is 2 for strings, 4 otherwise.
func (r *reader) length(compact bool, width int) (n int, null bool) {
	switch {
	case compact:
		n = r.uvarint() - 1
	case width == 2:
		n = int(int16(binary.BigEndian.Uint16(r.take(2))))
	default:
		n = int(int32(binary.BigEndian.Uint32(r.take(4))))
	}
	if n < -1 {
		r.fail("negative length %d", n)
	}
	return n, n == -1
}

func (r *reader) null(f *schema.Field) value {
	if !f.NullableAt(r.version) {
		r.fail("non-nullable field %s was serialized as null", f.Name)
	}
	r.stats.nulls++
	return value{null: true}
}

func (r *reader) readField(f *schema.Field, tagged bool) value {
	compact := f.FlexibleAt(r.messageFlexible, r.version)
	t := f.Type
	switch {
	case t.Array:
		n, null := r.length(compact, 4)
		if null {
			return r.null(f)
		}
		if n > len(r.b) {
			r.fail("array of %d elements in %d bytes", n, len(r.b))
		}
		elems := make([]value, n)
		for i := range elems {
			elems[i] = r.readElem(t.Kind, f.Struct, compact)
		}
		return value{elems: elems}
	case t.Kind == schema.KindStruct:
		if f.NullableAt(r.version) {
			var present bool
			if tagged {
				m := r.uvarint()
				present = m == 1
				if m > 1 {
					r.fail("tagged struct presence %d", m)
				}
			} else {
				m := r.take(1)[0]
				present = m == 0x01
				if m != 0x01 && m != 0xff {
					r.fail("struct marker %#x", m)
				}
			}
			if !present {
				return r.null(f)
			}
		}
		return value{st: r.readStruct(f.Struct)}
	case t.Kind == schema.KindString, t.Kind == schema.KindBytes, t.Kind == schema.KindRecords:
		width := 4
		if t.Kind == schema.KindString {
			width = 2
		}
		n, null := r.length(compact, width)
		if null {
			return r.null(f)
		}
		return r.readData(t.Kind, n)
	}
	return r.readElem(t.Kind, f.Struct, compact)
}

// readData reads the n bytes of a non-null string, bytes or records value.
func (r *reader) readData(kind schema.Kind, n int) value {
	p := r.take(n)
	if n > 127 {
		r.stats.longValues++
	}
	if kind != schema.KindString {
		return value{bytes: bytes.Clone(p)}
	}
	if n > 0x7fff || !utf8.Valid(p) {
		r.fail("invalid string of %d bytes", n)
	}
	return value{str: string(p)}
}

func (r *reader) readElem(kind schema.Kind, st *schema.Struct, compact bool) value {
	switch kind {
	case schema.KindBool:
		b := r.take(1)[0]
		if b > 1 {
			r.fail("bool %#x", b)
		}
		return value{num: int64(b)}
	case schema.KindInt8:
		return value{num: int64(int8(r.take(1)[0]))}
	case schema.KindInt16:
		return value{num: int64(int16(binary.BigEndian.Uint16(r.take(2))))}
	case schema.KindUint16:
		return value{num: int64(binary.BigEndian.Uint16(r.take(2)))}
	case schema.KindInt32:
		return value{num: int64(int32(binary.BigEndian.Uint32(r.take(4))))}
	case schema.KindUint32:
		return value{num: int64(binary.BigEndian.Uint32(r.take(4)))}
	case schema.KindInt64:
		return value{num: int64(binary.BigEndian.Uint64(r.take(8)))}
	case schema.KindFloat64:
		return value{float: math.Float64frombits(binary.BigEndian.Uint64(r.take(8)))}
	case schema.KindUUID:
		var u [16]byte
		copy(u[:], r.take(16))
		return value{uuid: u}
	case schema.KindString, schema.KindBytes, schema.KindRecords:
		width := 4
		if kind == schema.KindString {
			width = 2
		}
		n, null := r.length(compact, width)
		if null {
			r.fail("null array element")
		}
		return r.readData(kind, n)
	case schema.KindStruct:
		return value{st: r.readStruct(st)}
	}
	r.fail("unknown kind %v", kind)
	return value{}
}
