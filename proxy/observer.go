package proxy

import "time"

// Observer sees every connection and every exchange, whether filters
// decoded it or not, for metrics. Its methods are called from the
// connections' goroutines, concurrently: they must be quick and safe for
// concurrent use.
type Observer interface {
	// Opened: a client connected and the proxy reached its broker.
	Opened(info *ConnInfo)
	// Closed: the connection ended, with err (nil for a clean end).
	Closed(info *ConnInfo, err error)
	// Exchanged: a request was answered (by the broker or a filter), or
	// sent with no answer to come (responseBytes 0). The sizes are the
	// frames' (size prefix included) as read; elapsed runs from reading
	// the request's first bytes to relaying the answer.
	Exchanged(info *ConnInfo, apiKey, apiVersion int16, requestBytes, responseBytes int, elapsed time.Duration)
}

// observeStart stamps a request's slot when there is an observer, so that
// its answer can be timed; without one it costs nothing.
func (c *conn) observeStart(s *slot, requestBytes int) {
	if c.p.cfg.Observer != nil {
		s.started, s.requestBytes = time.Now(), int32(requestBytes)
	}
}

// observe reports an exchange to the observer, if any.
func (c *conn) observe(apiKey, apiVersion int16, s *slot, responseBytes int) {
	if o := c.p.cfg.Observer; o != nil {
		o.Exchanged(&c.info, apiKey, apiVersion, int(s.requestBytes), responseBytes, time.Since(s.started))
	}
}
