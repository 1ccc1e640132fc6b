package proxy

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// throttleFilter throttles a connection after the answer to a Produce to
// its topic.
type throttleFilter struct {
	topic string
	d     time.Duration
}

func (f *throttleFilter) Wants(key, _ int16) (bool, bool) { return false, key == 0 }

func (f *throttleFilter) Response(x *Exchange) error {
	if x.Response.(*produceResponse).Topic == f.topic {
		x.Throttle(f.d)
	}
	return nil
}

// A throttled connection's next request waits out the throttle; another
// connection's goes through meanwhile.
func TestThrottleHoldsOnlyItsConnection(t *testing.T) {
	b := startBroker(t)
	p, logs := startProxy(t, Config{Filters: []Filter{&throttleFilter{topic: "slow", d: 2 * time.Second}}}, b)
	slow, fast := dial(t, p.Addr().String()), dial(t, p.Addr().String())
	do(t, slow, produce("slow", 1, records(10, 0)), 2, testResponses(0).(*produceResponse))

	second := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		second <- slow.Do(ctx, produce("slow", 1, records(10, 1)), 2, testResponses(0))
	}()
	for i := range 3 {
		do(t, fast, produce("fast", 1, records(10, i)), 2, testResponses(0).(*produceResponse))
	}
	assert.Len(t, b.records("fast"), 3)
	assert.Len(t, b.records("slow"), 1, "the throttled connection's second request is not read yet")
	require.NoError(t, <-second)
	assert.Len(t, b.records("slow"), 2, "read after the throttle")
	assert.Empty(t, logs.String())
}
