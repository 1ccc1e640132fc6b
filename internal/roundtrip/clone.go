package roundtrip

import (
	"bytes"
	"fmt"
	"reflect"

	"github.com/kafkagen/kafkagen/runtime"
)

// garbage is what the buffer an aliased message was decoded from is
// overwritten with: a byte that no sample string or length is made of only.
const garbage = 0xa5

// checkClone checks Clone against src at version: a clone of a message
// decoded aliased from a buffer still encodes to src once the buffer is
// overwritten, and a clone of a message decoded with copies equals it and
// still encodes to src once everything the original holds has been
// overwritten in place (so a clone sharing any slice or byte buffer with it
// would change too).
func checkClone(newMsg func() runtime.Message, src []byte, version int16) error {
	buf := bytes.Clone(src)
	aliased := newMsg()
	if _, err := aliased.DecodeAliased(buf, version); err != nil {
		return fmt.Errorf("DecodeAliased before Clone: %w", err)
	}
	c, err := clone(aliased)
	if err != nil {
		return err
	}
	for i := range buf {
		buf[i] = garbage
	}
	if out, err := c.AppendTo(nil, version); err != nil || !bytes.Equal(out, src) {
		return fmt.Errorf("a clone of an aliased message after its buffer was overwritten: %v\n got %x\nwant %x", err, out, src)
	}

	orig := newMsg()
	if _, err := orig.Decode(src, version); err != nil {
		return fmt.Errorf("Decode before Clone: %w", err)
	}
	if c, err = clone(orig); err != nil {
		return err
	}
	if !Equal(orig, c) {
		return fmt.Errorf("Clone differs from its original:\n%+v\n%+v", orig, c)
	}
	scribble(reflect.ValueOf(orig))
	if out, err := c.AppendTo(nil, version); err != nil || !bytes.Equal(out, src) {
		return fmt.Errorf("a clone after its original was overwritten: %v\n got %x\nwant %x", err, out, src)
	}
	return nil
}

// clone calls m's generated Clone, whose result has m's own type (so it is
// not part of runtime.Message).
func clone(m runtime.Message) (runtime.Message, error) {
	method := reflect.ValueOf(m).MethodByName("Clone")
	if !method.IsValid() {
		return nil, fmt.Errorf("%T has no Clone method", m)
	}
	c, ok := method.Call(nil)[0].Interface().(runtime.Message)
	if !ok || reflect.ValueOf(c).Pointer() == reflect.ValueOf(m).Pointer() {
		return nil, fmt.Errorf("%T.Clone returned %T, not a new message of the same type", m, c)
	}
	return c, nil
}

// scribble overwrites every exported value v holds, in place: the elements
// of slices through their backing arrays, the bytes of byte slices, the
// values behind pointers.
func scribble(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			scribble(v.Elem())
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				scribble(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			scribble(v.Index(i))
		}
	case reflect.String:
		v.SetString("scribbled")
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(^v.Int())
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(^v.Uint())
	case reflect.Float64:
		v.SetFloat(v.Float() + 1)
	}
}
