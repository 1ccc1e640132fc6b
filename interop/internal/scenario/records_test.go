package scenario

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRecords(t *testing.T) {
	rs := Records("t", 3, true)
	require.Len(t, rs, 3)
	assert.Equal(t, "key-2", string(rs[2].Key))
	assert.Equal(t, "t value 2 kafkagen kafkagen ", string(rs[2].Value))
	assert.Equal(t, []Header{{"index", []byte("1")}, {"topic", []byte("t")}, {"empty", []byte{}}}, rs[1].Headers)
	assert.Len(t, rs[0].Headers, 2)
	assert.Nil(t, Records("t", 1, false)[0].Headers)
	assert.Equal(t, int64(1_600_000_000_002), rs[2].Timestamp)
}

func TestCheckTimestamps(t *testing.T) {
	want := Records("t", 3, false)
	tests := []struct {
		name string
		got  []Record
		want []Record
		err  string
	}{
		{"same", Records("t", 3, false), want, ""},
		{"none where none is wanted", WithoutTimestamps(want), WithoutTimestamps(want), ""},
		{"one off", func() []Record { g := Records("t", 3, false); g[2].Timestamp++; return g }(), want,
			"record 2 (offset 0): timestamp 1600000000003, want 1600000000002"},
		{"a timestamp where the format has none", want, WithoutTimestamps(want),
			"record 0 (offset 0): timestamp 1600000000000, want -1"},
		{"missing record", want[:2], want, "consumed 2 records, produced 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckTimestamps(tt.got, tt.want)
			if tt.err == "" {
				assert.NoError(t, err)
				return
			}
			assert.EqualError(t, err, tt.err)
		})
	}
	assert.Equal(t, int64(1_600_000_000_001), want[1].Timestamp, "WithoutTimestamps must not change its input")
}

func TestCheck(t *testing.T) {
	want := Records("t", 2, true)
	consumed := func(edit func([]Record)) []Record {
		got := Records("t", 2, true)
		for i := range got {
			got[i].Offset = 5 + int64(i)
		}
		edit(got)
		return got
	}
	tests := []struct {
		name string
		got  []Record
		err  string
	}{
		{"same", consumed(func([]Record) {}), ""},
		{"missing record", consumed(func([]Record) {})[:1], "consumed 1 records, produced 2"},
		{"offset", consumed(func(g []Record) { g[1].Offset = 7 }), "record 1: offset 7, want 6"},
		{"key", consumed(func(g []Record) { g[0].Key = []byte("x") }), `record 0 (offset 5): key "x", want "key-0"`},
		{"value", consumed(func(g []Record) { g[1].Value = nil }), `record 1 (offset 6): value "", want "t value 1 kafkagen "`},
		{"header count", consumed(func(g []Record) { g[1].Headers = g[1].Headers[:2] }), "record 1 (offset 6): 2 headers, want 3"},
		{"header value", consumed(func(g []Record) { g[0].Headers[1].Value = []byte("u") }),
			`record 0 (offset 5): header 1 is "topic"="u", want "topic"="t"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Check(tt.got, want, 5)
			if tt.err == "" {
				assert.NoError(t, err)
				return
			}
			assert.EqualError(t, err, tt.err)
		})
	}
}
