package kcatclient

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/interop/internal/scenario"
)

// TestParse reads kcat -J lines: a record of magic 1 or 2 with its
// timestamp, one of magic 0 without (kcat 1.7 then prints neither tstype
// nor ts), headers in pairs.
func TestParse(t *testing.T) {
	tests := []struct {
		name string
		line string
		want scenario.Record
		err  string
	}{
		{"create time", `{"topic":"t","partition":0,"offset":3,"tstype":"create","ts":1600000000003,"headers":["a","b"],"key":"k","payload":"v"}`,
			scenario.Record{Offset: 3, Timestamp: 1_600_000_000_003, Key: []byte("k"), Value: []byte("v"), Headers: []scenario.Header{{Key: "a", Value: []byte("b")}}}, ""},
		{"magic 0: no timestamp", `{"topic":"t","partition":0,"offset":0,"broker":0,"key":null,"payload":"v"}`,
			scenario.Record{Offset: 0, Timestamp: scenario.NoTimestamp, Value: []byte("v")}, ""},
		{"odd headers", `{"offset":0,"headers":["a"]}`, scenario.Record{}, `kcat output line 1: odd header list ["a"]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parse([]byte(tt.line + "\n"))
			if tt.err != "" {
				assert.EqualError(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, []scenario.Record{tt.want}, got)
		})
	}
}
