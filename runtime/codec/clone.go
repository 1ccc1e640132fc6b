package codec

import (
	"reflect"
	"strings"
)

// For generated code: the deep copy behind every generated Clone method.
//
// It walks the value by reflection instead of being printed per struct:
// printed, Clone and its helpers were a sixth of the compiled text of a
// client package (docs/benchmarks.md), for a copy that runs when a message
// is kept, not per message decoded or encoded. The walk knows only what
// generated structs hold: numbers, bools, UUID arrays, strings, byte and
// other slices, pointers to structs, structs (NullString, Tags' elements).

// DeepCopy returns a deep copy of the struct m points to (nil for nil), in an
// interface holding the same pointer type: strings and byte slices are
// copied too, a nil slice stays nil and an empty one empty (the two encode
// differently where a field is nullable), and unexported fields are left at
// their zero values (a generated message's aliased flag: the copy points
// into no caller's buffer). It takes and returns an interface, not a type
// parameter: a generic function's dictionary per struct cost the compiler
// more than the copy it serves (docs/benchmarks.md).
func DeepCopy(m any) any {
	v := reflect.ValueOf(m)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return m
	}
	c := reflect.New(v.Type().Elem())
	copyDeep(c.Elem(), v.Elem())
	return c.Interface()
}

// copyDeep sets dst, a zero value, to a copy of src sharing no memory.
func copyDeep(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.String:
		dst.SetString(strings.Clone(src.String()))
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		n := src.Len()
		c := reflect.MakeSlice(src.Type(), n, n)
		if holdsReferences(src.Type().Elem()) {
			for i := 0; i < n; i++ {
				copyDeep(c.Index(i), src.Index(i))
			}
		} else {
			reflect.Copy(c, src)
		}
		dst.Set(c)
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		p := reflect.New(src.Type().Elem())
		copyDeep(p.Elem(), src.Elem())
		dst.Set(p)
	case reflect.Struct:
		t := src.Type()
		for i := 0; i < src.NumField(); i++ {
			if t.Field(i).IsExported() {
				copyDeep(dst.Field(i), src.Field(i))
			}
		}
	default: // numbers, bools, arrays of bytes (UUID)
		dst.Set(src)
	}
}

// holdsReferences reports whether values of t point to memory (and must be
// copied one by one) rather than being copied whole.
func holdsReferences(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.String, reflect.Slice, reflect.Pointer, reflect.Map, reflect.Interface:
		return true
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if holdsReferences(t.Field(i).Type) {
				return true
			}
		}
	case reflect.Array:
		return holdsReferences(t.Elem())
	}
	return false
}

// Clone is DeepCopy for code generated before it.
func Clone[P any](m P) P { return DeepCopy(m).(P) }
