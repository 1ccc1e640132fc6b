package main

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/kafkagen/kafkagen/conformance/gen/clients"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"

	"github.com/kafkagen/kafkagen/interop/internal/scenario"
)

// authCutBound is how long a connection that never completes its
// authentication may live: the proxy's auth timeout (10s by default,
// examples/proxy/README.md) and a margin for a loaded machine.
const authCutBound = 30 * time.Second

// preAuthAttack is an attempt without authenticating: the SASL mechanism
// it tries ("" for none), and how.
type preAuthAttack struct {
	name, mechanism string
	run             func() attempt
}

// preAuthAttacks are the attempts of clients that never authenticate:
// wrong passwords (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512), an unknown user,
// OAUTHBEARER tokens of tokenSubject's each with one fault (badTokens:
// expired, another audience, another key, another issuer, unsigned), a
// SASL exchange begun and never finished, a connection that never starts
// TLS, garbage instead of TLS, garbage after TLS, and a request before
// authenticating. They run at once; none may reach the broker (checked by
// the caller on the broker's request count).
func preAuthAttacks(ctx context.Context, d gatewayDialer, victim gatewayTenant, tokens *tokenSigner, tokenSubject string) []attempt {
	wrongPassword := func(mechanism, user string) func() attempt {
		return func() attempt {
			c, err := d.dial(ctx, user, scenario.WrongPassword, mechanism, "gateway-auth")
			return refusedAtAuthenticate(c, err, "")
		}
	}
	attacks := []preAuthAttack{
		{"PLAIN with a wrong password", scenario.Plain, wrongPassword(scenario.Plain, victim.Name)},
		{"SCRAM-SHA-256 with a wrong password", scenario.ScramSHA256, wrongPassword(scenario.ScramSHA256, victim.Name)},
		{"SCRAM-SHA-512 with a wrong password", scenario.ScramSHA512, wrongPassword(scenario.ScramSHA512, victim.Name)},
		{"SCRAM-SHA-512 as an unknown user", scenario.ScramSHA512, wrongPassword(scenario.ScramSHA512, "no-such-user")},
		{"SaslHandshake, then silence", scenario.Plain, func() attempt {
			return d.cutAfter(ctx, true, func(conn net.Conn) error {
				req := clients.NewSaslHandshakeRequest()
				req.Mechanism = scenario.Plain
				if err := writeRequest(conn, req, 1); err != nil {
					return err
				}
				var resp clients.SaslHandshakeResponse
				if err := readResponse(conn, &resp, 1); err != nil {
					return fmt.Errorf("SaslHandshake v1: %w", err)
				}
				if resp.ErrorCode != 0 {
					return fmt.Errorf("SaslHandshake v1: error code %d", resp.ErrorCode)
				}
				return nil
			})
		}},
		{"TCP connection that never starts TLS", "", func() attempt {
			return d.cutAfter(ctx, false, func(net.Conn) error { return nil })
		}},
		{"garbage instead of a TLS handshake", "", func() attempt {
			return d.cutAfter(ctx, false, func(conn net.Conn) error {
				_, err := conn.Write([]byte("GET / HTTP/1.1\r\nHost: kafka\r\n\r\n"))
				return err
			})
		}},
		{"garbage after TLS, before authenticating", "", func() attempt {
			return d.cutAfter(ctx, true, func(conn net.Conn) error {
				garbage := make([]byte, 64)
				rand.Read(garbage)
				garbage[0] = 0x7f // a size prefix far above any frame limit
				_, err := conn.Write(garbage)
				return err
			})
		}},
		{"Metadata before authenticating", "", func() attempt {
			return d.cutAfter(ctx, true, func(conn net.Conn) error {
				return writeRequest(conn, clients.NewMetadataRequest(), 4)
			})
		}},
	}
	for _, tc := range badTokens {
		attacks = append(attacks, preAuthAttack{"OAUTHBEARER token " + tc.name, wire.SASLOAuthBearer,
			func() attempt { return tokenAttempt(ctx, d, tokens, tc, tokenSubject) }})
	}
	out := make([]attempt, len(attacks))
	var wg sync.WaitGroup
	for i, at := range attacks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = at.run()
			out[i].Name, out[i].Mechanism = "unauthenticated: "+at.name, at.mechanism
		}()
	}
	wg.Wait()
	return out
}

// refusedAtAuthenticate is the attempt of a login that must fail at
// SaslAuthenticate with SASL_AUTHENTICATION_FAILED, whose message names
// reason when it is not "": c and err are what dialling gave.
func refusedAtAuthenticate(c *wire.Conn, err error, reason string) attempt {
	if err == nil {
		if c != nil {
			c.Close()
		}
		return attempt{Detail: "authenticated"}
	}
	var se *wire.SASLError
	switch {
	case !errors.As(err, &se) || se.Code != codeSASLAuthenticationFailed || se.Request != "SaslAuthenticate":
		return attempt{Detail: "want SASL_AUTHENTICATION_FAILED at SaslAuthenticate, got " + err.Error()}
	case !strings.Contains(se.Message, reason):
		return attempt{Detail: fmt.Sprintf("SASL_AUTHENTICATION_FAILED, but not for %q: %s", reason, se.Message)}
	}
	return attempt{Held: true, Detail: "SASL_AUTHENTICATION_FAILED: " + se.Message}
}

// cutAfter connects (over TLS when withTLS), runs step, then waits for the
// proxy to close the connection: held when it does within authCutBound,
// reading nothing more.
func (d gatewayDialer) cutAfter(ctx context.Context, withTLS bool, step func(net.Conn) error) attempt {
	start := time.Now()
	var dialer net.Dialer
	conn, err := dialer.DialContext(ctx, "tcp", d.addr)
	if err != nil {
		return attempt{Detail: "dial: " + err.Error()}
	}
	defer conn.Close()
	conn.SetDeadline(start.Add(authCutBound))
	if withTLS {
		sec := scenario.Security{Protocol: scenario.SSL, CAFile: d.caFile}
		cfg, err := sec.TLSConfig()
		if err != nil {
			return attempt{Detail: err.Error()}
		}
		cfg.ServerName = "127.0.0.1"
		t := tls.Client(conn, cfg)
		if err := t.HandshakeContext(ctx); err != nil {
			return attempt{Detail: "TLS handshake: " + err.Error()}
		}
		conn = t
	}
	if err := step(conn); err != nil {
		return attempt{Detail: err.Error()}
	}
	n, err := io.Copy(io.Discard, conn)
	took := time.Since(start).Round(100 * time.Millisecond)
	var timeout net.Error
	switch {
	case errors.As(err, &timeout) && timeout.Timeout():
		return attempt{Detail: fmt.Sprintf("still open after %v", authCutBound)}
	case n > 0:
		return attempt{Detail: fmt.Sprintf("closed after %v, having sent %d more bytes", took, n)}
	}
	return attempt{Held: true, Detail: fmt.Sprintf("closed after %v", took)}
}

// writeRequest writes req at version, a version whose request header is
// v1 (not flexible), as one frame.
func writeRequest(conn net.Conn, req runtime.APIMessage, version int16) error {
	frame := make([]byte, 4, 64)
	frame = binary.BigEndian.AppendUint16(frame, uint16(req.APIKey()))
	frame = binary.BigEndian.AppendUint16(frame, uint16(version))
	frame = binary.BigEndian.AppendUint32(frame, 1) // the correlation id
	clientID := "gateway-auth"
	frame = binary.BigEndian.AppendUint16(frame, uint16(len(clientID)))
	frame = append(frame, clientID...)
	frame, err := req.AppendTo(frame, version)
	if err != nil {
		return err
	}
	binary.BigEndian.PutUint32(frame, uint32(len(frame)-4))
	_, err = conn.Write(frame)
	return err
}

// readResponse reads one frame with a v0 response header and decodes its
// body into resp.
func readResponse(conn net.Conn, resp runtime.APIMessage, version int16) error {
	var size [4]byte
	if _, err := io.ReadFull(conn, size[:]); err != nil {
		return err
	}
	n := binary.BigEndian.Uint32(size[:])
	if n < 4 || n > 1<<20 {
		return fmt.Errorf("a response frame of %d bytes", n)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(conn, body); err != nil {
		return err
	}
	_, err := resp.Decode(body[4:], version)
	return err
}
