package dynamic

import (
	"strings"

	"github.com/kafkagen/kafkagen/generator/plan"
	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/runtime/codec"
)

// Decode reads the message at version from the start of src and returns it
// with the number of bytes read. It accepts exactly what the generated
// Decode accepts, and fails as it does: with a *runtime.Error naming the
// field path (spec field names) and the byte offset, wrapping one of the
// runtime sentinels. Strings are copied; bytes and records values alias
// src.
func (m *Message) Decode(src []byte, version int16) (*Struct, int, error) {
	if vs := m.plan.Versions; !vs.Contains(version) {
		return nil, 0, codec.UnsupportedVersion("decode", m.Spec.Name, version, vs.Lo, vs.Hi)
	}
	r := &reader{version: version}
	r.d.InitAliased(src)
	st, end := r.readStruct(m.plan.Top, 0)
	n, err := r.d.Finish(m.Spec.Name, version, end)
	if err != nil {
		return nil, n, err
	}
	return st, n, nil
}

// reader interprets a plan at one version with the reads generated decode
// methods make, in the same order, so that a failure is recorded, and
// named, as theirs is. A failed read records the first failure and every
// later one fails at once; the reader returns at the first failure,
// naming the enclosing fields on the way up.
type reader struct {
	d       codec.Decoder
	version int16
}

// readStruct reads a struct at off: its fields in place, then, where the
// version is flexible, its tag section. Fields the version does not have
// in place hold their default unless the tag section sets them.
func (r *reader) readStruct(s *plan.Struct, off int) (*Struct, int) {
	st := &Struct{Def: s.Schema, Fields: make([]Value, len(s.Fields))}
	for i, f := range s.Fields {
		if !f.InPlace.On.Contains(r.version) {
			st.Fields[i] = defaultValue(f)
			continue
		}
		if st.Fields[i], off = r.readValue(f, off, false); r.d.Failed() {
			return st, off
		}
	}
	if s.HasTags && s.Flexible.On.Contains(r.version) {
		off = r.readTags(s, st, off)
	}
	return st, off
}

// readTags reads a tag section into st: known tagged fields (their size is
// not checked, as in Java and generated code), and unknown ones kept as
// raw bytes.
func (r *reader) readTags(s *plan.Struct, st *Struct, off int) int {
	if len(s.Tagged) == 0 {
		return r.d.Tags(off, &st.Unknown)
	}
	var n int
	for n, off = r.d.TagCount(off); n > 0 && !r.d.Failed(); n-- {
		tag, size, next := r.d.TagHeader(off)
		off = next
		i := fieldByTag(s, tag)
		switch {
		case i < 0:
			st.Unknown, off = r.d.UnknownTag(off, st.Unknown, tag, size)
		case !s.Fields[i].Tagged.On.Contains(r.version):
			off = r.d.InvalidTag(off, tag, r.version, s.Fields[i].Schema.Name)
		default:
			st.Fields[i], off = r.readValue(s.Fields[i], off, true)
		}
	}
	return off
}

// fieldByTag is the index of the field of s with tag, or -1.
func fieldByTag(s *plan.Struct, tag uint32) int {
	for i, f := range s.Fields {
		if f.Schema.HasTag && uint32(f.Schema.Tag) == tag {
			return i
		}
	}
	return -1
}

// readValue reads one field value at off; tagged: in a tag section, where
// lengths are compact and a nullable struct's marker is a uvarint.
func (r *reader) readValue(f *plan.Field, off int, tagged bool) (Value, int) {
	d, name, t := &r.d, f.Schema.Name, f.Schema.Type
	l := codec.Classic
	if tagged || f.Compact.On.Contains(r.version) {
		l = codec.Compact
	}
	nullable := f.Schema.Nullable() && f.Nullable.On.Contains(r.version)
	if t.Array {
		return r.readArray(f, off, l, nullable)
	}
	switch t.Kind {
	case schema.KindString:
		if nullable {
			s, off := d.NullString(off, l, runtime.NullString{}, name)
			return Value{Null: !s.Valid, Str: strings.Clone(s.Value)}, off
		}
		s, off := d.String(off, l, "", name)
		return Value{Str: strings.Clone(s)}, off
	case schema.KindBytes, schema.KindRecords:
		if nullable {
			b, off := d.NullBytes(off, l, nil, name)
			return Value{Null: b == nil, Bytes: b}, off
		}
		b, off := d.Bytes(off, l, nil, name)
		return Value{Bytes: b}, off
	case schema.KindStruct:
		if nullable {
			var present bool
			if tagged {
				present, off = d.TaggedStructMarker(off, name)
			} else {
				present, off = d.StructMarker(off, name)
			}
			if !present {
				return Value{Null: true}, off
			}
		}
		st, end := r.readStruct(f.Elem, off)
		return Value{Struct: st}, d.Within(off, end, name)
	}
	return r.scalar(t.Kind, off, name)
}

// readArray reads an array, whose count is checked against the bytes that
// remain (count × the plan's smallest element) before anything is
// allocated.
func (r *reader) readArray(f *plan.Field, off int, l codec.Lengths, nullable bool) (Value, int) {
	d, name := &r.d, f.Schema.Name
	var n int
	if nullable {
		n, off = d.NullArrayLen(off, l, f.MinElemSize, name)
	} else {
		n, off = d.ArrayLen(off, l, f.MinElemSize, name)
	}
	if n < 0 {
		return Value{Null: true}, off
	}
	elems := make([]Value, n)
	for i := range elems {
		switch k := f.Schema.Type.Kind; k {
		case schema.KindString:
			var s string
			s, off = d.String(off, l, "", name)
			elems[i].Str = strings.Clone(s)
		case schema.KindBytes, schema.KindRecords:
			elems[i].Bytes, off = d.Bytes(off, l, nil, name)
		case schema.KindStruct:
			if elems[i].Struct, off = r.readStruct(f.Elem, off); d.Failed() {
				d.WithinElem(name, i)
				return Value{}, off
			}
		default:
			elems[i], off = r.scalar(k, off, name)
		}
	}
	return Value{Elems: elems}, off
}

// scalar reads a value of a fixed-width kind.
func (r *reader) scalar(k schema.Kind, off int, name string) (v Value, end int) {
	d := &r.d
	switch k {
	case schema.KindBool:
		var b bool
		if b, end = d.Bool(off, name); b {
			v.Int = 1
		}
	case schema.KindInt8:
		v.Int, end = integer(d.Int8, off, name)
	case schema.KindInt16:
		v.Int, end = integer(d.Int16, off, name)
	case schema.KindUint16:
		v.Int, end = integer(d.Uint16, off, name)
	case schema.KindInt32:
		v.Int, end = integer(d.Int32, off, name)
	case schema.KindUint32:
		v.Int, end = integer(d.Uint32, off, name)
	case schema.KindInt64:
		v.Int, end = d.Int64(off, name)
	case schema.KindFloat64:
		v.Float, end = d.Float64(off, name)
	case schema.KindUUID:
		v.UUID, end = d.UUID(off, name)
	}
	return v, end
}

// integer reads an integer with the Decoder method read, widened.
func integer[T int8 | int16 | uint16 | int32 | uint32](read func(int, string) (T, int), off int, name string) (int64, int) {
	n, end := read(off, name)
	return int64(n), end
}
