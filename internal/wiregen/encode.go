package wiregen

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// encoder serialises value trees of one message version the way Java's
// generated write methods do.
type encoder struct {
	message string
	version int16
	// messageFlexible are the message's flexible versions: they decide
	// whether structs end with a tag section, and the compactness of every
	// field without its own flexibleVersions.
	messageFlexible schema.Versions
	flexible        bool // messageFlexible contains version
	// java turns on Java's write checks, for trees that may hold values the
	// version cannot carry (Message.Encode): a non-ignorable field absent
	// from the version must hold its default, null only where nullable,
	// unknown tags only in flexible versions, strings at most 0x7fff bytes.
	// The first failure is kept in err and stops the encoding. java also
	// makes a struct equal its default only when every field does, those
	// absent from the version included (Java's equals). Without java, the
	// first three are panics, and absent fields are not looked at.
	java bool
	err  *WriteError
	// path holds the enclosing field names ("Topics[0]", "Cursor") while
	// java is set, for naming a failing field.
	path []string
}

func newEncoder(spec *schema.Spec, version int16) *encoder {
	return &encoder{
		message:         spec.Name,
		version:         version,
		messageFlexible: spec.FlexibleVersions,
		flexible:        spec.FlexibleVersions.Contains(version),
	}
}

// fail records the first write error, naming field (a spec field name, ""
// for the current struct itself) under the enclosing path.
func (e *encoder) fail(field string, reason Reason) {
	if e.err != nil {
		return
	}
	parts := append([]string(nil), e.path...)
	if field != "" {
		parts = append(parts, field)
	}
	e.err = &WriteError{Message: e.message, Version: e.version, FieldPath: strings.Join(parts, "."), Reason: reason}
}

// isDefault is the omission test of a tagged field: Java's, comparing
// every field of a struct, when java is set.
func (e *encoder) isDefault(f *schema.Field, v value) bool {
	if e.java {
		return isJavaDefault(f, v)
	}
	return isDefault(f, v, e.version)
}

// writeStruct appends a struct body: its present untagged fields in
// declaration order, then, in flexible versions, its tag section. With
// java, fields absent from the version are checked in declaration order
// too, as Java's write method does.
func (e *encoder) writeStruct(b []byte, sv *structValue) []byte {
	var tagged []int // indexes of the tagged fields written
	for i, f := range sv.def.Fields {
		if !f.Versions.Contains(e.version) {
			if e.java && !f.Ignorable && !isJavaDefault(f, sv.fields[i]) {
				e.fail(f.Name, ReasonNonDefault)
				return b
			}
			continue
		}
		if f.TaggedAt(e.version) {
			if !e.isDefault(f, sv.fields[i]) {
				tagged = append(tagged, i)
			}
			continue
		}
		if b = e.writeField(b, f, sv.fields[i], false); e.err != nil {
			return b
		}
	}
	if !e.flexible {
		if len(sv.unknown) > 0 {
			if !e.java {
				panic("wiregen: unknown tagged fields in a non-flexible version")
			}
			e.fail("", ReasonTaggedFields)
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
		if e.err != nil {
			return b
		}
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

// writeSub appends a nested struct under the path segment seg.
func (e *encoder) writeSub(b []byte, seg string, sv *structValue) []byte {
	if !e.java {
		return e.writeStruct(b, sv)
	}
	e.path = append(e.path, seg)
	b = e.writeStruct(b, sv)
	e.path = e.path[:len(e.path)-1]
	return b
}

// writeField appends a field's value. tagged is set for a tag payload, where
// a nullable struct's presence is a varint (0 null, 1 present) instead of
// the int8 marker (-1 null, 1 present) of an untagged one.
func (e *encoder) writeField(b []byte, f *schema.Field, v value, tagged bool) []byte {
	compact := f.FlexibleAt(e.messageFlexible, e.version)
	nullable := f.NullableAt(e.version)
	if v.null && !nullable {
		if !e.java {
			panic(fmt.Sprintf("wiregen: null value for %s, which is not nullable at version %d", f.Name, e.version))
		}
		e.fail(f.Name, ReasonNull)
		return b
	}
	if e.java && !v.null && e.tooLong(f, v) {
		e.fail(f.Name, ReasonStringTooLong)
		return b
	}
	t := f.Type
	switch {
	case t.Array:
		if v.null {
			return appendNullLength(b, compact, 4)
		}
		b = appendLength(b, compact, 4, len(v.elems))
		for i, el := range v.elems {
			if t.Kind == schema.KindStruct {
				b = e.writeSub(b, fmt.Sprintf("%s[%d]", f.Name, i), el.st)
			} else {
				b = e.writeElem(b, t.Kind, compact, el)
			}
			if e.err != nil {
				return b
			}
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
		return e.writeSub(b, f.Name, v.st)
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

// tooLong reports a string value, or a string array element, over Java's
// limit of 0x7fff bytes.
func (e *encoder) tooLong(f *schema.Field, v value) bool {
	if f.Type.Kind != schema.KindString {
		return false
	}
	if !f.Type.Array {
		return len(v.str) > maxStringLen
	}
	for _, el := range v.elems {
		if len(el.str) > maxStringLen {
			return true
		}
	}
	return false
}

// maxStringLen is the longest string Java writes, in bytes of UTF-8.
const maxStringLen = 0x7fff

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
