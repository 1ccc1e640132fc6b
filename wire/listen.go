package wire

import (
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Accept back-off, as net/http's: a listener out of file descriptors is
// retried after 5 ms, then twice as long each time up to a second, instead
// of ending the server.
const (
	firstAcceptDelay = 5 * time.Millisecond
	maxAcceptDelay   = time.Second
)

// Serve accepts connections on ln and serves each in a goroutine of its own
// until Shutdown or Close, when it returns ErrServerClosed. Temporary
// accept errors (out of file descriptors: EMFILE, ENFILE; out of buffers;
// a connection aborted before it was accepted) are retried with a back-off,
// logged once per streak; any other error ends Serve and is returned.
// Connections over Limits.MaxConnections (counted per Serve call) or
// MaxConnectionsPerIP are closed as soon as they are accepted.
func (s *Server) Serve(ln net.Listener) error {
	s.mu.Lock()
	if s.closing.Load() {
		s.mu.Unlock()
		ln.Close()
		return ErrServerClosed
	}
	s.listeners[ln] = struct{}{}
	s.wg.Add(1)
	s.mu.Unlock()
	defer s.wg.Done()
	defer func() {
		s.mu.Lock()
		delete(s.listeners, ln)
		s.mu.Unlock()
	}()

	var count atomic.Int64 // this listener's open connections
	var delay time.Duration
	for {
		nc, err := ln.Accept()
		if err != nil {
			if s.closing.Load() {
				return ErrServerClosed
			}
			if !temporaryAcceptError(err) {
				return err
			}
			if delay == 0 {
				delay = firstAcceptDelay
				s.logf("kafka server: accepting on %s: %v; retrying with a back-off from %v up to %v", ln.Addr(), err, firstAcceptDelay, maxAcceptDelay)
			} else {
				delay = min(2*delay, maxAcceptDelay)
			}
			select {
			case <-time.After(delay):
			case <-s.done:
				return ErrServerClosed
			}
			continue
		}
		delay = 0

		// Only this loop adds to count, so the test and the add agree.
		host := hostOf(nc.RemoteAddr())
		if max := s.limits.MaxConnections; (max > 0 && count.Load() >= int64(max)) || !s.perIP.add(host, &s.limits) {
			s.refused.Add(1)
			nc.Close()
			continue
		}
		c := newServerConn(s, nc, host)
		if !s.track(c, true) {
			s.perIP.remove(host)
			nc.Close()
			return ErrServerClosed
		}
		count.Add(1)
		go func() {
			defer s.wg.Done()
			err := c.run()
			s.track(c, false)
			s.perIP.remove(host)
			count.Add(-1)
			s.ended(&c.peer, err) // once it no longer counts
		}()
	}
}

// temporaryAcceptError reports whether an accept error passes: the
// process or the system is out of descriptors or buffers for now, or one
// connection failed before it was accepted.
func temporaryAcceptError(err error) bool {
	for _, e := range []error{syscall.EMFILE, syscall.ENFILE, syscall.ENOBUFS, syscall.ENOMEM, syscall.ECONNABORTED, syscall.ECONNRESET} {
		if errors.Is(err, e) {
			return true
		}
	}
	var t interface{ Temporary() bool }
	return errors.As(err, &t) && t.Temporary()
}

// hostOf is the address of a connection's client without the port.
func hostOf(addr net.Addr) string {
	if addr == nil {
		return ""
	}
	host, _, err := net.SplitHostPort(addr.String())
	if err != nil {
		return addr.String()
	}
	return host
}

// ipCounts counts open connections per client address. An address leaves
// the map with its last connection, so it holds no more entries than there
// are connections.
type ipCounts struct {
	mu sync.Mutex
	n  map[string]int
}

// add counts one more connection from host unless that passes its limit.
func (c *ipCounts) add(host string, l *limits) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if limit, ok := l.perIP(host); ok && c.n[host] >= limit {
		return false
	}
	if c.n == nil {
		c.n = map[string]int{}
	}
	c.n[host]++
	return true
}

// remove counts one connection from host fewer.
func (c *ipCounts) remove(host string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n[host] <= 1 {
		delete(c.n, host)
		return
	}
	c.n[host]--
}
