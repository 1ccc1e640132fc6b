package bridge

import (
	"reflect"
	"time"
)

// maxThrottleDelay bounds how long the bridge holds one answer back.
const maxThrottleDelay = 30 * time.Second

// throttledAdapter translates an api whose v1 only changed who applies a
// quota (KIP-219: "Starting in version 1, on quota violation, brokers send
// out responses before throttling"): the ACL, log-dir and delegation-token
// apis, whose v0 is removed in Kafka 4.0. Their fields mean the same (the
// ACL apis' v1 pattern type defaults to LITERAL, the only kind v0 knows,
// so a v0 filter matches only literal patterns), so the codec does the
// rest. A v0 client expects the broker to delay a throttled answer, and a
// v1 broker expects the client to wait instead: the bridge holds the answer
// back for ThrottleTimeMs (at most 30 seconds), as Kafka held back v0's.
// The connection's later answers wait behind it, as they did behind
// Kafka's muted channel.
type throttledAdapter struct{}

func (throttledAdapter) request(*connBridge, reflect.Value, int16, int16) (any, error) {
	return nil, nil
}

func (throttledAdapter) response(c *connBridge, resp reflect.Value, from, to int16, _ any) error {
	if to >= 1 {
		return nil
	}
	var f fields
	ms := f.int64(resp, "ThrottleTimeMs")
	if f.err != nil || ms <= 0 {
		return f.err
	}
	c.b.sleep(min(time.Duration(ms)*time.Millisecond, maxThrottleDelay))
	return nil
}
