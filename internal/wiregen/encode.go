package wiregen

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// encoder serialises value trees of one message version the way Java's
// generated write methods do.
type encoder struct {
	version int16
	// messageFlexible are the message's flexible versions: they decide
	// whether structs end with a tag section, and the compactness of every
	// field without its own flexibleVersions.
	messageFlexible schema.Versions
	flexible        bool // messageFlexible contains version
}

func newEncoder(spec *schema.Spec, version int16) *encoder {
	return &encoder{
		version:         version,
		messageFlexible: spec.FlexibleVersions,
		flexible:        spec.FlexibleVersions.Contains(version),
	}
}

// writeStruct appends a struct body: its present untagged fields in
// declaration order, then, in flexible versions, its tag section.
func (e *encoder) writeStruct(b []byte, sv *structValue) []byte {
	var tagged []int // indexes of the tagged fields written
	for i, f := range sv.def.Fields {
		if !f.Versions.Contains(e.version) {
			continue
		}
		if f.TaggedAt(e.version) {
			if !isDefault(f, sv.fields[i], e.version) {
				tagged = append(tagged, i)
			}
			continue
		}
		b = e.writeField(b, f, sv.fields[i], false)
	}
	if !e.flexible {
		if len(sv.unknown) > 0 {
			panic("wiregen: unknown tagged fields in a non-flexible version")
		}
		return b
	}
	// Known tags in ascending tag order, then the unknown ones (already
	// ascending and above every known tag).
	sort.Slice(tagged, func(x, y int) bool {
		return sv.def.Fields[tagged[x]].Tag < sv.def.Fields[tagged[y]].Tag
	})
	b = appendUvarint(b, uint64(len(tagged)+len(sv.unknown)))
	for _, i := range tagged {
		f := sv.def.Fields[i]
		payload := e.writeField(nil, f, sv.fields[i], true)
		b = appendUvarint(b, uint64(f.Tag))
		b = appendUvarint(b, uint64(len(payload)))
		b = append(b, payload...)
	}
	for _, raw := range sv.unknown {
		b = appendUvarint(b, uint64(raw.tag))
		b = appendUvarint(b, uint64(len(raw.data)))
		b = append(b, raw.data...)
	}
	return b
}

// writeField appends a field's value. tagged is set for a tag payload, where
// a nullable struct's presence is a varint (0 null, 1 present) instead of
// the int8 marker (-1 null, 1 present) of an untagged one.
func (e *encoder) writeField(b []byte, f *schema.Field, v value, tagged bool) []byte {
	compact := f.FlexibleAt(e.messageFlexible, e.version)
	nullable := f.NullableAt(e.version)
	if v.null && !nullable {
		panic(fmt.Sprintf("wiregen: null value for %s, which is not nullable at version %d", f.Name, e.version))
	}
	t := f.Type
	switch {
	case t.Array:
		if v.null {
			return appendNullLength(b, compact, 4)
		}
		b = appendLength(b, compact, 4, len(v.elems))
		for _, el := range v.elems {
			b = e.writeElem(b, t.Kind, compact, el)
		}
		return b
	case t.Kind == schema.KindStruct:
		if nullable {
			switch {
			case tagged && v.null:
				return appendUvarint(b, 0)
			case tagged:
				b = appendUvarint(b, 1)
			case v.null:
				return append(b, 0xff)
			default:
				b = append(b, 0x01)
			}
		}
		return e.writeStruct(b, v.st)
	case v.null: // string, bytes, records
		width := 4
		if t.Kind == schema.KindString {
			width = 2
		}
		return appendNullLength(b, compact, width)
	}
	return e.writeElem(b, t.Kind, compact, v)
}

// writeElem appends a non-null value of a kind: a field's value or an array
// element. compact selects the length encoding of strings and bytes.
func (e *encoder) writeElem(b []byte, kind schema.Kind, compact bool, v value) []byte {
	switch kind {
	case schema.KindBool, schema.KindInt8:
		return append(b, byte(v.num))
	case schema.KindInt16, schema.KindUint16:
		return binary.BigEndian.AppendUint16(b, uint16(v.num))
	case schema.KindInt32, schema.KindUint32:
		return binary.BigEndian.AppendUint32(b, uint32(v.num))
	case schema.KindInt64:
		return binary.BigEndian.AppendUint64(b, uint64(v.num))
	case schema.KindFloat64:
		return binary.BigEndian.AppendUint64(b, math.Float64bits(v.float))
	case schema.KindUUID:
		return append(b, v.uuid[:]...)
	case schema.KindString:
		b = appendLength(b, compact, 2, len(v.str))
		return append(b, v.str...)
	case schema.KindBytes, schema.KindRecords:
		b = appendLength(b, compact, 4, len(v.bytes))
		return append(b, v.bytes...)
	case schema.KindStruct:
		return e.writeStruct(b, v.st)
	}
	panic(fmt.Sprintf("wiregen: unknown kind %v", kind))
}

// appendLength appends a length or count: uvarint(n+1) when compact, else a
// big-endian integer of width bytes (2 for strings, 4 otherwise).
func appendLength(b []byte, compact bool, width, n int) []byte {
	switch {
	case compact:
		return appendUvarint(b, uint64(n)+1)
	case width == 2:
		return binary.BigEndian.AppendUint16(b, uint16(n))
	default:
		return binary.BigEndian.AppendUint32(b, uint32(n))
	}
}

// appendNullLength appends the null length: uvarint 0 when compact, else -1
// as a big-endian integer of width bytes.
func appendNullLength(b []byte, compact bool, width int) []byte {
	switch {
	case compact:
		return appendUvarint(b, 0)
	case width == 2:
		return append(b, 0xff, 0xff)
	default:
		return append(b, 0xff, 0xff, 0xff, 0xff)
	}
}

// appendUvarint appends an unsigned varint: 7 bits per byte, low groups
// first, high bit set on every byte but the last.
func appendUvarint(b []byte, x uint64) []byte {
	return binary.AppendUvarint(b, x)
}
