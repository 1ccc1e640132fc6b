package wiregen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"unicode/utf8"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// value is one field value of the tree. Which members are meaningful depends
// on the field's type.
type value struct {
	null  bool         // strings, bytes, records, arrays and structs
	num   int64        // bool (0 or 1), int8, int16, uint16, int32, uint32, int64
	float float64      // float64
	str   string       // string
	bytes []byte       // bytes and records
	uuid  [16]byte     // uuid
	elems []value      // array elements (never null)
	st    *structValue // struct
}

// structValue is one struct of the tree.
type structValue struct {
	def *schema.Struct
	// fields holds one value per def.Fields entry. A generated tree holds
	// the default of every field absent at its version, as a decoder leaves
	// it (trees built by hand may leave them zero; only Message.Encode looks
	// at them).
	fields []value
	// unknown are unknown tagged fields, in ascending tag order, all above
	// every tag def defines. Only set in flexible versions.
	unknown []rawTag
}

// rawTag is an unknown tagged field: its tag and raw payload.
type rawTag struct {
	tag  int
	data []byte
}

// generator makes random value trees for one message version.
type generator struct {
	rng      *rand.Rand
	opts     Options
	version  int16
	flexible bool // the message's flexible versions contain version
}

// chance reports true with probability 1/n.
func (g *generator) chance(n int) bool { return g.rng.IntN(n) == 0 }

// genStruct makes a struct whose present fields all hold values.
func (g *generator) genStruct(st *schema.Struct) *structValue {
	sv := &structValue{def: st, fields: make([]value, len(st.Fields))}
	for i, f := range st.Fields {
		if f.Versions.Contains(g.version) {
			sv.fields[i] = g.genField(f)
		} else {
			sv.fields[i] = defaultValue(f, g.version)
		}
	}
	if g.flexible && g.opts.UnknownTags && g.chance(4) {
		sv.unknown = g.genUnknownTags(st)
	}
	return sv
}

// genField makes a value for a field present at the version. A tagged field
// is given its default half of the time, so that both sides of the omission
// rule are exercised.
func (g *generator) genField(f *schema.Field) value {
	if f.TaggedAt(g.version) && g.chance(2) {
		if d := defaultValue(f, g.version); encodable(f, d, g.version) {
			return d
		}
	}
	return g.randomValue(f)
}

// encodable reports whether v is a value the field can hold at version: null
// only where the field is nullable (a records default is null even where it
// is not), no NaN, and the same for the present fields of a struct.
func encodable(f *schema.Field, v value, version int16) bool {
	switch {
	case v.null:
		return f.NullableAt(version)
	case f.Type.Array:
		return true // defaults are empty arrays
	case f.Type.Kind == schema.KindFloat64:
		return !math.IsNaN(v.float)
	case f.Type.Kind == schema.KindStruct:
		for i, sf := range v.st.def.Fields {
			if sf.Versions.Contains(version) && !encodable(sf, v.st.fields[i], version) {
				return false
			}
		}
	}
	return true
}

// randomValue makes a random value for a field, null sometimes where the
// field is nullable at the version.
func (g *generator) randomValue(f *schema.Field) value {
	if f.Type.CanBeNullable() && f.NullableAt(g.version) && g.chance(5) {
		return value{null: true}
	}
	if f.Type.Array {
		n := g.rng.IntN(g.opts.MaxArray + 1)
		elems := make([]value, n)
		for i := range elems {
			elems[i] = g.randomElem(f.Type.Kind, f.Struct)
		}
		return value{elems: elems}
	}
	return g.randomElem(f.Type.Kind, f.Struct)
}

// randomElem makes a random non-null value of a kind (st for structs).
func (g *generator) randomElem(kind schema.Kind, st *schema.Struct) value {
	switch kind {
	case schema.KindBool:
		return value{num: int64(g.rng.IntN(2))}
	case schema.KindInt8:
		return value{num: g.randomInt(8)}
	case schema.KindInt16:
		return value{num: g.randomInt(16)}
	case schema.KindInt32:
		return value{num: g.randomInt(32)}
	case schema.KindInt64:
		return value{num: g.randomInt(64)}
	case schema.KindUint16:
		return value{num: int64(uint16(g.randomInt(16)))}
	case schema.KindUint32:
		return value{num: int64(uint32(g.randomInt(32)))}
	case schema.KindFloat64:
		return value{float: g.randomFloat()}
	case schema.KindUUID:
		var u [16]byte
		if !g.chance(8) { // else the zero uuid
			for i := range u {
				u[i] = byte(g.rng.Uint32())
			}
		}
		return value{uuid: u}
	case schema.KindString:
		return value{str: g.randomString(g.randomLen())}
	case schema.KindBytes, schema.KindRecords:
		b := make([]byte, g.randomLen())
		for i := range b {
			b[i] = byte(g.rng.Uint32())
		}
		return value{bytes: b}
	case schema.KindStruct:
		return value{st: g.genStruct(st)}
	}
	panic(fmt.Sprintf("wiregen: unknown kind %v", kind))
}

// randomInt is a random signed integer of the given width: often a small
// value around zero, otherwise uniform over the whole range.
func (g *generator) randomInt(bits int) int64 {
	if g.chance(4) {
		return int64(g.rng.IntN(5) - 2)
	}
	return int64(g.rng.Uint64()) << (64 - bits) >> (64 - bits)
}

// specialFloats are edge values, all equal to themselves.
var specialFloats = []float64{0, math.Copysign(0, -1), 1.5, -1, math.Inf(1), math.Inf(-1),
	math.MaxFloat64, math.SmallestNonzeroFloat64}

// randomFloat is a random float64 other than NaN (NaN never equals itself,
// so a message holding one cannot round-trip by value).
func (g *generator) randomFloat() float64 {
	if g.chance(4) {
		return specialFloats[g.rng.IntN(len(specialFloats))]
	}
	for {
		if f := math.Float64frombits(g.rng.Uint64()); !math.IsNaN(f) {
			return f
		}
	}
}

// longLens are lengths around the varint length boundaries and the string
// limit of 0x7fff bytes.
var longLens = []int{126, 127, 128, 16382, 16383, 16384, 32767}

// randomLen is a random length for a string, bytes or records value.
func (g *generator) randomLen() int {
	if g.opts.LongStrings && g.chance(16) {
		if g.chance(2) {
			return longLens[g.rng.IntN(len(longLens))]
		}
		return g.rng.IntN(32768)
	}
	return g.rng.IntN(g.opts.MaxString + 1)
}

// randomString is a random valid UTF-8 string of exactly n bytes: mostly
// ASCII, with some 2-, 3- and 4-byte characters.
func (g *generator) randomString(n int) string {
	b := make([]byte, 0, n)
	for len(b) < n {
		left := n - len(b)
		var r rune
		switch g.rng.IntN(8) {
		case 0:
			r = rune(0x80 + g.rng.IntN(0x800-0x80))
		case 1:
			r = rune(0x800 + g.rng.IntN(0x10000-0x800-0x800)) // skip the surrogates
			if r >= 0xd800 {
				r += 0x800
			}
		case 2:
			r = rune(0x10000 + g.rng.IntN(0x110000-0x10000))
		default:
			r = rune(g.rng.IntN(0x80))
		}
		if utf8.RuneLen(r) > left {
			r = rune('a' + g.rng.IntN(26))
		}
		b = utf8.AppendRune(b, r)
	}
	return string(b)
}

// genUnknownTags makes one or two unknown tagged fields with strictly
// ascending tags above every tag st defines, sometimes large enough to need
// a multi-byte varint.
func (g *generator) genUnknownTags(st *schema.Struct) []rawTag {
	tag := -1
	for _, f := range st.Fields {
		if f.HasTag {
			tag = max(tag, f.Tag)
		}
	}
	raws := make([]rawTag, 1+g.rng.IntN(2))
	for i := range raws {
		tag += 1 + g.rng.IntN(4)
		if g.chance(8) {
			tag += 200
		}
		data := make([]byte, g.rng.IntN(6))
		for j := range data {
			data[j] = byte(g.rng.Uint32())
		}
		raws[i] = rawTag{tag: tag, data: data}
	}
	return raws
}

// defaultValue is the field's default, as Java's generated constructor sets
// it: the "default" text, or the type's zero or empty value; null for the
// text "null" on a nullable type and for every records field. A struct's
// default is the struct with every field at its default, and no unknown
// tags. The default does not depend on the version; version is kept for the
// callers' symmetry with isDefault.
func defaultValue(f *schema.Field, version int16) (v value) {
	if f.DefaultIsNull() {
		return value{null: true}
	}
	if f.Type.Array {
		return value{elems: []value{}}
	}
	text := f.Default
	switch k := f.Type.Kind; k {
	case schema.KindBool:
		b, err := schema.ParseBoolDefault(text)
		must(f, err)
		if b {
			v.num = 1
		}
	case schema.KindInt8, schema.KindInt16, schema.KindInt32, schema.KindInt64:
		n, err := schema.ParseIntDefault(text, k.FixedSize()*8)
		must(f, err)
		v.num = n
	case schema.KindUint16, schema.KindUint32:
		n, err := schema.ParseUintDefault(text, k.FixedSize()*8)
		must(f, err)
		v.num = int64(n)
	case schema.KindFloat64:
		x, err := schema.ParseFloatDefault(text)
		must(f, err)
		v.float = x
	case schema.KindUUID:
		u, err := schema.ParseUUIDDefault(text)
		must(f, err)
		v.uuid = u
	case schema.KindString:
		v.str = text
	case schema.KindBytes:
		v.bytes = []byte{}
	case schema.KindStruct:
		st := &structValue{def: f.Struct, fields: make([]value, len(f.Struct.Fields))}
		for i, sf := range f.Struct.Fields {
			st.fields[i] = defaultValue(sf, version)
		}
		v.st = st
	}
	return v
}

// must panics on a default the loader should have rejected.
func must(f *schema.Field, err error) {
	if err != nil {
		panic(fmt.Sprintf("wiregen: field %s: invalid default %q: %v", f.Name, f.Default, err))
	}
}

// isDefault reports whether v equals the field's default by Java's rules:
// numbers and bools by value (float64 with ==, so -0.0 equals 0.0 and NaN
// equals nothing), strings, uuids and bytes by content, arrays and bytes by
// emptiness against an empty default or by nullness against a null one, and
// structs field by field over the fields present at version.
func isDefault(f *schema.Field, v value, version int16) bool {
	return isDefaultIn(f, v, version, false)
}

// isJavaDefault is Java's comparison against the field's default at any
// version: as isDefault, but a struct equals its default only when every
// one of its fields does, whether present at a version or not (the
// generated equals compares them all).
func isJavaDefault(f *schema.Field, v value) bool {
	return isDefaultIn(f, v, 0, true)
}

// isDefaultIn is isDefault, over every field of a struct when all is set.
func isDefaultIn(f *schema.Field, v value, version int16, all bool) bool {
	if f.DefaultIsNull() {
		return v.null
	}
	if v.null {
		return false
	}
	if f.Type.Array {
		return len(v.elems) == 0
	}
	switch f.Type.Kind {
	case schema.KindStruct:
		return structIsDefaultIn(v.st, version, all)
	case schema.KindBytes, schema.KindRecords:
		return len(v.bytes) == 0
	}
	d := defaultValue(f, version)
	switch f.Type.Kind {
	case schema.KindFloat64:
		return v.float == d.float
	case schema.KindString:
		return v.str == d.str
	case schema.KindUUID:
		return v.uuid == d.uuid
	}
	return v.num == d.num
}

// structIsDefaultIn reports whether sv equals its struct's default value:
// no unknown tags and every field present at version at its default, or
// with all every field. Fields absent at version are not on the wire, so a
// decoder sets them to their defaults; their tree values do not count.
func structIsDefaultIn(sv *structValue, version int16, all bool) bool {
	if len(sv.unknown) > 0 {
		return false
	}
	for i, f := range sv.def.Fields {
		if (all || f.Versions.Contains(version)) && !isDefaultIn(f, sv.fields[i], version, all) {
			return false
		}
	}
	return true
}
