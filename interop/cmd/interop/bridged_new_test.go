package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/interop/internal/scenario"
)

func TestParsePrintedRecords(t *testing.T) {
	tests := []struct {
		name   string
		output string
		want   []scenario.Record
		err    string
	}{
		{"records among other lines", "starting\nrecord 0 1600000000000 6b2d30 7630\nrecord 1 -1 6b2d31 \nok kafka-python x: done\n",
			[]scenario.Record{
				{Offset: 0, Timestamp: 1_600_000_000_000, Key: []byte("k-0"), Value: []byte("v0")},
				{Offset: 1, Timestamp: -1, Key: []byte("k-1"), Value: []byte{}},
			}, ""},
		{"none", "ok kafka-python x: done\n", nil, ""},
		{"a field missing", "record 0 1600000000000 6b2d30", nil, `line 1 "record 0 1600000000000 6b2d30": want record <offset> <timestamp> <key hex> <value hex>`},
		{"bad offset", "record x 1 00 00", nil, `line 1 "record x 1 00 00": strconv.ParseInt: parsing "x": invalid syntax`},
		{"bad hex", "\nrecord 0 1 zz 00", nil, `line 2 "record 0 1 zz 00": encoding/hex: invalid byte: U+007A 'z'`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parsePrintedRecords(tt.output)
			if tt.err != "" {
				assert.EqualError(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}
