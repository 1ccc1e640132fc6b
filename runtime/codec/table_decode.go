package codec

import (
	"unsafe"

	"github.com/kafkagen/kafkagen/runtime"
)

// DecodeStruct decodes the struct at p, described by t, from off at version
// and returns the offset after it: the printed decode method of a struct,
// read from its table. Every field is read or set to its default, strings
// and slices are reused, and a failure is recorded and named as the printed
// code records and names it (Decoder).
func DecodeStruct(d *Decoder, t *Struct, p unsafe.Pointer, off int, version int16) int {
	return decodeProgram(d, t.program(version), p, off, version)
}

func decodeProgram(d *Decoder, pr *program, p unsafe.Pointer, off int, version int16) int {
	steps := pr.steps // kept in registers: stores into the message cannot change it
	for i := range steps {
		s := &steps[i]
		v := unsafe.Add(p, s.off)
		switch s.op {
		case op(KindBool), op(KindInt8), op(KindInt16), op(KindUint16), op(KindInt32), op(KindUint32),
			op(KindInt64), op(KindFloat64), op(KindUUID):
			off = decodeScalar(d, Kind(s.op), v, off, s.f.Name)
		case opString:
			str := (*string)(v)
			*str, off = d.String(off, s.l, *str, s.f.Name)
		case opNullString:
			str := (*runtime.NullString)(v)
			*str, off = d.NullString(off, s.l, *str, s.f.Name)
		case opNullStringNotNull:
			str := (*runtime.NullString)(v)
			str.Value, off = d.String(off, s.l, str.Value, s.f.Name)
			str.Valid = true
		case opBytes, opNullBytesNotNull:
			bs := (*[]byte)(v)
			*bs, off = d.Bytes(off, s.l, *bs, s.f.Name)
		case opNullBytes:
			bs := (*[]byte)(v)
			*bs, off = d.NullBytes(off, s.l, *bs, s.f.Name)
		case opStruct:
			off = d.Within(off, decodeProgram(d, s.elem, v, off, version), s.f.Name)
		case opArray, opNullArray, opNullArrayNotNull:
			var stop bool
			if off, stop = decodeArray(d, s, v, off, version); stop {
				return off // a failed element, named (WithinElem)
			}
		case opAbsent, opAbsentIgnorable:
			setDefault(s.f, v)
		}
	}
	if pr.tags {
		tags := (*runtime.Tags)(unsafe.Add(p, pr.tagsAt))
		*tags = (*tags)[:0]
		if pr.flexible {
			off = d.Tags(off, tags)
		}
	}
	return off
}

// decodeArray reads the array of the step s at v: its count, checked
// against what remains, the slice grown to it, then each element; stop: a
// struct element failed, which ends the enclosing struct's decode too.
func decodeArray(d *Decoder, s *step, v unsafe.Pointer, off int, version int16) (end int, stop bool) {
	f := s.f
	var n int
	if s.op == opNullArray {
		n, off = d.NullArrayLen(off, s.l, f.MinElemSize, f.Name)
	} else {
		n, off = d.ArrayLen(off, s.l, f.MinElemSize, f.Name)
	}
	switch f.Kind {
	case KindStruct:
		growStructs(f, v, n)
		sl := (*slice)(v)
		for i := range sl.len {
			if off = decodeProgram(d, s.elem, sl.elem(i, f.ElemSize), off, version); d.bad {
				d.WithinElem(f.Name, i)
				return off, true
			}
		}
	case KindString:
		strs := (*[]string)(v)
		*strs = Grow(*strs, n)
		for i := range *strs {
			(*strs)[i], off = d.String(off, s.l, (*strs)[i], f.Name)
		}
	case KindBytes:
		bs := (*[][]byte)(v)
		*bs = Grow(*bs, n)
		for i := range *bs {
			(*bs)[i], off = d.Bytes(off, s.l, (*bs)[i], f.Name)
		}
	case KindInt32:
		ns := (*[]int32)(v)
		*ns = Grow(*ns, n)
		for i := range *ns {
			(*ns)[i], off = d.Int32(off, f.Name)
		}
	default:
		off = decodeScalars(d, f, v, off, n)
	}
	return off, false
}

// decodeScalars grows the array of fixed-width values at v to n and reads
// them.
func decodeScalars(d *Decoder, f *Field, v unsafe.Pointer, off, n int) int {
	switch f.Kind {
	case KindBool:
		growAt((*[]bool)(v), n)
	case KindInt8:
		growAt((*[]int8)(v), n)
	case KindInt16:
		growAt((*[]int16)(v), n)
	case KindUint16:
		growAt((*[]uint16)(v), n)
	case KindUint32:
		growAt((*[]uint32)(v), n)
	case KindInt64:
		growAt((*[]int64)(v), n)
	case KindFloat64:
		growAt((*[]float64)(v), n)
	case KindUUID:
		growAt((*[]runtime.UUID)(v), n)
	}
	sl, size := (*slice)(v), elemSize(f)
	for i := range sl.len {
		off = decodeScalar(d, f.Kind, sl.elem(i, size), off, f.Name)
	}
	return off
}

// growAt is Grow in place.
func growAt[T any](s *[]T, n int) { *s = Grow(*s, n) }

// decodeScalar reads one fixed-width value into v.
func decodeScalar(d *Decoder, k Kind, v unsafe.Pointer, off int, name string) int {
	switch k {
	case KindBool:
		*(*bool)(v), off = d.Bool(off, name)
	case KindInt8:
		*(*int8)(v), off = d.Int8(off, name)
	case KindInt16:
		*(*int16)(v), off = d.Int16(off, name)
	case KindUint16:
		*(*uint16)(v), off = d.Uint16(off, name)
	case KindInt32:
		*(*int32)(v), off = d.Int32(off, name)
	case KindUint32:
		*(*uint32)(v), off = d.Uint32(off, name)
	case KindInt64:
		*(*int64)(v), off = d.Int64(off, name)
	case KindFloat64:
		*(*float64)(v), off = d.Float64(off, name)
	case KindUUID:
		*(*runtime.UUID)(v), off = d.UUID(off, name)
	}
	return off
}
