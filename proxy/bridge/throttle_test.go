package bridge

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type testThrottled struct{ ThrottleTimeMs int32 }

func TestThrottledAnswerHeldBack(t *testing.T) {
	for _, tc := range []struct {
		name     string
		throttle int32
		to       int16
		want     []time.Duration
	}{
		{"a v0 client: held back for the throttle time", 250, 0, []time.Duration{250 * time.Millisecond}},
		{"at most 30 s", 600000, 0, []time.Duration{30 * time.Second}},
		{"not throttled", 0, 0, nil},
		{"a v1 client waits itself", 250, 1, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var slept []time.Duration
			b := New(nil, nil)
			b.sleep = func(d time.Duration) { slept = append(slept, d) }
			c := &connBridge{b: b}
			require.NoError(t, throttledAdapter{}.response(c, structOf(&testThrottled{ThrottleTimeMs: tc.throttle}), 1, tc.to, nil))
			assert.Equal(t, tc.want, slept)
		})
	}
}
