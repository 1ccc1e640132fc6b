package saramaclient

import (
	"testing"

	"github.com/kafkagen/kafkagen/interop/internal/kfakerun"
	"github.com/stretchr/testify/require"
)

// TestStepsAgainstKfake leaves out the message-set steps: kfake accepts
// record batches (Produce v3 and later) only.
func TestStepsAgainstKfake(t *testing.T) {
	skip := map[string]string{}
	for _, s := range Steps("", 10) {
		if len(s.Name) > 3 && s.Name[:3] == "v0." {
			skip[s.Name] = "message sets v0/v1: kfake takes Produce v3 and later only"
		}
	}
	require.NoError(t, kfakerun.Run(t.Logf, Steps, skip))
}
