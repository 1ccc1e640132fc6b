package wire

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/frames"
)

// ErrClientClosed is returned by calls on a Client after Close.
var ErrClientClosed = errors.New("kafka client: closed")

// DefaultRequestTimeout bounds a call whose context has no deadline, and
// each write to the connection: 30 s, the default of Kafka's
// request.timeout.ms.
const DefaultRequestTimeout = 30 * time.Second

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
	// frames.DefaultMaxFrameSize.
	MaxFrameSize int
	// FirstCorrelationID is the correlation id of the first request.
	FirstCorrelationID int32
	// RequestTimeout bounds each call whose context has no deadline, and
	// each write to the connection (a peer that reads nothing for that long
	// breaks it); 0 means DefaultRequestTimeout, a negative value no bound.
	RequestTimeout time.Duration
}

// Client is the client side of one connection. It assigns correlation ids,
// writes requests and matches responses to them; many goroutines may call
// Do at once and their requests are pipelined on the connection. It is the
// layer under Conn, which most code wants instead: a Client asks no
// ApiVersions, picks no versions and does no SASL.
//
// One goroutine writes the requests (several at once when callers queue up)
// and another reads the responses, so a caller waits for its context only:
// queued behind a write to a peer that does not read, it returns at its
// deadline with nothing sent; after its request has left, it returns at its
// deadline and its response is discarded as it arrives, the connection
// staying usable. Only a write that fails (the peer read nothing for the
// request timeout, or the connection broke) fails every call, since a frame
// cut short corrupts the stream.
type Client struct {
	conn     net.Conn
	clientID runtime.NullString
	timeout  time.Duration

	queue chan *call    // requests handed to the writer
	dead  chan struct{} // closed when the client fails or closes

	mu      sync.Mutex
	nextID  int32
	pending []*call // sent and waiting for a response, oldest first
	err     error   // why the connection is unusable, once it is

	readMu  sync.Mutex
	reading *call // the call whose large response is being read
	poked   bool  // reading's caller gave up and woke the reader

	readerDone, writerDone chan struct{}
}

// call is one request from handing it to the writer to its response.
type call struct {
	name    string // the request's spec name, for errors
	key     int16
	version int16
	resp    runtime.APIMessage // nil for Send: no response is read
	frame   *[]byte            // the request, its correlation id set by the writer

	mu        sync.Mutex
	id        int32 // set by the writer
	sent      bool  // the writer took it: it is, or will be, on the wire
	abandoned bool  // the caller gave up: nothing is written, or the response is dropped

	finished sync.Once
	done     chan error // buffered: the reader and writer never block on it
}

// finish hands the call's outcome to its caller, once.
func (cl *call) finish(err error) {
	cl.finished.Do(func() { cl.done <- err })
}

// gaveUp reports whether the caller stopped waiting.
func (cl *call) gaveUp() bool {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	return cl.abandoned
}

// NewClient starts a client on conn; its reading and writing goroutines run
// until Close or until the connection fails.
func NewClient(conn net.Conn, cfg ClientConfig) *Client {
	timeout := cfg.RequestTimeout
	if timeout == 0 {
		timeout = DefaultRequestTimeout
	}
	c := &Client{
		conn: conn, clientID: cfg.ClientID, timeout: timeout, nextID: cfg.FirstCorrelationID,
		queue: make(chan *call), dead: make(chan struct{}),
		readerDone: make(chan struct{}), writerDone: make(chan struct{}),
	}
	go c.readLoop(frames.NewFrameReader(conn, cfg.MaxFrameSize))
	go c.writeLoop()
	return c
}

// Do sends req at version and decodes its response into resp (copied, not
// aliased: resp owns its memory). It returns when the response has arrived,
// when ctx ends (the response is then discarded as it arrives, and the
// connection stays usable) or when the connection fails. A ctx without a
// deadline gets the client's request timeout.
//
// An ApiVersions response that does not read at the version sent is read at
// v0, as Kafka's clients do: a broker answers an ApiVersions request above
// its range with a v0 response whose error is UNSUPPORTED_VERSION and whose
// list holds its ApiVersions range, to ask again within (KIP-511).
func (c *Client) Do(ctx context.Context, req runtime.APIMessage, version int16, resp runtime.APIMessage) error {
	return c.do(ctx, req, version, resp, nil)
}

// Send writes req at version without waiting for a response, for requests
// Kafka does not answer (Produce with acks 0). It returns once the request
// is written, or when ctx ends (a request already being written is still
// written whole).
func (c *Client) Send(ctx context.Context, req runtime.APIMessage, version int16) error {
	return c.do(ctx, req, version, nil, nil)
}

// bound gives ctx the request timeout when it has no deadline.
func (c *Client) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok || c.timeout < 0 {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, c.timeout)
}

// start encodes req and hands it to the writer, waiting for its turn no
// longer than ctx allows.
func (c *Client) start(ctx context.Context, req runtime.APIMessage, version int16, resp runtime.APIMessage) (*call, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("kafka client: %s v%d not sent: %w", req.SpecName(), version, err)
	}
	if err := c.Err(); err != nil {
		return nil, err
	}
	buf := getFrame()
	h := frames.RequestHeader{APIKey: req.APIKey(), APIVersion: version, ClientID: c.clientID}
	out, err := frames.AppendRequest((*buf)[:0], &h, req)
	if err != nil {
		putFrame(buf)
		return nil, err
	}
	*buf = out
	cl := &call{name: req.SpecName(), key: req.APIKey(), version: version, resp: resp, frame: buf, done: make(chan error, 1)}
	select {
	case c.queue <- cl:
		return cl, nil
	case <-ctx.Done():
		putFrame(buf)
		return nil, fmt.Errorf("kafka client: %s v%d not sent: %w", req.SpecName(), version, ctx.Err())
	case <-c.dead:
		putFrame(buf)
		return nil, c.Err()
	}
}

// wait waits for the outcome of a call handed to the writer, or for ctx.
func (c *Client) wait(ctx context.Context, cl *call) error {
	select {
	case err := <-cl.done:
		return err
	case <-ctx.Done():
	}
	sent, id := c.abandon(cl)
	select {
	case err := <-cl.done: // the outcome won the race
		return err
	default:
	}
	if !sent {
		return fmt.Errorf("kafka client: %s v%d not sent: %w", cl.name, cl.version, ctx.Err())
	}
	return fmt.Errorf("kafka client: %s v%d (correlation id %d): %w", cl.name, cl.version, id, ctx.Err())
}

// abandon marks a call whose caller gave up: the writer drops it if it has
// not taken it yet, and the reader discards its response. A reader blocked
// inside that response's bytes is woken to discard them instead of
// buffering them.
func (c *Client) abandon(cl *call) (sent bool, id int32) {
	cl.mu.Lock()
	cl.abandoned = true
	sent, id = cl.sent, cl.id
	cl.mu.Unlock()
	c.readMu.Lock()
	if c.reading == cl && !c.poked {
		c.poked = true
		_ = c.conn.SetReadDeadline(aLongTimeAgo)
	}
	c.readMu.Unlock()
	return sent, id
}

// aLongTimeAgo is a deadline in the past: it wakes a blocked read.
var aLongTimeAgo = time.Unix(1, 0)

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
	<-c.writerDone
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
	close(c.dead)
	pending := c.pending
	c.pending = nil
	c.mu.Unlock()
	_ = c.conn.Close()
	for _, cl := range pending {
		cl.finish(err)
	}
}
