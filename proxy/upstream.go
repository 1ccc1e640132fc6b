package proxy

import (
	"context"
	"crypto/tls"
	"encoding/binary"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
	"github.com/kafkagen/kafkagen/wire/frames"
)

// The proxy's own side toward the brokers: TLS and a SASL login with the
// proxy's credentials (Config.UpstreamTLS, UpstreamSASL) on every
// connection it opens, so that clients never hold the brokers' credentials;
// and, when the proxy authenticates clients itself, the brokers' ApiVersions
// answer, which it gives clients before they have authenticated (and
// before any of their bytes reach a broker).

// upstreamClientID is the client id of the proxy's own requests.
const upstreamClientID = "kafkagen-proxy"

// secureUpstream runs TLS and the SASL login over a new connection to addr,
// and returns the session's lifetime (0: it does not expire; see
// upstream_reauth.go).
func (p *Proxy) secureUpstream(raw net.Conn, addr string) (net.Conn, time.Duration, error) {
	conn := raw
	deadline := time.Now().Add(p.cfg.Timeouts.Dial)
	if p.cfg.UpstreamTLS != nil {
		cfg := p.cfg.UpstreamTLS.Clone()
		if cfg.ServerName == "" {
			cfg.ServerName, _, _ = net.SplitHostPort(addr)
		}
		tc := tls.Client(raw, cfg)
		_ = tc.SetDeadline(deadline)
		if err := tc.Handshake(); err != nil {
			return nil, 0, fmt.Errorf("TLS with %s: %w", addr, err)
		}
		conn = tc
	}
	var lifetime time.Duration
	if p.cfg.UpstreamSASL != nil {
		_ = conn.SetDeadline(deadline)
		u := newUpstreamCall(conn)
		var err error
		if lifetime, err = loginUpstream(p.cfg.UpstreamSASL, deadline, u.login); err != nil {
			return nil, 0, fmt.Errorf("logging in to %s: %w", addr, err)
		}
	}
	_ = conn.SetDeadline(time.Time{})
	return conn, lifetime, nil
}

// upstreamCall sends the proxy's own requests on a connection and reads
// their answers, one at a time: the broker sends nothing else meanwhile, so
// the frames read are exactly its answers. The requests' versions use
// response header v0 (SaslHandshake and SaslAuthenticate v1, ApiVersions at
// any version): the body follows the correlation id.
type upstreamCall struct {
	conn   net.Conn
	frames *frames.FrameReader
	corr   int32
}

func newUpstreamCall(conn net.Conn) *upstreamCall {
	return &upstreamCall{conn: conn, frames: frames.NewFrameReader(conn, 1<<20)}
}

func (u *upstreamCall) do(req runtime.APIMessage, version int16, resp runtime.APIMessage) error {
	u.corr++
	out, err := appendOwnRequest(nil, req, version, u.corr)
	if err != nil {
		return err
	}
	if _, err := u.conn.Write(out); err != nil {
		return err
	}
	frame, err := u.frames.Next()
	if err != nil {
		return fmt.Errorf("reading the answer to %s: %w", req.SpecName(), err)
	}
	return decodeOwnAnswer(frame, req, resp, version, u.corr)
}

// appendOwnRequest appends one of the proxy's own requests, framed.
func appendOwnRequest(dst []byte, req runtime.APIMessage, version int16, corr int32) ([]byte, error) {
	h := frames.RequestHeader{APIKey: req.APIKey(), APIVersion: version, CorrelationID: corr,
		ClientID: runtime.NewNullString(upstreamClientID)}
	return frames.AppendRequest(dst, &h, req)
}

// decodeOwnAnswer decodes into resp the answer to one of the proxy's own
// requests, given without its size: the correlation id corr (response
// header v0), then the body.
func decodeOwnAnswer(answer []byte, req, resp runtime.APIMessage, version int16, corr int32) error {
	if len(answer) < 4 || int32(binary.BigEndian.Uint32(answer)) != corr {
		return fmt.Errorf("a %d-byte answer to %s that is not its answer", len(answer), req.SpecName())
	}
	_, err := resp.Decode(answer[4:], version)
	return err
}

// login is a roundTrip at the versions of the login, SaslHandshake and
// SaslAuthenticate v1.
func (u *upstreamCall) login(req, resp runtime.APIMessage) error { return u.do(req, 1, resp) }

// loginUpstream authenticates with mechanism: SaslHandshake v1, then each
// message in a SaslAuthenticate v1 (docs/protocol.md, "SASL"), each sent and
// answered by call. It returns the lifetime the broker gives the session
// (SessionLifetimeMs, KIP-368; 0: none).
func loginUpstream(mechanism wire.SASLMechanism, deadline time.Time, call func(req, resp runtime.APIMessage) error) (time.Duration, error) {
	hs := generated.NewSaslHandshakeRequest()
	hs.Mechanism = mechanism.Name()
	hsResp := generated.NewSaslHandshakeResponse()
	if err := call(hs, hsResp); err != nil {
		return 0, err
	}
	if hsResp.ErrorCode != 0 {
		return 0, &wire.SASLError{Mechanism: hs.Mechanism, Request: "SaslHandshake", Code: hsResp.ErrorCode, Enabled: hsResp.Mechanisms}
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	exchange, msg, err := mechanism.Begin(ctx)
	if err != nil {
		return 0, err
	}
	for range 16 { // SCRAM takes two rounds, PLAIN and OAUTHBEARER one
		auth := generated.NewSaslAuthenticateRequest()
		auth.AuthBytes = msg
		resp := generated.NewSaslAuthenticateResponse()
		if err := call(auth, resp); err != nil {
			return 0, err
		}
		if resp.ErrorCode != 0 {
			return 0, &wire.SASLError{Mechanism: hs.Mechanism, Request: "SaslAuthenticate", Code: resp.ErrorCode, Message: resp.ErrorMessage.Value}
		}
		var done bool
		if msg, done, err = exchange.Next(resp.AuthBytes); err != nil || done {
			return time.Duration(resp.SessionLifetimeMs) * time.Millisecond, err
		}
	}
	return 0, fmt.Errorf("SASL %s did not complete in 16 rounds", hs.Mechanism)
}

// brokerVersions is the brokers' ApiVersions answer, asked once by the
// proxy itself.
type brokerVersions struct {
	mu   sync.Mutex
	resp *generated.APIVersionsResponse
}

// get returns the brokers' ApiVersions answer, asking the first upstream
// that answers the first time.
func (p *Proxy) brokerVersions() (*generated.APIVersionsResponse, error) {
	bv := &p.versions
	bv.mu.Lock()
	defer bv.mu.Unlock()
	if bv.resp != nil {
		return bv.resp, nil
	}
	var errs []error
	for _, addr := range p.cfg.Upstream {
		resp, err := p.askVersions(addr)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		bv.resp = resp
		return resp, nil
	}
	return nil, fmt.Errorf("asking the brokers' versions: %v", errs)
}

// askVersions asks the broker at addr for its ApiVersions answer, whole
// (features included), at v3 (Kafka 2.4 and up), or v0 from a broker that
// refuses v3.
func (p *Proxy) askVersions(addr string) (*generated.APIVersionsResponse, error) {
	conn, _, err := p.dialOne(addr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(p.cfg.Timeouts.Dial))
	u := newUpstreamCall(conn)
	for _, v := range []int16{3, 0} {
		req := generated.NewAPIVersionsRequest()
		if v >= 3 {
			req.ClientSoftwareName, req.ClientSoftwareVersion = "kafkagen-proxy", "1"
		}
		resp := generated.NewAPIVersionsResponse()
		err := u.do(req, v, resp)
		switch {
		case err == nil && resp.ErrorCode == 0:
			return resp, nil
		case v == 0 && err != nil:
			return nil, fmt.Errorf("ApiVersions v0 to %s: %w", addr, err)
		}
		// A broker that refuses v3 answers at v0 (KIP-511), which does not
		// read as v3: ask again at v0.
	}
	return nil, fmt.Errorf("ApiVersions to %s: refused at v3 and v0", addr)
}
