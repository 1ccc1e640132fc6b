package codec

import (
	"encoding/binary"
	"math"
	"unsafe"

	"github.com/kafkagen/kafkagen/runtime"
)

// AppendStruct appends the struct at p, described by t, at version: the
// printed appendTo method of a struct, read from its table. It fails as
// Java does, and as the printed code does, on a field the version lacks
// holding other than its default, a null the version cannot write, a
// string over MaxStringLen bytes, and unknown tags the version cannot
// write or that collide with known ones.
func AppendStruct(b []byte, t *Struct, p unsafe.Pointer, version int16) ([]byte, error) {
	return appendProgram(b, t.program(version), p, version)
}

func appendProgram(b []byte, pr *program, p unsafe.Pointer, version int16) ([]byte, error) {
	steps := pr.steps // kept in registers: stores through b cannot change it
	for i := range steps {
		s := &steps[i]
		v := unsafe.Add(p, s.off)
		switch s.op {
		case op(KindBool):
			b = AppendBool(b, *(*bool)(v))
		case op(KindInt8):
			b = append(b, *(*byte)(v))
		case op(KindInt16), op(KindUint16):
			b = binary.BigEndian.AppendUint16(b, *(*uint16)(v))
		case op(KindInt32), op(KindUint32):
			b = binary.BigEndian.AppendUint32(b, *(*uint32)(v))
		case op(KindInt64):
			b = binary.BigEndian.AppendUint64(b, *(*uint64)(v))
		case op(KindFloat64):
			b = binary.BigEndian.AppendUint64(b, math.Float64bits(*(*float64)(v)))
		case op(KindUUID):
			b = append(b, (*runtime.UUID)(v)[:]...)
		case opString:
			str := *(*string)(v)
			if len(str) > runtime.MaxStringLen {
				return b, StringTooLongError(s.f.Name)
			}
			b = AppendString(b, str, s.l)
		case opNullString:
			str := (*runtime.NullString)(v)
			switch {
			case !str.Valid:
				b = appendLen(b, -1, s.l, false)
			case len(str.Value) > runtime.MaxStringLen:
				return b, StringTooLongError(s.f.Name)
			default:
				b = AppendString(b, str.Value, s.l)
			}
		case opNullStringNotNull:
			str := (*runtime.NullString)(v)
			switch {
			case !str.Valid:
				return b, NullError(s.f.Name, version)
			case len(str.Value) > runtime.MaxStringLen:
				return b, StringTooLongError(s.f.Name)
			}
			b = AppendString(b, str.Value, s.l)
		case opBytes:
			b = AppendBytes(b, *(*[]byte)(v), s.l)
		case opNullBytes:
			b = AppendNullBytes(b, *(*[]byte)(v), s.l)
		case opNullBytesNotNull:
			if *(*[]byte)(v) == nil {
				return b, NullError(s.f.Name, version)
			}
			b = AppendBytes(b, *(*[]byte)(v), s.l)
		case opStruct:
			var err error
			if b, err = appendProgram(b, s.elem, v, version); err != nil {
				return b, Within(err, s.f.Name)
			}
		case opArray, opNullArray, opNullArrayNotNull:
			var err error
			if b, err = appendArray(b, s, v, version); err != nil {
				return b, err
			}
		case opAbsent:
			if notDefault(s.f, v) {
				return b, AbsentFieldError(s.f.Name, version, s.f.Fix)
			}
		}
	}
	if !pr.tags {
		return b, nil
	}
	tags := *(*runtime.Tags)(unsafe.Add(p, pr.tagsAt))
	if pr.flexible && len(tags) == 0 {
		return append(b, 0), nil
	}
	return AppendUnknownTags(b, tags, pr.maxTag, Lengths(pr.flexible))
}

// appendArray writes the array of the step s at v: its count (-1 for
// null), then each element; the error of a struct element names it.
func appendArray(b []byte, s *step, v unsafe.Pointer, version int16) ([]byte, error) {
	f, sl := s.f, (*slice)(v)
	if sl.data == nil && s.op != opArray {
		if s.op == opNullArrayNotNull {
			return b, NullError(f.Name, version)
		}
		return AppendArrayLen(b, -1, s.l), nil
	}
	b = AppendArrayLen(b, sl.len, s.l)
	switch f.Kind {
	case KindStruct:
		for i := range sl.len {
			var err error
			if b, err = appendProgram(b, s.elem, sl.elem(i, f.ElemSize), version); err != nil {
				return b, WithinElem(err, f.Name, i)
			}
		}
	case KindString:
		for _, str := range *(*[]string)(v) {
			if len(str) > runtime.MaxStringLen {
				return b, StringTooLongError(f.Name)
			}
			b = AppendString(b, str, s.l)
		}
	case KindBytes:
		for _, e := range *(*[][]byte)(v) {
			b = AppendBytes(b, e, s.l)
		}
	case KindInt32:
		for _, e := range *(*[]int32)(v) {
			b = AppendInt32(b, e)
		}
	default: // other fixed-width values, each a program of one step
		size := elemSize(f)
		for i := range sl.len {
			b, _ = appendProgram(b, s.elem, sl.elem(i, size), version)
		}
	}
	return b, nil
}

// elemSize is the Go size of an element of the array f.
func elemSize(f *Field) uintptr {
	switch f.Kind {
	case KindStruct:
		return f.ElemSize
	case KindBool, KindInt8:
		return 1
	case KindInt16, KindUint16:
		return 2
	case KindInt32, KindUint32:
		return 4
	case KindInt64, KindFloat64:
		return 8
	case KindUUID:
		return unsafe.Sizeof(runtime.UUID{})
	case KindString:
		return unsafe.Sizeof("")
	}
	return unsafe.Sizeof([]byte(nil))
}
