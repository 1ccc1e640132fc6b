// Package roundtrip checks a generated message against one canonical
// encoding: decoding consumes every byte, re-encoding gives the same bytes,
// Size is exact, AppendTo keeps what dst held, Decode and DecodeAliased
// agree, a reused message decodes like a fresh one, and a Clone shares no
// memory with its original (clone.go).
package roundtrip

import (
	"bytes"
	"fmt"
	"reflect"

	"github.com/kafkagen/kafkagen/runtime"
)

// prefix is what AppendTo must leave untouched in front of the encoding.
var prefix = []byte("kafkagen-prefix")

// Check runs every round-trip property of src at version. newMsg returns a
// fresh message; used is a message of the same type that was last decoded
// at another version (or nil), and is decoded into again.
func Check(newMsg func() runtime.Message, used runtime.Message, src []byte, version int16) error {
	fresh := newMsg()
	n, err := fresh.Decode(src, version)
	if err != nil {
		return fmt.Errorf("Decode: %w", err)
	}
	if n != len(src) {
		return fmt.Errorf("Decode consumed %d of %d bytes", n, len(src))
	}
	if size := fresh.Size(version); size != len(src) {
		return fmt.Errorf("Size = %d, encoding has %d bytes", size, len(src))
	}
	dst := append(make([]byte, 0, len(prefix)+1), prefix...) // forces a grow
	out, err := fresh.AppendTo(dst, version)
	if err != nil {
		return fmt.Errorf("AppendTo: %w", err)
	}
	if !bytes.Equal(out[:len(prefix)], prefix) {
		return fmt.Errorf("AppendTo changed dst[:len]: %q", out[:len(prefix)])
	}
	if !bytes.Equal(out[len(prefix):], src) {
		return fmt.Errorf("re-encoded bytes differ:\n got %x\nwant %x", out[len(prefix):], src)
	}

	aliased := newMsg()
	n, err = aliased.DecodeAliased(src, version)
	if err != nil || n != len(src) {
		return fmt.Errorf("DecodeAliased: %d of %d bytes, %v", n, len(src), err)
	}
	if !Equal(fresh, aliased) {
		return fmt.Errorf("Decode and DecodeAliased disagree:\n%+v\n%+v", fresh, aliased)
	}
	if out, err = aliased.AppendTo(nil, version); err != nil || !bytes.Equal(out, src) {
		return fmt.Errorf("re-encoding after DecodeAliased: %v\n got %x\nwant %x", err, out, src)
	}

	if err := checkClone(newMsg, src, version); err != nil {
		return fmt.Errorf("Clone: %w", err)
	}

	if used != nil {
		n, err = used.Decode(src, version)
		if err != nil || n != len(src) {
			return fmt.Errorf("Decode into a used message: %d of %d bytes, %v", n, len(src), err)
		}
		if !Equal(fresh, used) {
			return fmt.Errorf("decoding into a used message differs from a fresh one:\n%+v\n%+v", fresh, used)
		}
		if out, err = used.AppendTo(nil, version); err != nil || !bytes.Equal(out, src) {
			return fmt.Errorf("re-encoding a reused message: %v\n got %x\nwant %x", err, out, src)
		}
	}
	return nil
}

// Equal compares two messages field by field. Unexported fields are
// skipped, and a nil slice equals an empty one: which of the two a
// non-nullable field holds is not observable on the wire, while for nullable
// fields the byte comparison of Check tells null from empty.
func Equal(a, b any) bool {
	return equal(reflect.ValueOf(a), reflect.ValueOf(b))
}

func equal(a, b reflect.Value) bool {
	if a.Kind() != b.Kind() {
		return false
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return equal(a.Elem(), b.Elem())
	case reflect.Struct:
		t := a.Type()
		for i := 0; i < a.NumField(); i++ {
			if !t.Field(i).IsExported() {
				continue
			}
			if !equal(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Slice:
		if a.Len() != b.Len() {
			return false
		}
		if a.Type().Elem().Kind() == reflect.Uint8 {
			return bytes.Equal(a.Bytes(), b.Bytes())
		}
		for i := 0; i < a.Len(); i++ {
			if !equal(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Float32, reflect.Float64:
		x, y := a.Float(), b.Float()
		return x == y || x != x && y != y // NaN equals NaN here
	default:
		return a.Interface() == b.Interface()
	}
}
