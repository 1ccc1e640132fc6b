package wire

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/kafkagen/kafkagen/generated"
)

// SASL on a Conn, and re-authentication (KIP-368). The facts it follows:
//
//   - A broker with connections.max.reauth.ms set answers the last
//     SaslAuthenticate (v1 and up) with SessionLifetimeMs, the most it lets
//     the session live (for OAUTHBEARER also bounded by the token's
//     expiry). Past it, the broker closes the connection at the next
//     request that is not part of a new authentication.
//   - The client authenticates again on the same connection with
//     SaslHandshake then SaslAuthenticate, without a new ApiVersions. Kafka's
//     Java client starts at a random point between 85% and 95% of the
//     lifetime (network delay, clock drift, and no storm of connections
//     re-authenticating at once), and so does a Conn.
//   - Kafka does not require an empty pipe: requests sent before the
//     SaslHandshake may still be in flight, and the broker answers them
//     first, since it serves a connection's requests one at a time and in
//     order (the Java client keeps such responses aside while it
//     re-authenticates). What it forbids is a request other than the
//     handshake's and authentication's between the SaslHandshake and the
//     last SaslAuthenticate response: the broker would take it for a broken
//     SASL exchange (ILLEGAL_SASL_STATE) and close the connection.
//
// So a Conn holds new calls back (enter waits) from the moment a
// re-authentication is due until it ends, lets the calls already being
// handed to the writer go first, and leaves the calls in flight alone:
// their responses arrive before the handshake's.

// gate is the Conn as a gate while its session expires, else nil: a
// session without a lifetime never re-authenticates, and its calls pass
// without touching a lock.
func (c *Conn) gate() gate {
	if c.reauthAt.Load() == 0 {
		return nil
	}
	return c
}

// enter waits while a re-authentication runs, starting it when it is due.
func (c *Conn) enter(ctx context.Context) error {
	for {
		c.authMu.Lock()
		if c.reauthing == nil && c.sessionDue() {
			c.reauthing = make(chan struct{})
			c.reauthers.Add(1)
			go c.reauthenticate(c.reauthing)
		}
		wait := c.reauthing
		if wait == nil {
			c.starting++
			c.authMu.Unlock()
			return nil
		}
		c.authMu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return fmt.Errorf("waiting for SASL re-authentication: %w", ctx.Err())
		case <-c.client.dead:
			return c.client.Err()
		}
	}
}

// leave ends enter once the call's request is with the writer.
func (c *Conn) leave() {
	c.authMu.Lock()
	c.starting--
	if c.starting == 0 && c.drained != nil {
		close(c.drained)
		c.drained = nil
	}
	c.authMu.Unlock()
}

// reauthenticate runs a new authentication once the calls being handed
// to the writer are there, then lets the waiting calls go. A failure
// breaks the connection, which the broker would close at expiry anyway.
func (c *Conn) reauthenticate(done chan struct{}) {
	defer c.reauthers.Done()
	c.authMu.Lock()
	var drained chan struct{}
	if c.starting > 0 {
		drained = make(chan struct{})
		c.drained = drained
	}
	c.authMu.Unlock()
	if drained != nil {
		select {
		case <-drained:
		case <-c.client.dead:
		}
	}
	timeout := c.client.timeout
	if timeout <= 0 {
		timeout = DefaultRequestTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	err := c.authenticate(ctx)
	cancel()
	if err != nil {
		c.client.fail(fmt.Errorf("kafka conn: SASL re-authentication: %w", err))
	}
	c.authMu.Lock()
	c.reauthing = nil
	close(done)
	c.authMu.Unlock()
}

// authenticate runs SaslHandshake v1 and the SaslAuthenticate exchange of
// c.sasl, and schedules the next authentication when the broker gives the
// session a lifetime.
func (c *Conn) authenticate(ctx context.Context) error {
	name := c.sasl.Name()
	hreq := generated.NewSaslHandshakeRequest()
	hv, err := c.Version(hreq)
	if err == nil && hv < 1 {
		err = fmt.Errorf("the broker serves SaslHandshake v%d only: v0, whose tokens travel as raw frames, is not supported", hv)
	}
	if err != nil {
		return fmt.Errorf("kafka sasl %s: %w", name, err)
	}
	areq := generated.NewSaslAuthenticateRequest()
	av, err := c.Version(areq)
	if err != nil {
		return fmt.Errorf("kafka sasl %s: %w", name, err)
	}
	hreq.Mechanism = name
	var hresp generated.SaslHandshakeResponse
	if err := c.client.Do(ctx, hreq, hv, &hresp); err != nil {
		return fmt.Errorf("kafka sasl %s: %w", name, err)
	}
	if hresp.ErrorCode != 0 {
		return &SASLError{Mechanism: name, Request: "SaslHandshake", Code: hresp.ErrorCode, Enabled: hresp.Mechanisms}
	}
	began := time.Now()
	exchange, msg, err := c.sasl.Begin(ctx)
	if err != nil {
		return err
	}
	var aresp generated.SaslAuthenticateResponse
	for {
		areq.AuthBytes = msg
		if err := c.client.Do(ctx, areq, av, &aresp); errors.Is(err, io.EOF) {
			return fmt.Errorf("kafka sasl %s: the broker closed the connection during SaslAuthenticate, as brokers that do not answer SASL_AUTHENTICATION_FAILED do on wrong credentials: %w", name, err)
		} else if err != nil {
			return fmt.Errorf("kafka sasl %s: %w", name, err)
		}
		if aresp.ErrorCode != 0 {
			return &SASLError{Mechanism: name, Request: "SaslAuthenticate", Code: aresp.ErrorCode, Message: aresp.ErrorMessage.Value}
		}
		var done bool
		if msg, done, err = exchange.Next(aresp.AuthBytes); err != nil {
			return err
		}
		if done {
			break
		}
	}
	var at int64
	if life := aresp.SessionLifetimeMs; life > 0 {
		at = began.Add(ReauthAfter(time.Duration(life) * time.Millisecond)).UnixNano()
	}
	c.reauthAt.Store(at)
	return nil
}

// ReauthAfter is how long after a login whose session the broker gives
// lifetime (SaslAuthenticate's SessionLifetimeMs) a client authenticates
// again: a random point between 85% and 95% of it, as Kafka's Java client
// (KIP-368). A Conn and the proxy's connections to brokers both use it.
func ReauthAfter(lifetime time.Duration) time.Duration {
	return time.Duration(float64(lifetime) * (0.85 + 0.1*rand.Float64()))
}
