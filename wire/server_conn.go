package wire

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/wire/frames"
)

// Why a Server closed a connection: ConnClosed receives errors wrapping these.
var (
	// ErrIdle: no request arrived for Limits.ConnectionsMaxIdle.
	ErrIdle = errors.New("idle for longer than connections.max.idle.ms")
	// ErrRequestTimeout: a request (or a TLS handshake) did not arrive whole
	// within Limits.RequestReadTimeout of its first byte.
	ErrRequestTimeout = errors.New("request not read within the request read timeout")
	// ErrWriteTimeout: the peer did not read a response within
	// Limits.WriteTimeout.
	ErrWriteTimeout = errors.New("response not written within the write timeout: the peer reads too slowly")
	// ErrResponseSize: the handler's response is larger than
	// Limits.MaxResponseSize.
	ErrResponseSize = errors.New("response larger than the response size limit")
)

// idleRelease is how long a connection waits for its next request before
// giving back its buffers: short enough that idle connections hold almost
// nothing, long enough that a busy one keeps its buffers between requests.
const idleRelease = time.Second

// serverConn is one connection of a Server: it reads a request, serves it,
// writes its response, then reads the next, as Kafka does (a connection is
// muted while its request is being served).
type serverConn struct {
	srv    *Server
	raw    net.Conn // the accepted connection
	nc     net.Conn // raw, or the TLS connection over it
	peer   Peer
	ctx    context.Context // ends with the connection or at Server.Close
	cancel context.CancelFunc

	size    sizePrefix
	frames  *frames.FrameReader
	decoder *RequestDecoder // nil until a request needs it, and when idle
	req     Request
	auth    *saslConn // nil without SASL

	mu         sync.Mutex // orders idle and read deadlines against Shutdown
	idle       bool
	lastActive time.Time
}

func newServerConn(s *Server, nc net.Conn, host string) *serverConn {
	c := &serverConn{srv: s, raw: nc, nc: nc, peer: Peer{RemoteAddr: nc.RemoteAddr(), Host: host}, lastActive: time.Now()}
	if s.tls != nil {
		c.nc = tls.Server(nc, s.tls)
	}
	c.ctx, c.cancel = context.WithCancel(s.base)
	c.size.r = c.nc
	c.frames = frames.NewFrameReader(&c.size, s.limits.MaxRequestSize)
	if s.sasl != nil {
		c.auth = &saslConn{srv: s.sasl}
	}
	return c
}

// run serves the connection until it ends, closes it (with no TLS
// close_notify, which could wait on a peer that does not read) and returns
// why it ended: nil at a clean end of stream.
func (c *serverConn) run() error {
	err := c.serveRecovering()
	if err != nil && c.srv.base.Err() != nil {
		err = ErrServerClosed // Close cut it short
	}
	c.cancel()
	c.raw.Close()
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// serveRecovering serves the connection, turning a handler's panic into the
// error that closes it, as net/http does: one bad request must not end the
// server's other connections.
func (c *serverConn) serveRecovering() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("kafka server: the handler panicked: %v\n%s", r, debug.Stack())
		}
	}()
	return c.serve()
}

func (c *serverConn) serve() error {
	if tc, ok := c.nc.(*tls.Conn); ok {
		if err := c.handshake(tc); err != nil {
			return err
		}
	}
	for {
		size, first, err := c.awaitRequest()
		if err != nil {
			return err
		}
		if err := c.serveFrame(size, first); err != nil {
			return err
		}
	}
}

// handshake runs the TLS handshake within the request read timeout.
func (c *serverConn) handshake(tc *tls.Conn) error {
	ctx := c.ctx
	if t := c.srv.limits.RequestReadTimeout; t > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t)
		defer cancel()
	}
	if err := tc.HandshakeContext(ctx); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			err = ErrRequestTimeout
		}
		return errorf(err, "kafka server: TLS handshake")
	}
	st := tc.ConnectionState()
	c.peer.TLS = &st
	return nil
}

// awaitRequest waits for the next request's 4-byte size prefix: as long as
// the idle limit allows for its first byte (giving back the connection's
// buffers after idleRelease), then within the request read timeout for the
// rest. It returns the size and when the first byte arrived.
func (c *serverConn) awaitRequest() (int, time.Time, error) {
	l := &c.srv.limits
	idleUntil := deadline(c.lastActive, l.ConnectionsMaxIdle)
	released := false
	var n int
	for n == 0 {
		wait := idleUntil
		if !released {
			if soon := time.Now().Add(idleRelease); wait.IsZero() || soon.Before(wait) {
				wait = soon
			}
		}
		if !c.enterIdle(wait) {
			return 0, time.Time{}, ErrServerClosed
		}
		var err error
		n, err = c.nc.Read(c.size.prefix[:])
		if n > 0 {
			break
		}
		switch {
		case err == nil:
		case !isTimeout(err):
			return 0, time.Time{}, err
		case c.srv.closing.Load():
			return 0, time.Time{}, ErrServerClosed
		case !released:
			c.release()
			released = true
		case !idleUntil.IsZero() && !time.Now().Before(idleUntil):
			return 0, time.Time{}, fmt.Errorf("kafka server: %w (%v)", ErrIdle, l.ConnectionsMaxIdle)
		}
	}
	first := time.Now()
	c.leaveIdle(deadline(first, l.RequestReadTimeout))
	if _, err := io.ReadFull(c.nc, c.size.prefix[n:]); err != nil {
		return 0, first, readError(err, "reading a request's size")
	}
	return int(int32(c.size.size())), first, nil
}

// enterIdle marks the connection idle, waiting for a request until wait,
// unless the server is shutting down; Shutdown interrupts idle connections
// only.
func (c *serverConn) enterIdle(wait time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.srv.closing.Load() {
		return false
	}
	c.idle = true
	_ = c.nc.SetReadDeadline(wait)
	return true
}

// leaveIdle marks a request in progress, to be read by until.
func (c *serverConn) leaveIdle(until time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.idle = false
	_ = c.nc.SetReadDeadline(until)
}

// interruptIdle ends the wait of an idle connection (for Shutdown).
func (c *serverConn) interruptIdle() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.idle {
		_ = c.nc.SetReadDeadline(time.Unix(1, 0))
	}
}

// release gives back what the connection holds between requests: the frame
// buffer, the decoded bodies and the last request's references to them.
func (c *serverConn) release() {
	c.frames.Release()
	c.decoder = nil
	c.req = Request{}
	if c.auth != nil {
		c.auth.decoder, c.auth.req = nil, Request{}
	}
}

// serveFrame reads the body of a request whose size prefix has arrived,
// once its bytes fit in the queued request bytes, and serves it.
func (c *serverConn) serveFrame(size int, first time.Time) error {
	limit := c.srv.limits.MaxRequestSize
	if c.auth != nil && c.auth.exchanging() {
		limit = min(limit, c.auth.srv.maxReceive)
	}
	if size < 0 || size > limit {
		return &frames.FrameSizeError{Size: int32(size), Max: limit}
	}
	charge := c.srv.limits.requestCharge(size)
	start := time.Now()
	if err := c.srv.requests.acquire(c.ctx, charge); err != nil {
		return ErrServerClosed
	}
	defer c.srv.requests.release(charge)
	if until := deadline(first, c.srv.limits.RequestReadTimeout); !until.IsZero() {
		_ = c.nc.SetReadDeadline(until.Add(time.Since(start)))
	}
	c.size.replay = true
	frame, err := c.frames.Next()
	if err != nil {
		return readError(err, "reading a request")
	}
	if c.auth != nil {
		if handled, err := c.auth.intercept(c, frame); handled || err != nil {
			return err
		}
	}
	err = c.serveRequest(frame)
	if size > frames.DefaultRetainSize {
		c.release() // a large request's buffers go now, not at the next one
	}
	return err
}

// serveRequest decodes a request for the handler and writes its answer.
func (c *serverConn) serveRequest(frame []byte) error {
	c.ensureDecoder()
	if err := c.decoder.Decode(frame, &c.req); err != nil {
		var u *UnsupportedRequestError
		if !errors.As(err, &u) || !u.Answerable() {
			return err // Kafka closes the connection
		}
		r, _ := c.decoder.Range(generated.APIKeyAPIVersions)
		return c.send(20, func(dst []byte) ([]byte, error) {
			return frames.AppendAPIVersionsUnsupported(dst, u.Header.CorrelationID, r.MinVersion, r.MaxVersion), nil
		})
	}
	resp, err := c.srv.handler.ServeKafka(c.ctx, &c.peer, &c.req)
	if err != nil {
		return errorf(err, "kafka server: serving api key %d v%d (correlation id %d)", c.req.Header.APIKey, c.req.Header.APIVersion, c.req.Header.CorrelationID)
	}
	if resp == nil {
		c.lastActive = time.Now()
		return nil
	}
	err = c.respond(&c.req.Header, resp)
	if c.srv.written != nil {
		c.srv.written(&c.peer)
	}
	return err
}

// ensureDecoder makes the connection's request decoder, dropped when idle.
func (c *serverConn) ensureDecoder() {
	if c.decoder == nil {
		c.decoder = NewRequestDecoder(c.srv.newRequest, c.srv.alias, c.srv.supported)
		c.decoder.AliasKeys(c.srv.aliasKeys...)
	}
}

// apiVersionsServed reports whether the handler is given ApiVersions
// requests of version v (others are answered UNSUPPORTED_VERSION or close
// the connection).
func (c *serverConn) apiVersionsServed(v int16) bool {
	c.ensureDecoder()
	r, ok := c.decoder.Range(generated.APIKeyAPIVersions)
	return ok && v >= r.MinVersion && v <= r.MaxVersion
}

// readError names what was being read, and turns a deadline into
// ErrRequestTimeout.
func readError(err error, doing string) error {
	if isTimeout(err) {
		return fmt.Errorf("kafka server: %s: %w", doing, ErrRequestTimeout)
	}
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return errorf(err, "kafka server: %s", doing)
}

// isTimeout reports whether err is a passed deadline.
func isTimeout(err error) bool {
	return errors.Is(err, os.ErrDeadlineExceeded)
}

// sizePrefix is the reader of a connection's frames.FrameReader: the server reads
// a frame's size itself (to time its first byte and wait for room before
// the body), then replays it to the frames.FrameReader, which reads the body.
type sizePrefix struct {
	r      io.Reader
	prefix [4]byte
	replay bool
}

func (p *sizePrefix) Read(b []byte) (int, error) {
	if p.replay {
		p.replay = false
		return copy(b, p.prefix[:]), nil // frames.FrameReader reads the size with a 4-byte buffer
	}
	return p.r.Read(b)
}

func (p *sizePrefix) size() uint32 {
	return uint32(p.prefix[0])<<24 | uint32(p.prefix[1])<<16 | uint32(p.prefix[2])<<8 | uint32(p.prefix[3])
}
