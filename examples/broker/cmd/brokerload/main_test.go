package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Misuse ends with exit code 2 and one line naming the flag, before any
// broker is built.
func TestMisuse(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"extra"}, "brokerload: unexpected argument \"extra\"\n"},
		{[]string{"-data-dir", "/var/lib/kafka"}, "brokerload: -data-dir \"/var/lib/kafka\": only \"tmp\" (a fresh temporary folder) or empty\n"},
		{[]string{"-inflight", "30"}, "brokerload: load: in flight 30: must be between 1 and the partitions (20), one request per partition\n"},
		{[]string{"-duration", "0s"}, "brokerload: load: duration 0s, timeout 2m0s: need 0 < duration < timeout\n"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		assert.Equal(t, 2, run(tt.args, &stdout, &stderr), "%q", tt.args)
		assert.Equal(t, tt.want, stderr.String(), "%q", tt.args)
		assert.Empty(t, stdout.String(), "%q", tt.args)
	}
}
