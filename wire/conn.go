package wire

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kafkagen/kafkagen/runtime"
)

// Conn is a client connection ready for requests: dialled (Dial) or set up
// on a connection of the caller's (NewConn), TLS done, ApiVersions asked,
// SASL authenticated. Its calls pick their version themselves, the highest
// the broker and the request's own package both support, and it keeps the
// SASL session alive (KIP-368) while it is used. Many goroutines may call
// it at once; their requests are pipelined.
type Conn struct {
	client    *Client
	broker    map[int16]VersionRange
	ranges    []VersionRange // the broker's, as listed
	avVersion int16          // the ApiVersions version the answer was read at
	sasl      SASLMechanism

	// Re-authentication (KIP-368): see conn_sasl.go.
	reauthAt  atomic.Int64 // unix nanoseconds; 0: the session does not expire
	authMu    sync.Mutex
	reauthing chan struct{} // closed when the re-authentication running ends
	starting  int           // calls being handed to the writer
	drained   chan struct{} // closed when starting drops to 0
	reauthers sync.WaitGroup
}

// Do sends req at the highest version both the broker and req's package
// support, and decodes the response into resp, as Client.Do does.
func (c *Conn) Do(ctx context.Context, req, resp runtime.APIMessage) error {
	v, err := c.Version(req)
	if err != nil {
		return err
	}
	return c.client.do(ctx, req, v, resp, c.gate())
}

// DoAt is Do at a version of the caller's choosing (within Range, or the
// broker will likely close the connection).
func (c *Conn) DoAt(ctx context.Context, req runtime.APIMessage, version int16, resp runtime.APIMessage) error {
	return c.client.do(ctx, req, version, resp, c.gate())
}

// Send writes req at the negotiated version without waiting for a
// response (Produce with acks 0), as Client.Send does.
func (c *Conn) Send(ctx context.Context, req runtime.APIMessage) error {
	v, err := c.Version(req)
	if err != nil {
		return err
	}
	return c.client.do(ctx, req, v, nil, c.gate())
}

// Version is the version Do sends req at: the highest of Range.
func (c *Conn) Version(req runtime.Versioned) (int16, error) {
	r, err := c.Range(req)
	return r.MaxVersion, err
}

// Range is the versions of req's api that both the broker and req's
// package support. The error wraps ErrNoCommonVersion.
func (c *Conn) Range(req runtime.Versioned) (VersionRange, error) {
	b, ok := c.broker[req.APIKey()]
	return common(req.APIKey(), b, ok, req)
}

// BrokerVersions lists the broker's ranges in the order of its answer.
func (c *Conn) BrokerVersions() []VersionRange {
	return append([]VersionRange(nil), c.ranges...)
}

// Negotiated intersects the broker's ranges with a whole package's
// (its NewRequest), for a table of every api.
func (c *Conn) Negotiated(newRequest func(apiKey int16) runtime.APIMessage) *Negotiated {
	return Negotiate(c.BrokerVersions(), newRequest)
}

// APIVersions is the broker's ApiVersions answer as a table: its ranges
// and the version the answer was read at (after the KIP-511 retry, if the
// broker asked for one).
func (c *Conn) APIVersions() Versions {
	return Versions{Ranges: c.BrokerVersions(), ReadAt: c.avVersion}
}

// Client is the connection's Client. Calls made through it bypass the
// re-authentication gate: on a connection whose SASL session expires, use
// DoAt for calls at versions of the caller's choosing.
func (c *Conn) Client() *Client { return c.client }

// Err returns why the connection can no longer be used, or nil.
func (c *Conn) Err() error { return c.client.Err() }

// Close closes the connection; calls in flight return ErrClientClosed.
func (c *Conn) Close() error {
	err := c.client.Close()
	c.reauthers.Wait()
	return err
}

// gate is what a call passes before its request is handed to the writer,
// and leaves once it is: a Conn holds calls back while it re-authenticates.
type gate interface {
	enter(ctx context.Context) error
	leave()
}

// do is Do and Send for Client and Conn: bound ctx, pass g (when not
// nil), hand the request to the writer and wait for the outcome.
func (c *Client) do(ctx context.Context, req runtime.APIMessage, version int16, resp runtime.APIMessage, g gate) error {
	if resp != nil && resp.APIKey() != req.APIKey() {
		return fmt.Errorf("kafka client: %s answered by %s", req.SpecName(), resp.SpecName())
	}
	ctx, cancel := c.bound(ctx)
	defer cancel()
	if g != nil {
		if err := g.enter(ctx); err != nil {
			return fmt.Errorf("kafka client: %s v%d not sent: %w", req.SpecName(), version, err)
		}
	}
	cl, err := c.start(ctx, req, version, resp)
	if g != nil {
		g.leave()
	}
	if err != nil {
		return err
	}
	return c.wait(ctx, cl)
}

// sessionDue reports whether the SASL session has reached its
// re-authentication time.
func (c *Conn) sessionDue() bool {
	at := c.reauthAt.Load()
	return at != 0 && time.Now().UnixNano() >= at
}
