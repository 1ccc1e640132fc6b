package wire

import (
	"fmt"
	"time"

	"github.com/kafkagen/kafkagen/wire/frames"
)

// Defaults of the Server's limits, named after the Kafka settings they stand
// for. Kafka leaves several unbounded by default; a server facing untrusted
// clients should not, so these are bounded.
const (
	// DefaultConnectionsMaxIdle is connections.max.idle.ms's default.
	DefaultConnectionsMaxIdle = 10 * time.Minute
	// DefaultRequestReadTimeout bounds the arrival of one request once its
	// first byte is in: a client's request.timeout.ms defaults to 30 s, and
	// its request is lost to it after that anyway.
	DefaultRequestReadTimeout = 30 * time.Second
	// DefaultWriteTimeout bounds the writing of one response, for the same
	// reason: a peer that takes longer has given up on it or never reads.
	DefaultWriteTimeout = 30 * time.Second
	// DefaultSASLMaxReceiveSize is sasl.server.max.receive.size's default:
	// the largest frame read before a connection has authenticated.
	DefaultSASLMaxReceiveSize = 512 << 10
)

// smallFrame is the size of frame up to which a request is read, and a
// response written, without waiting for queued bytes: the heartbeats,
// metadata and offset commits that keep clients alive pass while large
// produce and fetch frames wait. They are still counted, so the large wait
// for them in turn.
const smallFrame = 64 << 10

// Limits bound what a Server accepts and holds. The zero value takes the
// defaults; a negative duration or byte count turns that limit off.
//
// A connection reads one request, serves it and writes its answer before it
// reads the next (Kafka mutes a connection while its request is served), so
// it holds at most one request and one response: the bound per connection
// is MaxRequestSize (twice when bodies are copied) plus MaxResponseSize,
// and the queued bytes bound all connections together.
type Limits struct {
	// MaxConnections is max.connections: the connections one listener keeps
	// open at once (each Serve call counts its own). A connection over it is
	// closed as soon as it is accepted. 0: no limit.
	MaxConnections int
	// MaxConnectionsPerIP is max.connections.per.ip: the connections one
	// client address keeps open at once, over every listener of the server.
	// 0: no limit.
	MaxConnectionsPerIP int
	// MaxConnectionsPerIPOverrides is max.connections.per.ip.overrides: the
	// limit of particular addresses, keyed by IP as net.SplitHostPort gives
	// it ("127.0.0.1", "::1"). 0 in the map refuses the address.
	MaxConnectionsPerIPOverrides map[string]int

	// MaxRequestSize is socket.request.max.bytes: the largest request
	// frame. A larger size prefix closes the connection before anything is
	// allocated for it. 0: frames.DefaultMaxFrameSize (100 MiB).
	MaxRequestSize int
	// MaxResponseSize is the largest response frame the server writes; a
	// handler's answer over it closes the connection. 0: frames.DefaultMaxFrameSize.
	MaxResponseSize int
	// QueuedMaxRequestBytes is queued.max.request.bytes: the bytes of
	// requests being read and served, over every connection. A connection
	// whose next request does not fit waits before reading its body
	// (backpressure: its bytes stay in the kernel and the client's buffers).
	// A request counts its frame size, twice when bodies are copied rather
	// than aliased (the frame and the decoded copy). Requests up to 64 KiB
	// never wait, but count. 0: what one request of MaxRequestSize counts;
	// negative: no limit.
	QueuedMaxRequestBytes int64
	// QueuedMaxResponseBytes bounds the bytes of responses being encoded and
	// written, over every connection, in the same way. 0: MaxResponseSize;
	// negative: no limit.
	QueuedMaxResponseBytes int64

	// RequestReadTimeout is how long a request may take to arrive once its
	// first byte has (a slowloris defence), and how long a TLS handshake
	// may take. Waiting for queued bytes does not count. 0:
	// DefaultRequestReadTimeout.
	RequestReadTimeout time.Duration
	// ConnectionsMaxIdle is connections.max.idle.ms: a connection with no
	// request in progress for this long is closed. 0:
	// DefaultConnectionsMaxIdle.
	ConnectionsMaxIdle time.Duration
	// WriteTimeout is how long one response may take to be written; a peer
	// that reads slower is disconnected and the response's memory freed. 0:
	// DefaultWriteTimeout.
	WriteTimeout time.Duration
}

// limits are Limits with the defaults filled in; durations and byte counts
// of 0 mean "no limit" from here on.
type limits struct {
	Limits
	requestCharge func(size int) int64
}

// resolve fills in the defaults of l for a server that copies request
// bodies unless alias, and checks that every request and response that
// passes the size limits can also fit in the queued bytes.
func (l Limits) resolve(alias bool) (limits, error) {
	r := limits{Limits: l}
	for _, c := range []struct {
		name  string
		value int
	}{{"MaxConnections", l.MaxConnections}, {"MaxConnectionsPerIP", l.MaxConnectionsPerIP}, {"MaxRequestSize", l.MaxRequestSize}, {"MaxResponseSize", l.MaxResponseSize}} {
		if c.value < 0 {
			return r, fmt.Errorf("kafka server: Limits.%s is %d: it must be 0 (the default) or more", c.name, c.value)
		}
	}
	for ip, n := range l.MaxConnectionsPerIPOverrides {
		if n < 0 {
			return r, fmt.Errorf("kafka server: Limits.MaxConnectionsPerIPOverrides[%q] is %d: it must be 0 or more", ip, n)
		}
	}
	if r.MaxRequestSize == 0 {
		r.MaxRequestSize = frames.DefaultMaxFrameSize
	}
	if r.MaxResponseSize == 0 {
		r.MaxResponseSize = frames.DefaultMaxFrameSize
	}
	r.requestCharge = func(size int) int64 { return int64(size) }
	if !alias {
		r.requestCharge = func(size int) int64 { return 2 * int64(size) }
	}
	var err error
	if r.QueuedMaxRequestBytes, err = queuedBound("QueuedMaxRequestBytes", l.QueuedMaxRequestBytes, r.requestCharge(r.MaxRequestSize), "a request of MaxRequestSize"); err != nil {
		return r, err
	}
	if r.QueuedMaxResponseBytes, err = queuedBound("QueuedMaxResponseBytes", l.QueuedMaxResponseBytes, int64(r.MaxResponseSize), "a response of MaxResponseSize"); err != nil {
		return r, err
	}
	r.RequestReadTimeout = timeout(l.RequestReadTimeout, DefaultRequestReadTimeout)
	r.ConnectionsMaxIdle = timeout(l.ConnectionsMaxIdle, DefaultConnectionsMaxIdle)
	r.WriteTimeout = timeout(l.WriteTimeout, DefaultWriteTimeout)
	return r, nil
}

// queuedBound resolves a queued-bytes bound: 0 is largest, negative is none
// (0 from here on), and a bound below largest could never let the largest
// frame through, which Kafka refuses in its configuration too.
func queuedBound(name string, v, largest int64, what string) (int64, error) {
	switch {
	case v == 0:
		return largest, nil
	case v < 0:
		return 0, nil
	case v < largest:
		return 0, fmt.Errorf("kafka server: Limits.%s is %d bytes, less than the %d that %s counts: such a frame could never be served", name, v, largest, what)
	}
	return v, nil
}

// timeout resolves a duration limit: 0 is the default, negative is none (0).
func timeout(v, def time.Duration) time.Duration {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}

// perIP is the connection limit of a client address; ok is false when no
// limit applies.
func (l *limits) perIP(host string) (n int, ok bool) {
	if n, ok := l.MaxConnectionsPerIPOverrides[host]; ok {
		return n, true
	}
	return l.MaxConnectionsPerIP, l.MaxConnectionsPerIP > 0
}

// deadline is now plus d, or no deadline (the zero time) when d is 0.
func deadline(now time.Time, d time.Duration) time.Time {
	if d <= 0 {
		return time.Time{}
	}
	return now.Add(d)
}
