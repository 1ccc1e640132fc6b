package codec

import (
	"encoding/binary"

	"github.com/kafkagen/kafkagen/runtime"
)

// Out-of-line calls. Code that runs once per message (a message's own
// fields, structs used as single values) calls these instead of the
// inlinable functions and methods they wrap: a call costs a few
// nanoseconds, once per message, and compiles to a fraction of an inlined
// copy. Code that runs once per array element inlines the originals.
// Each is the function or Decoder method of its name without NoInline
// (Read...NoInline: the Decoder method without Read).

// ReadBoolNoInline is d.Bool.
//
//go:noinline
func ReadBoolNoInline(d *Decoder, off int, field string) (bool, int) { return d.Bool(off, field) }

// ReadInt8NoInline is d.Int8.
//
//go:noinline
func ReadInt8NoInline(d *Decoder, off int, field string) (int8, int) { return d.Int8(off, field) }

// ReadInt16NoInline is d.Int16.
//
//go:noinline
func ReadInt16NoInline(d *Decoder, off int, field string) (int16, int) { return d.Int16(off, field) }

// ReadUint16NoInline is d.Uint16.
//
//go:noinline
func ReadUint16NoInline(d *Decoder, off int, field string) (uint16, int) { return d.Uint16(off, field) }

// ReadInt32NoInline is d.Int32.
//
//go:noinline
func ReadInt32NoInline(d *Decoder, off int, field string) (int32, int) { return d.Int32(off, field) }

// ReadUint32NoInline is d.Uint32.
//
//go:noinline
func ReadUint32NoInline(d *Decoder, off int, field string) (uint32, int) { return d.Uint32(off, field) }

// ReadInt64NoInline is d.Int64.
//
//go:noinline
func ReadInt64NoInline(d *Decoder, off int, field string) (int64, int) { return d.Int64(off, field) }

// ReadFloat64NoInline is d.Float64.
//
//go:noinline
func ReadFloat64NoInline(d *Decoder, off int, field string) (float64, int) {
	return d.Float64(off, field)
}

// ReadUUIDNoInline is d.UUID.
//
//go:noinline
func ReadUUIDNoInline(d *Decoder, off int, field string) (runtime.UUID, int) {
	return d.UUID(off, field)
}

// ReadTagsNoInline is d.Tags.
//
//go:noinline
func ReadTagsNoInline(d *Decoder, off int, tags *runtime.Tags) int { return d.Tags(off, tags) }

// AppendBoolNoInline is AppendBool.
//
//go:noinline
func AppendBoolNoInline(b []byte, v bool) []byte { return AppendBool(b, v) }

// AppendInt8NoInline is AppendInt8.
//
//go:noinline
func AppendInt8NoInline(b []byte, v int8) []byte { return AppendInt8(b, v) }

// AppendInt16NoInline is AppendInt16.
//
//go:noinline
func AppendInt16NoInline(b []byte, v int16) []byte { return AppendInt16(b, v) }

// AppendUint16NoInline is AppendUint16.
//
//go:noinline
func AppendUint16NoInline(b []byte, v uint16) []byte { return AppendUint16(b, v) }

// AppendInt32NoInline is AppendInt32.
//
//go:noinline
func AppendInt32NoInline(b []byte, v int32) []byte { return AppendInt32(b, v) }

// AppendUint32NoInline is AppendUint32.
//
//go:noinline
func AppendUint32NoInline(b []byte, v uint32) []byte { return AppendUint32(b, v) }

// AppendInt64NoInline is AppendInt64.
//
//go:noinline
func AppendInt64NoInline(b []byte, v int64) []byte { return AppendInt64(b, v) }

// AppendFloat64NoInline is AppendFloat64.
//
//go:noinline
func AppendFloat64NoInline(b []byte, v float64) []byte { return AppendFloat64(b, v) }

// AppendUUIDNoInline is AppendUUID.
//
//go:noinline
func AppendUUIDNoInline(b []byte, v runtime.UUID) []byte { return AppendUUID(b, v) }

// AppendStringNoInline is AppendString.
//
//go:noinline
func AppendStringNoInline(b []byte, s string, l Lengths) []byte { return AppendString(b, s, l) }

// AppendArrayLenNoInline is AppendArrayLen.
//
//go:noinline
func AppendArrayLenNoInline(b []byte, n int, l Lengths) []byte { return AppendArrayLen(b, n, l) }

// AppendUvarintNoInline is binary.AppendUvarint.
//
//go:noinline
func AppendUvarintNoInline(b []byte, v uint64) []byte { return binary.AppendUvarint(b, v) }

// ExtendNoInline is Extend.
//
//go:noinline
func ExtendNoInline(b []byte, n int) ([]byte, []byte) { return Extend(b, n) }

// GrowBoolsNoInline is Grow of a []bool.
//
//go:noinline
func GrowBoolsNoInline(s []bool, n int) []bool { return Grow(s, n) }

// GrowInt8sNoInline is Grow of a []int8.
//
//go:noinline
func GrowInt8sNoInline(s []int8, n int) []int8 { return Grow(s, n) }

// GrowInt16sNoInline is Grow of a []int16.
//
//go:noinline
func GrowInt16sNoInline(s []int16, n int) []int16 { return Grow(s, n) }

// GrowUint16sNoInline is Grow of a []uint16.
//
//go:noinline
func GrowUint16sNoInline(s []uint16, n int) []uint16 { return Grow(s, n) }

// GrowInt32sNoInline is Grow of a []int32.
//
//go:noinline
func GrowInt32sNoInline(s []int32, n int) []int32 { return Grow(s, n) }

// GrowUint32sNoInline is Grow of a []uint32.
//
//go:noinline
func GrowUint32sNoInline(s []uint32, n int) []uint32 { return Grow(s, n) }

// GrowInt64sNoInline is Grow of a []int64.
//
//go:noinline
func GrowInt64sNoInline(s []int64, n int) []int64 { return Grow(s, n) }

// GrowFloat64sNoInline is Grow of a []float64.
//
//go:noinline
func GrowFloat64sNoInline(s []float64, n int) []float64 { return Grow(s, n) }

// GrowUUIDsNoInline is Grow of a []runtime.UUID.
//
//go:noinline
func GrowUUIDsNoInline(s []runtime.UUID, n int) []runtime.UUID { return Grow(s, n) }

// GrowStringsNoInline is Grow of a []string.
//
//go:noinline
func GrowStringsNoInline(s []string, n int) []string { return Grow(s, n) }

// GrowBytesNoInline is Grow of a [][]byte.
//
//go:noinline
func GrowBytesNoInline(s [][]byte, n int) [][]byte { return Grow(s, n) }
