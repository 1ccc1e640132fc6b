package codec

import (
	"encoding/hex"
	"errors"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/runtime"
)

// A struct as the generator would give a table to: versions 0-1, flexible
// at 1. Old is at v0 only; Note may be null at v1 only; Retries is at v1
// only, ignorable, default 3.
type tableTest struct {
	ID          int32
	Name        string
	Note        runtime.NullString
	Old         int16
	Retries     int8
	Items       []tableItem
	Codes       []int16
	UnknownTags runtime.Tags
}

type tableItem struct {
	P           int32
	Labels      []string
	UnknownTags runtime.Tags
}

var tableItemTable = Struct{
	Fields: []Field{
		{Name: "P", Offset: unsafe.Offsetof(tableItem{}.P), Kind: KindInt32, InPlace: Versions{Lo: 0, Hi: 1}},
		{Name: "Labels", Offset: unsafe.Offsetof(tableItem{}.Labels), Kind: KindString, Array: true, MinElemSize: 1,
			InPlace: Versions{Lo: 0, Hi: 1}, Compact: Versions{Lo: 1, Hi: 1}},
	},
	HasTags: true, Tags: unsafe.Offsetof(tableItem{}.UnknownTags), Flexible: Versions{Lo: 1, Hi: 1}, MaxTag: -1,
}

var tableTestTable = Struct{
	Fields: []Field{
		{Name: "Id", Offset: unsafe.Offsetof(tableTest{}.ID), Kind: KindInt32, InPlace: Versions{Lo: 0, Hi: 1}},
		{Name: "Name", Offset: unsafe.Offsetof(tableTest{}.Name), Kind: KindString, InPlace: Versions{Lo: 0, Hi: 1},
			Compact: Versions{Lo: 1, Hi: 1}},
		{Name: "Note", Offset: unsafe.Offsetof(tableTest{}.Note), Kind: KindString, InPlace: Versions{Lo: 0, Hi: 1},
			Nullable: true, NullAt: Versions{Lo: 1, Hi: 1}, Compact: Versions{Lo: 1, Hi: 1}},
		{Name: "Old", Offset: unsafe.Offsetof(tableTest{}.Old), Kind: KindInt16, InPlace: Versions{Lo: 0, Hi: 0},
			Fix: "Old has versions 0", Default: Default{Int: -1}},
		{Name: "Retries", Offset: unsafe.Offsetof(tableTest{}.Retries), Kind: KindInt8, InPlace: Versions{Lo: 1, Hi: 1},
			Ignorable: true, Default: Default{Int: 3}},
		{Name: "Items", Offset: unsafe.Offsetof(tableTest{}.Items), Kind: KindStruct, Array: true, MinElemSize: 5,
			InPlace: Versions{Lo: 0, Hi: 1}, Compact: Versions{Lo: 1, Hi: 1},
			Elem: &tableItemTable, ElemSize: unsafe.Sizeof(tableItem{}), Slice: (*[]tableItem)(nil)},
		{Name: "Codes", Offset: unsafe.Offsetof(tableTest{}.Codes), Kind: KindInt16, Array: true, MinElemSize: 2,
			InPlace: Versions{Lo: 0, Hi: 1}, Compact: Versions{Lo: 1, Hi: 1}},
	},
	HasTags: true, Tags: unsafe.Offsetof(tableTest{}.UnknownTags), Flexible: Versions{Lo: 1, Hi: 1}, MaxTag: -1,
}

func tableSample(version int16) tableTest {
	m := tableTest{ID: 7, Name: "ab", Note: runtime.NewNullString("n"), Old: -1, Retries: 3, Codes: []int16{1, 2},
		Items: []tableItem{{P: 1, Labels: []string{"x"}}, {P: 2, Labels: []string{}}}}
	if version == 0 {
		m.Old = 5
	} else {
		m.Retries = 9
	}
	return m
}

// The encodings, written out by hand from Kafka's wire format: classic
// lengths (int16 strings, int32 counts) at v0, compact ones (uvarint n+1)
// and tag sections at v1.
var tableWire = map[int16]string{
	0: "00000007" + "00026162" + "00016e" + "0005" +
		"00000002" + "00000001" + "00000001" + "0001" + "78" + "00000002" + "00000000" +
		"00000002" + "0001" + "0002",
	1: "00000007" + "036162" + "026e" + "09" +
		"03" + "00000001" + "02" + "02" + "78" + "00" + "00000002" + "01" + "00" +
		"03" + "0001" + "0002" + "00",
}

func TestTableEncodeDecode(t *testing.T) {
	for v, want := range tableWire {
		m := tableSample(v)
		b, err := AppendStruct(nil, &tableTestTable, unsafe.Pointer(&m), v)
		require.NoError(t, err, "v%d", v)
		assert.Equal(t, want, hex.EncodeToString(b), "v%d", v)

		// Decoding into a used struct gives the same as into a new one:
		// fields the version lacks take their defaults.
		got := tableTest{Old: 99, Retries: 99, Items: make([]tableItem, 5), UnknownTags: runtime.Tags{{Tag: 9}}}
		var d Decoder
		d.Init(b)
		n, err := d.Finish("T", v, DecodeStruct(&d, &tableTestTable, unsafe.Pointer(&got), 0, v))
		require.NoError(t, err, "v%d", v)
		assert.Equal(t, len(b), n)
		if v == 0 {
			m.Retries = 3 // the default: v0 has no Retries
		} else {
			m.Old = -1
		}
		m.UnknownTags = runtime.Tags{} // got's, emptied; the new elements' stay nil
		assert.Equal(t, m, got, "v%d", v)
	}
}

func TestTableWriteErrors(t *testing.T) {
	long := strings.Repeat("s", runtime.MaxStringLen+1)
	for _, c := range []struct {
		name    string
		version int16
		change  func(*tableTest)
		want    string
		is      error
	}{
		{"absent field not at its default", 1, func(m *tableTest) { m.Old = 4 }, "attempted to write a non-default Old at version 1: Old has versions 0", runtime.ErrNonDefault},
		{"ignorable field dropped", 0, func(m *tableTest) { m.Retries = 8 }, "", nil},
		{"null where the version has none", 0, func(m *tableTest) { m.Note = runtime.NullString{} }, "not nullable in version 0", runtime.ErrNull},
		{"string too long", 1, func(m *tableTest) { m.Name = long }, "", runtime.ErrStringTooLong},
		{"string of an element too long", 1, func(m *tableTest) { m.Items[1].Labels = []string{long} }, "", runtime.ErrStringTooLong},
		{"unknown tags at a version without", 0, func(m *tableTest) { m.UnknownTags = runtime.Tags{{Tag: 1}} }, "", runtime.ErrTaggedFields},
	} {
		m := tableSample(c.version)
		c.change(&m)
		_, err := AppendStruct(nil, &tableTestTable, unsafe.Pointer(&m), c.version)
		if c.is == nil {
			assert.NoError(t, err, c.name)
			continue
		}
		require.ErrorIs(t, err, c.is, c.name)
		var re *runtime.Error
		require.True(t, errors.As(err, &re), c.name)
		assert.Equal(t, c.want, re.Detail, c.name)
		if c.name == "string of an element too long" {
			assert.Equal(t, "Items[1].Labels", re.Field, c.name)
		}
	}
}

// A cut input fails, naming the field being read, within its element, or
// the array whose count the remaining bytes cannot hold.
func TestTableTruncated(t *testing.T) {
	b, _ := hex.DecodeString(tableWire[1])
	for _, c := range []struct {
		cut   int
		field string
	}{
		{2, "Id"}, {5, "Name"}, {12, "Items"}, {21, "Items[1].P"},
		{24, "Items[1]"}, // its tag section, which names no field
		{27, "Codes"}, {30, ""},
	} {
		var m tableTest
		var d Decoder
		d.Init(b[:c.cut])
		_, err := d.Finish("T", 1, DecodeStruct(&d, &tableTestTable, unsafe.Pointer(&m), 0, 1))
		var re *runtime.Error
		require.True(t, errors.As(err, &re), "cut %d: %v", c.cut, err)
		assert.Equal(t, c.field, re.Field, "cut %d: %v", c.cut, err)
	}
}

// Programs are settled on first use, from many goroutines at once.
func TestTableConcurrentFirstUse(t *testing.T) {
	fresh := tableTestTable.Fields
	tbl := &Struct{Fields: fresh, HasTags: true, Tags: tableTestTable.Tags, Flexible: tableTestTable.Flexible, MaxTag: -1}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v := int16(g % 2)
			m := tableSample(v)
			b, err := AppendStruct(nil, tbl, unsafe.Pointer(&m), v)
			assert.NoError(t, err)
			assert.Equal(t, tableWire[v], hex.EncodeToString(b))
		}()
	}
	wg.Wait()
}
