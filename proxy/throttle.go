package proxy

import (
	"sync/atomic"
	"time"
)

// throttle is how long a connection's requests are not read: a quota
// filter extends it (Exchange.Throttle) and the request pump waits it out
// before the next request, as Kafka mutes a throttled client's channel
// (KIP-219). Only the connection throttled waits.
type throttle struct {
	until atomic.Int64 // unix nanoseconds
}

// extend makes the connection wait until at least d from now.
func (t *throttle) extend(d time.Duration) {
	until := time.Now().Add(d).UnixNano()
	for {
		old := t.until.Load()
		if old >= until || t.until.CompareAndSwap(old, until) {
			return
		}
	}
}

// remaining is how long is left to wait.
func (t *throttle) remaining() time.Duration {
	until := t.until.Load()
	if until == 0 {
		return 0
	}
	return time.Until(time.Unix(0, until))
}

// Throttle stops the reading of the connection's requests for d from now
// (or longer, if it already waits longer): requests already read go on;
// the response that says so (throttle_time_ms) is the filter's to set.
func (x *Exchange) Throttle(d time.Duration) {
	if x.Conn != nil && x.Conn.throttle != nil && d > 0 {
		x.Conn.throttle.extend(d)
	}
}

// waitThrottle waits while the connection is throttled, after sending what
// was read before; it returns early if the connection ends.
func (rp *requestPump) waitThrottle() error {
	c := rp.c
	d := c.info.throttle.remaining()
	if d <= 0 {
		return nil
	}
	if err := c.toBroker.flush(); err != nil {
		return err
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-c.done:
		return c.err
	}
}
