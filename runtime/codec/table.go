package codec

import (
	"reflect"
	"sync/atomic"
	"unsafe"

	"github.com/kafkagen/kafkagen/runtime"
)

// For generated code: the tables of the structs whose encode and decode
// are not printed method by method but read from a table (Struct) by
// DecodeStruct and AppendStruct (table_decode.go, table_encode.go). The
// generator gives the APIs off the data path tables, which compile in a
// fraction of the time of printed methods (docs/benchmarks.md, "Tables
// for the APIs off the data path"); the two interpreters read and write
// exactly what the printed methods do, in the same order, and fail with the
// same errors.

// Struct describes a generated struct: its fields in wire order and its
// tag section. Only the features the generator gives tables to are here:
// no tagged field is known, no struct is nullable, and no field is records.
type Struct struct {
	Fields []Field
	// HasTags: the struct has UnknownTags (at offset Tags), written in
	// the tag section at the Flexible versions; MaxTag is the highest tag
	// the specs define (-1: none), below which an unknown tag is an error.
	HasTags  bool
	Tags     uintptr
	Flexible Versions
	MaxTag   int

	// programs holds, once a version is first encoded or decoded, the
	// table settled for each version (program).
	programs atomic.Pointer[[]*program]
}

// Versions is the range Lo to Hi, both included; Lo > Hi is empty.
type Versions struct{ Lo, Hi int16 }

// Has reports whether v is in the range.
func (r Versions) Has(v int16) bool { return r.Lo <= v && v <= r.Hi }

// Kind is the Go type of a field (of an array's elements, for an array).
type Kind uint8

// The kinds of fields: bool, the integers, float64, runtime.UUID, string
// (runtime.NullString where the field is nullable), []byte, and a struct
// held by value.
const (
	KindBool Kind = iota + 1
	KindInt8
	KindInt16
	KindUint16
	KindInt32
	KindUint32
	KindInt64
	KindFloat64
	KindUUID
	KindString
	KindBytes
	KindStruct
)

// Field is one field of a Struct.
type Field struct {
	Name   string  // the spec's name, as errors give it
	Offset uintptr // of the Go field in its struct
	Kind   Kind
	Array  bool
	// InPlace: the versions that have the field. The others hold its
	// default, and writing anything else at them fails unless the field
	// is Ignorable, with AbsentFieldError's Fix.
	InPlace   Versions
	Ignorable bool
	Fix       string
	// Nullable: the Go type can be null (runtime.NullString, a nil slice),
	// and NullAt are the versions that may write null.
	Nullable bool
	NullAt   Versions
	// Compact: the versions whose lengths and counts are compact.
	Compact Versions
	// MinElemSize is the fewest bytes an array element takes, which a count
	// is checked against before anything is allocated.
	MinElemSize int
	// Elem is the table of a struct or of an array of structs' elements,
	// ElemSize their Go size and Slice a (*[]T)(nil) of an array of them,
	// whose type grows the array.
	Elem     *Struct
	ElemSize uintptr
	Slice    any
	Default  Default
}

// Default is a field's default: Int for the integers and bool (1 true),
// Float, String, or Null where the default is null.
type Default struct {
	Int    int64
	Float  float64
	String string
	Null   bool
}

// program is a Struct settled for one version: what to do with each field
// in wire order, with the version's conditions (in place or not, null
// allowed or not, compact lengths or not) decided once, so that the
// interpreters' loops do no more per field than a switch on op.
type program struct {
	steps []step
	// tags: the struct has UnknownTags, at offset tagsAt; flexible: the
	// version writes a tag section.
	tags, flexible bool
	tagsAt         uintptr
	maxTag         int
}

// step is one field of a program; elem is the program of its struct, or of
// its array's elements, at the same version (for fixed-width elements, one
// of scalarPrograms).
type step struct {
	op   op
	l    Lengths
	off  uintptr
	f    *Field
	elem *program
}

// op is what a step does with its field.
type op uint8

const (
	// A fixed-width value of each Kind, KindBool to KindUUID: the ops share
	// the kinds' numbers.
	opString            op = iota + op(KindStruct) + 1
	opNullString           // runtime.NullString, null allowed
	opNullStringNotNull    // runtime.NullString at a version without null
	opBytes
	opNullBytes
	opNullBytesNotNull
	opStruct
	opArray
	opNullArray        // nullable array, null allowed
	opNullArrayNotNull // nullable array at a version without null
	opAbsent           // not at this version: default, checked on write
	opAbsentIgnorable  // not at this version: default, dropped on write
)

// program returns t settled for version.
func (t *Struct) program(version int16) *program {
	if ps := t.programs.Load(); ps != nil && int(version) < len(*ps) {
		return (*ps)[version]
	}
	if version < 0 {
		return t.settle(version)
	}
	ps := make([]*program, int(version)+1)
	if old := t.programs.Load(); old != nil {
		copy(ps, *old)
	}
	for v := range ps {
		if ps[v] == nil {
			ps[v] = t.settle(int16(v))
		}
	}
	t.programs.Store(&ps) // a concurrent first use stores the same programs
	return ps[version]
}

// settle builds t's program at version.
func (t *Struct) settle(version int16) *program {
	p := &program{tags: t.HasTags, flexible: t.Flexible.Has(version), tagsAt: t.Tags, maxTag: t.MaxTag}
	for i := range t.Fields {
		f := &t.Fields[i]
		s := step{l: f.lengths(version), off: f.Offset, f: f}
		null := f.NullAt.Has(version)
		switch {
		case !f.InPlace.Has(version) && f.Ignorable:
			s.op = opAbsentIgnorable
		case !f.InPlace.Has(version):
			s.op = opAbsent
		case f.Array && !f.Nullable:
			s.op = opArray
		case f.Array && null:
			s.op = opNullArray
		case f.Array:
			s.op = opNullArrayNotNull
		case f.Kind == KindString && !f.Nullable:
			s.op = opString
		case f.Kind == KindString && null:
			s.op = opNullString
		case f.Kind == KindString:
			s.op = opNullStringNotNull
		case f.Kind == KindBytes && !f.Nullable:
			s.op = opBytes
		case f.Kind == KindBytes && null:
			s.op = opNullBytes
		case f.Kind == KindBytes:
			s.op = opNullBytesNotNull
		case f.Kind == KindStruct:
			s.op = opStruct
		default:
			s.op = op(f.Kind)
		}
		switch {
		case f.Kind == KindStruct && f.InPlace.Has(version):
			s.elem = f.Elem.program(version)
		case f.Array && f.Kind < KindString:
			s.elem = scalarPrograms[f.Kind]
		}
		p.steps = append(p.steps, s)
	}
	return p
}

// scalarPrograms are the programs of one fixed-width value, by kind, which
// encode the elements of an array of them.
var scalarPrograms = func() (ps [KindString]*program) {
	for k := KindBool; k < KindString; k++ {
		ps[k] = &program{steps: []step{{op: op(k)}}}
	}
	return ps
}()

// slice is the layout of every Go slice, for the arrays whose element type
// only the table knows.
type slice struct {
	data     unsafe.Pointer
	len, cap int
}

// at is the address of the field at off in the struct at p.
func at(p unsafe.Pointer, off uintptr) unsafe.Pointer { return unsafe.Add(p, off) }

// elem is the address of element i of the slice s of elements of size.
func (s *slice) elem(i int, size uintptr) unsafe.Pointer {
	return unsafe.Add(s.data, uintptr(i)*size)
}

// growStructs gives the array of structs at p the length n (-1: null),
// reusing its capacity and keeping the elements past its length for reuse,
// as generated decode does with append(make([]T, 0, n), s[:cap(s)]...).
func growStructs(f *Field, p unsafe.Pointer, n int) {
	s := (*slice)(p)
	switch {
	case n < 0:
		setNil(p)
	case n > s.cap:
		v := reflect.NewAt(reflect.TypeOf(f.Slice).Elem(), p).Elem()
		v.SetLen(s.cap) // the elements past the length move too
		v.Grow(n - s.cap)
		v.SetLen(n)
	case s.data == nil:
		setEmpty(p) // an empty array is not null
	default:
		s.len = n
	}
}

// setDefault gives the field at p its default, keeping slice capacity: the
// printed SetDefault's statements.
func setDefault(f *Field, p unsafe.Pointer) {
	d := &f.Default
	if f.Array || f.Kind == KindBytes {
		s := (*slice)(p)
		switch {
		case d.Null:
			setNil(p)
		case f.Nullable && s.data == nil:
			setEmpty(p)
		default:
			s.len = 0
		}
		return
	}
	switch f.Kind {
	case KindBool:
		*(*bool)(p) = d.Int != 0
	case KindInt8:
		*(*int8)(p) = int8(d.Int)
	case KindInt16:
		*(*int16)(p) = int16(d.Int)
	case KindUint16:
		*(*uint16)(p) = uint16(d.Int)
	case KindInt32:
		*(*int32)(p) = int32(d.Int)
	case KindUint32:
		*(*uint32)(p) = uint32(d.Int)
	case KindInt64:
		*(*int64)(p) = d.Int
	case KindFloat64:
		*(*float64)(p) = d.Float
	case KindUUID:
		*(*runtime.UUID)(p) = runtime.UUID{}
	case KindString:
		if f.Nullable {
			*(*runtime.NullString)(p) = runtime.NullString{Valid: !d.Null, Value: d.String}
		} else {
			*(*string)(p) = d.String
		}
	case KindStruct:
		resetStruct(f.Elem, p)
	}
}

// setNil makes the slice field at p nil, and setEmpty empty but not nil.
func setNil(p unsafe.Pointer) {
	s := (*slice)(p)
	s.data, s.len, s.cap = nil, 0, 0
}

func setEmpty(p unsafe.Pointer) {
	s := (*slice)(p)
	s.data, s.len, s.cap = unsafe.Pointer(&emptyArray), 0, 0
}

// emptyArray is what an empty, non-nil slice points to.
var emptyArray [0]uint64

// resetStruct is the printed Reset: every field at its default, capacity
// kept.
func resetStruct(t *Struct, p unsafe.Pointer) {
	for i := range t.Fields {
		setDefault(&t.Fields[i], at(p, t.Fields[i].Offset))
	}
	if t.HasTags {
		(*slice)(at(p, t.Tags)).len = 0
	}
}

// isDefault is the printed isDefault: every field at its default and no
// unknown tag.
func isDefault(t *Struct, p unsafe.Pointer) bool {
	for i := range t.Fields {
		if notDefault(&t.Fields[i], at(p, t.Fields[i].Offset)) {
			return false
		}
	}
	return !t.HasTags || (*slice)(at(p, t.Tags)).len == 0
}

// notDefault is the printed NotDefault: whether the field at p holds
// something other than its default, null included where null is not the
// default.
func notDefault(f *Field, p unsafe.Pointer) bool {
	d := &f.Default
	if f.Array || f.Kind == KindBytes {
		s := (*slice)(p)
		if d.Null {
			return s.data != nil
		}
		return f.Nullable && s.data == nil || s.len != 0
	}
	switch f.Kind {
	case KindBool:
		return *(*bool)(p) != (d.Int != 0)
	case KindInt8:
		return *(*int8)(p) != int8(d.Int)
	case KindInt16:
		return *(*int16)(p) != int16(d.Int)
	case KindUint16:
		return *(*uint16)(p) != uint16(d.Int)
	case KindInt32:
		return *(*int32)(p) != int32(d.Int)
	case KindUint32:
		return *(*uint32)(p) != uint32(d.Int)
	case KindInt64:
		return *(*int64)(p) != d.Int
	case KindFloat64:
		return *(*float64)(p) != d.Float
	case KindUUID:
		return *(*runtime.UUID)(p) != runtime.UUID{}
	case KindString:
		if !f.Nullable {
			return *(*string)(p) != d.String
		}
		s := (*runtime.NullString)(p)
		if d.Null {
			return s.Valid
		}
		return !s.Valid || s.Value != d.String
	case KindStruct:
		return !isDefault(f.Elem, p)
	}
	return false
}

// lengths is how f's lengths and counts are written at version.
func (f *Field) lengths(version int16) Lengths { return Lengths(f.Compact.Has(version)) }
