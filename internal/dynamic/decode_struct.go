package dynamic

import (
	"fmt"

	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/runtime"
)

// readStruct reads a struct: its fields in place, then, at flexible
// versions, its tag section. Fields the version does not have, or that are
// tagged and absent from the section, hold their default.
func (d *decoder) readStruct(def *schema.Struct) *Struct {
	st := &Struct{Def: def, Fields: make([]Value, len(def.Fields))}
	for i, f := range def.Fields {
		if !d.inline(f) {
			v, err := defaultValue(f)
			if err != nil { // the loader validated every default: never here
				d.fail(d.off, runtime.ErrInvalidLength, "spec default: "+err.Error())
				return st
			}
			st.Fields[i] = v
			continue
		}
		d.push(f.Name)
		st.Fields[i] = d.readField(f, d.compact(f), false)
		if d.err != nil {
			return st
		}
		d.pop()
	}
	if d.flexible() {
		d.readTags(st)
	}
	return st
}

// readTags reads a tag section into st: known tagged fields (read in
// place; the size is not checked, as in Java and generated code), and
// unknown ones kept as raw bytes.
func (d *decoder) readTags(st *Struct) {
	start := d.off
	n := int(int32(d.uvarint()))
	if d.err != nil {
		return
	}
	if n < 0 || n*2 > len(d.buf)-d.off {
		d.fail(start, runtime.ErrInvalidLength, fmt.Sprintf("%d tagged fields, but only %d bytes remain", n, len(d.buf)-start))
		return
	}
	for range n {
		tag := d.uvarint()
		sizeAt := d.off
		size := int(int32(d.uvarint()))
		if d.err != nil {
			return
		}
		if size < 0 {
			d.fail(sizeAt, runtime.ErrInvalidLength, fmt.Sprintf("negative tagged field size %d", size))
			return
		}
		i := fieldByTag(st.Def, tag)
		if i < 0 {
			data := d.take(size)
			if d.err != nil {
				return
			}
			st.Unknown = append(st.Unknown, runtime.UnknownTag{Tag: tag, Data: data})
			continue
		}
		f := st.Def.Fields[i]
		d.push(f.Name)
		if !f.TaggedAt(d.version) {
			d.fail(d.off, runtime.ErrInvalidTag, fmt.Sprintf("tag %d is not valid for version %d", tag, d.version))
			return
		}
		st.Fields[i] = d.readField(f, true, true)
		if d.err != nil {
			return
		}
		d.pop()
	}
}

// fieldByTag is the index of the field of def with tag, or -1.
func fieldByTag(def *schema.Struct, tag uint32) int {
	for i, f := range def.Fields {
		if f.HasTag && uint32(f.Tag) == tag {
			return i
		}
	}
	return -1
}

// readField reads one field's value; tagged is set inside a tag section,
// where a nullable struct's marker is a uvarint.
func (d *decoder) readField(f *schema.Field, compact, tagged bool) Value {
	nullable := goNullable(f) && f.NullableAt(d.version)
	t := f.Type
	if t.Array {
		return d.readArray(f, compact, nullable)
	}
	switch t.Kind {
	case schema.KindString:
		return d.str(compact, nullable)
	case schema.KindBytes, schema.KindRecords:
		return d.bytes(compact, nullable)
	case schema.KindStruct:
		if nullable {
			var present bool
			if tagged {
				present = int32(d.uvarint()) > 0 // zero (or negative, read as Java does) is null
			} else {
				present = int8(d.fixed(1)) >= 0 // negative is null
			}
			if d.err != nil {
				return Value{}
			}
			if !present {
				return Value{Null: true}
			}
		}
		return Value{Struct: d.readStruct(f.Struct)}
	}
	return d.scalar(t.Kind)
}

// readArray reads an array whose count is checked against the remaining
// bytes (count × the element's smallest encoding) before anything is
// allocated.
func (d *decoder) readArray(f *schema.Field, compact, nullable bool) Value {
	at := len(d.path) - 1 // the field's name, which an element's index joins
	start := d.off
	n, v, done := d.lengthOrNull(compact, true, nullable)
	if done {
		return v
	}
	if n*max(d.minElemSize(f, compact), 1) > len(d.buf)-d.off {
		d.fail(start, runtime.ErrInvalidLength, fmt.Sprintf("array of %d elements, but only %d bytes remain", n, len(d.buf)-start))
		return Value{}
	}
	elems := make([]Value, n)
	for i := range elems {
		switch k := f.Type.Kind; k {
		case schema.KindString:
			elems[i] = d.str(compact, false)
		case schema.KindBytes, schema.KindRecords:
			elems[i] = d.bytes(compact, false)
		case schema.KindStruct:
			elems[i] = Value{Struct: d.readStruct(f.Struct)}
		default:
			elems[i] = d.scalar(k)
		}
		if d.err != nil {
			d.path[at] = fmt.Sprintf("%s[%d]", f.Name, i)
			return Value{}
		}
	}
	return Value{Elems: elems}
}

// minElemSize is the fewest bytes one element of an array field takes at
// the version being read.
func (d *decoder) minElemSize(f *schema.Field, compact bool) int {
	switch k := f.Type.Kind; {
	case k.FixedSize() > 0:
		return k.FixedSize()
	case k == schema.KindStruct:
		return d.minStructSize(f.Struct)
	case compact:
		return 1
	case k == schema.KindString:
		return 2
	}
	return 4
}

// minStructSize is the fewest bytes the struct takes at the version: its
// fields in place at their smallest, and a tag section's count.
func (d *decoder) minStructSize(def *schema.Struct) int {
	if n, ok := d.minSizes[def]; ok {
		return n
	}
	d.minSizes[def] = 0 // a struct holding itself adds nothing more
	n := 0
	if d.flexible() {
		n++
	}
	for _, f := range def.Fields {
		if !d.inline(f) {
			continue
		}
		compact := d.compact(f)
		switch {
		case f.Type.Array || f.Type.Kind == schema.KindBytes || f.Type.Kind == schema.KindRecords:
			n += map[bool]int{true: 1, false: 4}[compact]
		case f.Type.Kind == schema.KindString:
			n += map[bool]int{true: 1, false: 2}[compact]
		case f.Type.Kind == schema.KindStruct:
			if goNullable(f) && f.NullableAt(d.version) {
				n++
			} else {
				n += d.minStructSize(f.Struct)
			}
		default:
			n += f.Type.Kind.FixedSize()
		}
	}
	d.minSizes[def] = n
	return n
}
