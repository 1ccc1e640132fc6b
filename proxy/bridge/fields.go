package bridge

import (
	"fmt"
	"reflect"
)

// Adapters read and write generated messages by their spec field names:
// kafkagen names a Go field after its spec field (TopicData, Records,
// ErrorCode), whichever package generated it.

// fieldError names a field a message lacks: a generated package whose
// names differ from the specs', never a client's input.
type fieldError struct{ typ, field string }

func (e *fieldError) Error() string {
	return fmt.Sprintf("bridge: %s has no field %s (not a kafkagen-generated message?)", e.typ, e.field)
}

// fields reads the fields of generated structs by name, keeping the first
// missing one as its error, so that adapters read straight through.
type fields struct{ err error }

// of is the struct a message pointer points to.
func structOf(m any) reflect.Value { return reflect.ValueOf(m).Elem() }

// get is v's field name, or an invalid Value (and f.err) when it has none.
func (f *fields) get(v reflect.Value, name string) reflect.Value {
	if !v.IsValid() {
		return v
	}
	fv := v.FieldByName(name)
	if !fv.IsValid() && f.err == nil {
		f.err = &fieldError{typ: v.Type().Name(), field: name}
	}
	return fv
}

// each calls fn with every element of the slice field name of v.
func (f *fields) each(v reflect.Value, name string, fn func(reflect.Value)) {
	s := f.get(v, name)
	if !s.IsValid() {
		return
	}
	for i := 0; i < s.Len() && f.err == nil; i++ {
		fn(s.Index(i))
	}
}

func (f *fields) int64(v reflect.Value, name string) int64 {
	if fv := f.get(v, name); fv.IsValid() {
		return fv.Int()
	}
	return 0
}

func (f *fields) setInt(v reflect.Value, name string, x int64) {
	if fv := f.get(v, name); fv.IsValid() {
		fv.SetInt(x)
	}
}

func (f *fields) bytes(v reflect.Value, name string) []byte {
	if fv := f.get(v, name); fv.IsValid() {
		return fv.Bytes()
	}
	return nil
}

func (f *fields) setBytes(v reflect.Value, name string, b []byte) {
	if fv := f.get(v, name); fv.IsValid() {
		fv.SetBytes(b)
	}
}

func (f *fields) str(v reflect.Value, name string) string {
	if fv := f.get(v, name); fv.IsValid() {
		return fv.String()
	}
	return ""
}

// zero sets field name of v to its Go zero value (nil for a slice).
func (f *fields) zero(v reflect.Value, name string) {
	if fv := f.get(v, name); fv.IsValid() {
		fv.SetZero()
	}
}

// newElem is a new element of slice type s holding its spec defaults:
// generated structs have a Reset that sets them.
func newElem(s reflect.Type) reflect.Value {
	p := reflect.New(s.Elem())
	if r, ok := p.Interface().(interface{ Reset() }); ok {
		r.Reset()
	}
	return p.Elem()
}
