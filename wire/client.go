package wire

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/kafkagen/kafkagen/runtime"
)

// ErrClientClosed is returned by calls on a Client after Close.
var ErrClientClosed = errors.New("kafka client: closed")

// CorrelationError is a response whose correlation id is not the one of the
// oldest request in flight. Kafka answers the requests of a connection in
// order, so this means the stream is broken; the Client closes it.
type CorrelationError struct {
	Want, Got int32
	APIKey    int16 // the api key of the request that expected Want
}

// Error names both correlation ids and the api key of the request.
func (e *CorrelationError) Error() string {
	return fmt.Sprintf("kafka client: response correlation id %d, but the oldest request in flight (api key %d) has %d", e.Got, e.APIKey, e.Want)
}

// ClientConfig configures a Client.
type ClientConfig struct {
	// ClientID is the client id of every request header (null when not
	// Valid).
	ClientID runtime.NullString
	// MaxFrameSize is the largest response accepted; 0 means
	// DefaultMaxFrameSize.
	MaxFrameSize int
	// FirstCorrelationID is the correlation id of the first request.
	FirstCorrelationID int32
}

// Client is the client side of one connection. It assigns correlation ids,
// writes requests and matches responses to them; many goroutines may call
// Do at once and their requests are pipelined on the connection.
type Client struct {
	conn     net.Conn
	clientID runtime.NullString

	writeMu sync.Mutex // orders frames on the wire and correlation ids
	nextID  int32
	out     []byte

	mu      sync.Mutex
	pending []*call // in flight, oldest first
	err     error   // why the connection is unusable, once it is

	readerDone chan struct{}
}

// call is one request waiting for its response.
type call struct {
	id      int32
	key     int16
	version int16
	resp    runtime.APIMessage

	mu        sync.Mutex
	abandoned bool       // the caller gave up: the response is read and dropped
	done      chan error // buffered: the reader never blocks on it
}

// NewClient starts a client on conn; its reading goroutine runs until Close
// or until the connection fails.
func NewClient(conn net.Conn, cfg ClientConfig) *Client {
	c := &Client{conn: conn, clientID: cfg.ClientID, nextID: cfg.FirstCorrelationID, readerDone: make(chan struct{})}
	go c.readLoop(NewFrameReader(conn, cfg.MaxFrameSize))
	return c
}

// Do sends req at version and decodes its response into resp (copied, not
// aliased: resp owns its memory). It returns when the response has arrived,
// when ctx ends (the response is then read and dropped when it comes, and
// the connection stays usable) or when the connection fails. A ctx deadline
// also bounds the write; a write cut short breaks the connection.
//
// An ApiVersions response that does not read at the version sent is read at
// v0, as Kafka's clients do: a broker answers an ApiVersions request above
// its range with a v0 response whose error is UNSUPPORTED_VERSION and whose
// list holds its ApiVersions range, to ask again within (KIP-511).
func (c *Client) Do(ctx context.Context, req runtime.APIMessage, version int16, resp runtime.APIMessage) error {
	if resp.APIKey() != req.APIKey() {
		return fmt.Errorf("kafka client: %s answered by %s", req.SpecName(), resp.SpecName())
	}
	cl := &call{key: req.APIKey(), version: version, resp: resp, done: make(chan error, 1)}
	if err := c.write(ctx, req, version, cl); err != nil {
		return err
	}
	select {
	case err := <-cl.done:
		return err
	case <-ctx.Done():
		cl.mu.Lock()
		cl.abandoned = true
		cl.mu.Unlock()
		select {
		case err := <-cl.done: // the response won the race
			return err
		default:
			return fmt.Errorf("kafka client: %s v%d (correlation id %d): %w", req.SpecName(), version, cl.id, ctx.Err())
		}
	}
}

// Send writes req at version without waiting for a response, for requests
// Kafka does not answer (Produce with acks 0).
func (c *Client) Send(ctx context.Context, req runtime.APIMessage, version int16) error {
	return c.write(ctx, req, version, nil)
}

// write frames and writes one request; with cl, it is queued to receive the
// response before the bytes leave.
func (c *Client) write(ctx context.Context, req runtime.APIMessage, version int16, cl *call) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("kafka client: %s v%d not sent: %w", req.SpecName(), version, err)
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if err := c.Err(); err != nil {
		return err
	}
	h := RequestHeader{APIKey: req.APIKey(), APIVersion: version, CorrelationID: c.nextID, ClientID: c.clientID}
	out, err := AppendRequest(c.out[:0], &h, req)
	if err != nil {
		return err
	}
	c.out = out
	c.nextID++
	if cl != nil {
		cl.id = h.CorrelationID
		c.mu.Lock()
		c.pending = append(c.pending, cl)
		c.mu.Unlock()
	}
	deadline, _ := ctx.Deadline()
	if err := c.conn.SetWriteDeadline(deadline); err != nil {
		c.fail(err)
		return err
	}
	// Cancelling ctx interrupts a blocked write by moving its deadline to
	// the past; the next write sets its own deadline once this is done.
	interrupted := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		_ = c.conn.SetWriteDeadline(time.Unix(1, 0))
		close(interrupted)
	})
	_, err = c.conn.Write(out)
	if !stop() {
		<-interrupted
	}
	if err != nil {
		err = fmt.Errorf("kafka client: writing %s v%d (correlation id %d): %w", req.SpecName(), version, h.CorrelationID, err)
		c.fail(err)
		return err
	}
	return nil
}

// Err returns why the client can no longer be used, or nil.
func (c *Client) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Close closes the connection; calls in flight return ErrClientClosed.
func (c *Client) Close() error {
	c.fail(ErrClientClosed)
	<-c.readerDone
	return nil
}

// fail makes the client unusable with err (the first failure wins), closes
// the connection and ends every call in flight with that error.
func (c *Client) fail(err error) {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return
	}
	c.err = err
	pending := c.pending
	c.pending = nil
	c.mu.Unlock()
	_ = c.conn.Close()
	for _, cl := range pending {
		cl.done <- err
	}
}

// readLoop reads responses and hands each to the oldest call in flight.
func (c *Client) readLoop(frames *FrameReader) {
	defer close(c.readerDone)
	var h ResponseHeader
	for {
		frame, err := frames.Next()
		if err != nil {
			c.fail(fmt.Errorf("kafka client: reading a response: %w", err))
			return
		}
		c.mu.Lock()
		if len(c.pending) == 0 {
			c.mu.Unlock()
			c.fail(fmt.Errorf("kafka client: a %d-byte response arrived with no request in flight", len(frame)))
			return
		}
		cl := c.pending[0]
		c.pending = c.pending[1:]
		c.mu.Unlock()
		if err := c.deliver(frame, &h, cl); err != nil {
			c.fail(err)
			return
		}
	}
}

// deliver decodes one response for cl. It returns an error only when the
// stream cannot be trusted any more (a header that does not decode or does
// not match); a body that does not decode fails the call alone.
func (c *Client) deliver(frame []byte, h *ResponseHeader, cl *call) error {
	n, err := h.Decode(frame, cl.resp.HeaderVersion(cl.version), false)
	if err != nil {
		err = fmt.Errorf("kafka client: response to correlation id %d: %w", cl.id, err)
		cl.done <- err
		return err
	}
	if h.CorrelationID != cl.id {
		err := &CorrelationError{Want: cl.id, Got: h.CorrelationID, APIKey: cl.key}
		cl.done <- err
		return err
	}
	cl.mu.Lock()
	defer cl.mu.Unlock()
	if cl.abandoned {
		cl.done <- nil
		return nil
	}
	used, err := cl.resp.Decode(frame[n:], cl.version)
	if (err != nil || n+used != len(frame)) && cl.key == APIVersionsKey && cl.version > 0 {
		// KIP-511: a broker answers an ApiVersions request above its range
		// with a v0 response (UNSUPPORTED_VERSION and its ApiVersions range).
		// Kafka's clients read a body that does not fit the version sent at
		// v0 (ApiVersionsResponse.parse), and so does this one.
		if used0, err0 := cl.resp.Decode(frame[n:], 0); err0 == nil && n+used0 == len(frame) {
			used, err = used0, nil
		}
	}
	if err == nil && n+used != len(frame) {
		err = &runtime.Error{Op: "decode", Message: cl.resp.SpecName(), Version: cl.version, Offset: n + used, Err: ErrTrailingBytes,
			Detail: fmt.Sprintf("%d bytes after the %d-byte body", len(frame)-n-used, used)}
	}
	cl.done <- withOffset(err, n)
	return nil
}
