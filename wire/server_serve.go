package wire

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log"
	"net"
	"sync"
	"sync/atomic"

	"github.com/kafkagen/kafkagen/runtime"
)

// ErrServerClosed is returned by Serve after Shutdown or Close.
var ErrServerClosed = errors.New("kafka server: closed")

// Handler serves the requests of a Server's connections.
type Handler interface {
	// ServeKafka answers one request. It is called with the requests of a
	// connection one at a time, in the order they arrived; calls for
	// different connections run at once. It returns the response to write
	// (at the request's version, behind the request's correlation id), nil
	// to write nothing (Produce with acks 0), or an error to close the
	// connection, as Kafka closes it on a request it cannot serve.
	//
	// req and its body are reused once ServeKafka returns (and with
	// ServerOptions.Alias or AliasKeys point into the connection's buffer
	// until the response is written): keep copies. ctx ends when the connection closes
	// or the server is closed; a handler that waits must return then.
	ServeKafka(ctx context.Context, peer *Peer, req *Request) (runtime.APIMessage, error)
}

// HandlerFunc is a function used as a Handler.
type HandlerFunc func(ctx context.Context, peer *Peer, req *Request) (runtime.APIMessage, error)

// ServeKafka calls f.
func (f HandlerFunc) ServeKafka(ctx context.Context, peer *Peer, req *Request) (runtime.APIMessage, error) {
	return f(ctx, peer, req)
}

// Peer is the client end of one connection, as its handler sees it.
type Peer struct {
	RemoteAddr net.Addr
	// Host is the client's address without the port: the key of the
	// per-address connection limit.
	Host string
	// TLS is the state of the TLS session; nil without TLS.
	TLS *tls.ConnectionState
	// Mechanism and Principal are the SASL mechanism and the user name it
	// authenticated; empty without SASL. The handler sees no request of a
	// SASL connection before authentication succeeded, but ApiVersions.
	Mechanism, Principal string
	// State is the handler's own, for what it keeps per connection; the
	// server never touches it.
	State any
}

// ServerOptions configure a Server.
type ServerOptions struct {
	// NewRequest makes the request message of an api key, nil if unknown:
	// a generated package's NewRequest. Required.
	NewRequest func(apiKey int16) runtime.APIMessage
	// Supported, when not empty, narrows the keys and versions served (see
	// NewRequestDecoder). With SASL, SaslHandshake and SaslAuthenticate are
	// served by the server itself whatever it lists.
	Supported []VersionRange
	// Alias decodes bodies with DecodeAliased: strings and byte slices point
	// into the connection's frame buffer. Requests then count once in
	// Limits.QueuedMaxRequestBytes instead of twice.
	Alias bool
	// AliasKeys, without Alias, lists the api keys whose bodies are decoded
	// with DecodeAliased (see RequestDecoder.AliasKeys); headers and other
	// keys' bodies are copied. A request counts twice in
	// QueuedMaxRequestBytes all the same: it is counted before its api key
	// is read.
	AliasKeys []int16
	// Limits bound connections, sizes, time and memory.
	Limits Limits
	// TLS, when set, makes every connection a TLS server connection.
	TLS *tls.Config
	// SASL, when set, makes every connection authenticate before its
	// requests reach the handler.
	SASL *SASLConfig
	// Logf logs what goes wrong outside a connection (accept back-off) and,
	// unless ConnClosed is set, why a connection was closed on an error.
	// Nil: the log package's default logger.
	Logf func(format string, args ...any)
	// ConnClosed, when set, is told about every connection that ends, once
	// it no longer counts against the connection limits, with the reason (nil for a clean end of stream, ErrServerClosed for Shutdown
	// and Close). ErrIdle, ErrRequestTimeout, ErrSessionExpired and the like
	// say which limit ended it. Connections refused at accept by a
	// connection limit are not connections yet: ServerStats counts them.
	ConnClosed func(peer *Peer, err error)
	// ResponseWritten, when set, is called on the connection's goroutine
	// once a response the handler returned has been written, or failed to
	// be: the server holds nothing of it any more. A handler that bounds
	// the memory of the answers it builds gives it back here.
	ResponseWritten func(peer *Peer)
}

// Server serves Kafka connections for a Handler, within limits: it is what
// a broker or a fake broker runs on its listeners.
type Server struct {
	handler    Handler
	newRequest func(int16) runtime.APIMessage
	supported  []VersionRange
	alias      bool
	aliasKeys  []int16
	limits     limits
	tls        *tls.Config
	sasl       *saslServer
	logf       func(format string, args ...any)
	connClosed func(*Peer, error)
	written    func(*Peer)

	requests  byteBudget
	responses byteBudget
	perIP     ipCounts

	base       context.Context // ends at Close: every handler's ctx
	cancelBase context.CancelFunc
	closing    atomic.Bool // Shutdown or Close began
	done       chan struct{}

	mu        sync.Mutex
	listeners map[net.Listener]struct{}
	conns     map[*serverConn]struct{}
	wg        sync.WaitGroup // accept loops and connections
	refused   atomic.Int64
}

// NewServer checks opts and returns a server that has not started: call
// Serve with each listener.
func NewServer(h Handler, opts ServerOptions) (*Server, error) {
	if h == nil {
		return nil, errors.New("kafka server: no Handler")
	}
	if opts.NewRequest == nil {
		return nil, errors.New("kafka server: ServerOptions.NewRequest is nil: pass a generated package's NewRequest")
	}
	l, err := opts.Limits.resolve(opts.Alias)
	if err != nil {
		return nil, err
	}
	s := &Server{
		handler: h, newRequest: opts.NewRequest, supported: opts.Supported, alias: opts.Alias, aliasKeys: opts.AliasKeys, limits: l,
		tls: opts.TLS, logf: opts.Logf, connClosed: opts.ConnClosed, written: opts.ResponseWritten,
		requests: byteBudget{limit: l.QueuedMaxRequestBytes}, responses: byteBudget{limit: l.QueuedMaxResponseBytes},
		perIP: ipCounts{}, done: make(chan struct{}),
		listeners: map[net.Listener]struct{}{}, conns: map[*serverConn]struct{}{},
	}
	if opts.SASL != nil {
		if s.sasl, err = newSASLServer(opts.SASL); err != nil {
			return nil, err
		}
	}
	if s.logf == nil {
		s.logf = log.Printf
	}
	s.base, s.cancelBase = context.WithCancel(context.Background())
	return s, nil
}

// ServerStats is a snapshot of a server's connections and queued bytes.
type ServerStats struct {
	Connections int   // open now
	Refused     int64 // closed at accept by a connection limit, ever
	// QueuedRequestBytes and QueuedResponseBytes are counted now against
	// Limits.QueuedMaxRequestBytes and QueuedMaxResponseBytes; the Peak
	// fields are the most ever counted, and the Waiting fields the
	// connections waiting for room now.
	QueuedRequestBytes, PeakRequestBytes          int64
	QueuedResponseBytes, PeakResponseBytes        int64
	WaitingForRequestRoom, WaitingForResponseRoom int
}

// Stats returns a snapshot of the server's connections and queued bytes.
func (s *Server) Stats() ServerStats {
	var st ServerStats
	s.mu.Lock()
	st.Connections = len(s.conns)
	s.mu.Unlock()
	st.Refused = s.refused.Load()
	st.QueuedRequestBytes, st.PeakRequestBytes, st.WaitingForRequestRoom = s.requests.usage()
	st.QueuedResponseBytes, st.PeakResponseBytes, st.WaitingForResponseRoom = s.responses.usage()
	return st
}

// Shutdown stops the server gracefully: it closes the listeners, then
// closes each connection once it has no request in progress (a request
// being read or served is answered first), and returns when all are closed.
// When ctx ends first it closes everything as Close does and returns
// ctx's error.
func (s *Server) Shutdown(ctx context.Context) error {
	s.beginClosing()
	finished := make(chan struct{})
	go func() { s.wg.Wait(); close(finished) }()
	s.mu.Lock()
	for c := range s.conns {
		c.interruptIdle()
	}
	s.mu.Unlock()
	select {
	case <-finished:
		s.cancelBase()
		return nil
	case <-ctx.Done():
		s.Close()
		return ctx.Err()
	}
}

// Close closes the listeners and every connection at once, ends the
// handlers' ctx, and returns when every connection's goroutine has: a
// handler that waits must return when its ctx ends.
func (s *Server) Close() error {
	s.beginClosing()
	s.cancelBase()
	s.mu.Lock()
	for c := range s.conns {
		c.raw.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
	return nil
}

// beginClosing marks the server closing and closes its listeners.
func (s *Server) beginClosing() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing.Swap(true) {
		return
	}
	close(s.done)
	for ln := range s.listeners {
		ln.Close()
	}
}

// track adds or removes a connection from the open set; adding fails once
// the server is closing.
func (s *Server) track(c *serverConn, add bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !add {
		delete(s.conns, c)
		return true
	}
	if s.closing.Load() {
		return false
	}
	s.conns[c] = struct{}{}
	s.wg.Add(1)
	return true
}

// ended reports how a connection ended, to ConnClosed or the log.
func (s *Server) ended(p *Peer, err error) {
	if s.connClosed != nil {
		s.connClosed(p, err)
		return
	}
	if err != nil && !errors.Is(err, ErrServerClosed) {
		s.logf("kafka server: %s: closed: %v", p.RemoteAddr, err)
	}
}

// SASLVersions are the versions of SaslHandshake and SaslAuthenticate a
// Server with SASL serves: a handler answering ApiVersions on such a
// server lists them beside its own.
func SASLVersions() []VersionRange {
	return []VersionRange{
		{APIKey: saslHandshakeKey, MinVersion: 0, MaxVersion: 1},
		{APIKey: saslAuthenticateKey, MinVersion: 0, MaxVersion: 2},
	}
}

// errorf wraps err with what the connection was doing.
func errorf(err error, format string, args ...any) error {
	return fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), err)
}
