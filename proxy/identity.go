package proxy

import (
	"cmp"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
	"github.com/kafkagen/kafkagen/wire/frames"
)

// Identity at the proxy (Config.TLS, Config.SASL): a client connection is
// admitted, TLS and SASL, before the proxy opens a connection to a broker
// for it, so that nothing a client sends before authenticating reaches a
// broker. The one request a client may send before authenticating,
// ApiVersions, is answered from the brokers' answer the proxy asked itself
// (upstream.go), narrowed as every ApiVersions answer is. After admission
// the client's SaslHandshake and SaslAuthenticate requests (KIP-368
// re-authentication) are served by the proxy too (reauthenticate, in the
// request pump), and a request after the session expired closes the
// connection. docs/protocol.md, "SASL".

// saslAuthenticateKey is SaslAuthenticate's api key (SaslHandshake's is in
// apiversions.go).
const saslAuthenticateKey int16 = 36

// errHandshakeV0AfterAuth closes an admitted connection that sends a v0
// SaslHandshake: the proxy advertises v0 only before authentication.
var errHandshakeV0AfterAuth = errors.New("a v0 handshake is served only before authentication")

// admit runs TLS and SASL with a new client, within Timeouts.Auth, and
// returns the connection to relay (the TLS one, with TLS) and the SASL
// session (nil without SASL).
func (p *Proxy) admit(client net.Conn, info *ConnInfo) (net.Conn, *wire.SASLSession, error) {
	if p.cfg.TLS == nil && p.cfg.SASL == nil {
		return client, nil, nil
	}
	deadline := time.Now().Add(p.cfg.Timeouts.Auth)
	conn := client
	if p.cfg.TLS != nil {
		tc := tls.Server(client, p.cfg.TLS)
		_ = tc.SetDeadline(deadline)
		if err := tc.Handshake(); err != nil {
			return nil, nil, fmt.Errorf("TLS handshake: %w", err)
		}
		conn = tc
	}
	if p.cfg.SASL == nil {
		_ = conn.SetDeadline(time.Time{})
		return conn, nil, nil
	}
	session, err := wire.NewSASLSession(p.cfg.SASL, p.answersAPIVersions)
	if err != nil {
		return nil, nil, err
	}
	_ = conn.SetDeadline(deadline)
	// A failed admission is told with the mechanism it tried (metrics
	// count failures by mechanism).
	defer func() { info.Mechanism = cmp.Or(info.Mechanism, session.Requested()) }()
	var buf []byte
	for !session.Authenticated() {
		if buf, err = readAuthFrame(conn, buf, session.MaxReceiveSize()); err != nil {
			return nil, nil, fmt.Errorf("before authentication: %w", err)
		}
		out, handled, err := session.Serve(buf)
		if len(out) > 0 {
			if _, werr := conn.Write(out); werr != nil && err == nil {
				err = werr
			}
		}
		if err != nil {
			return nil, nil, fmt.Errorf("authenticating: %w", err)
		}
		if handled {
			continue
		}
		// Left by the session: ApiVersions before the handshake.
		if out, err = p.localAPIVersions(buf); err != nil {
			return nil, nil, err
		}
		if _, err := conn.Write(out); err != nil {
			return nil, nil, err
		}
	}
	info.Principal, info.Mechanism = session.Principal(), session.Mechanism()
	_ = conn.SetDeadline(time.Time{})
	return conn, session, nil
}

// readAuthFrame reads one size-prefixed frame of at most limit bytes into buf
// (reused), taking no byte past it: what follows is the relay's.
func readAuthFrame(conn net.Conn, buf []byte, limit int) ([]byte, error) {
	var size [4]byte
	if _, err := io.ReadFull(conn, size[:]); err != nil {
		return nil, err
	}
	n := int32(binary.BigEndian.Uint32(size[:]))
	if n < 0 || int(n) > limit {
		return nil, fmt.Errorf("a frame of %d bytes (the limit before authentication is %d): %w", n, limit, frames.ErrFrameSize)
	}
	if cap(buf) < int(n) {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	_, err := io.ReadFull(conn, buf)
	return buf, err
}

// answersAPIVersions reports whether the proxy answers ApiVersions at v
// (above its range it answers KIP-511's UNSUPPORTED_VERSION instead).
func (p *Proxy) answersAPIVersions(v int16) bool {
	r := p.clamp.packageRange()
	return v >= r.MinVersion && v <= r.MaxVersion
}

// localAPIVersions answers an ApiVersions request (frame, without its size)
// with the brokers' versions, narrowed to what the proxy serves.
func (p *Proxy) localAPIVersions(frame []byte) ([]byte, error) {
	key, version, err := frames.PeekRequestKey(frame)
	if err != nil {
		return nil, err
	}
	if key != generated.APIKeyAPIVersions {
		return nil, fmt.Errorf("api key %d v%d before authentication: %w", key, version, wire.ErrNotAuthenticated)
	}
	corr := int32(binary.BigEndian.Uint32(frame[4:8]))
	if !p.answersAPIVersions(version) {
		r := p.clamp.packageRange()
		return frames.AppendAPIVersionsUnsupported(nil, corr, r.MinVersion, r.MaxVersion), nil
	}
	brokers, err := p.brokerVersions()
	if err != nil {
		return nil, err
	}
	resp := *brokers
	resp.ThrottleTimeMs = 0
	resp.APIKeys = withSASLVersions(resp.APIKeys)
	encoded, err := frames.AppendResponse(nil, corr, &resp, version)
	if err != nil {
		return nil, fmt.Errorf("encoding the brokers' ApiVersions at v%d: %w", version, err)
	}
	// The response header of ApiVersions is v0 at every version (KIP-511):
	// the size, then the correlation id.
	return p.clamp.rewrite(nil, corr, encoded[8:], version, true)
}

// withSASLVersions is keys with SaslHandshake and SaslAuthenticate at the
// versions the proxy serves itself (wire.SASLSession), whatever the brokers
// list: the client authenticates with the proxy, not with them.
func withSASLVersions(keys []generated.APIVersionsResponseAPIVersion) []generated.APIVersionsResponseAPIVersion {
	out := make([]generated.APIVersionsResponseAPIVersion, 0, len(keys)+2)
	for _, k := range keys {
		if k.APIKey != saslHandshakeKey && k.APIKey != saslAuthenticateKey {
			out = append(out, k)
		}
	}
	for _, m := range []runtime.APIMessage{generated.NewSaslHandshakeRequest(), generated.NewSaslAuthenticateRequest()} {
		out = append(out, generated.APIVersionsResponseAPIVersion{APIKey: m.APIKey(), MinVersion: m.MinVersion(), MaxVersion: m.MaxVersion()})
	}
	return out
}

// reauthenticate gives the client's session a say in a request of an
// admitted connection: SaslHandshake and SaslAuthenticate (KIP-368) are
// answered by the proxy, and a request after the session expired closes
// the connection. It reports whether it took the request.
func (rp *requestPump) reauthenticate(info frames.RequestInfo, size int, frame []byte) (bool, error) {
	c := rp.c
	probe := c.toBroker.prefix(size) // enough for the api key, for the others
	if info.APIKey == saslHandshakeKey && info.APIVersion == 0 {
		// Bare tokens would follow, which the relay cannot tell from
		// requests; a re-authentication (KIP-368) uses v1.
		return true, fmt.Errorf("SaslHandshake v0 after authentication: %w", errHandshakeV0AfterAuth)
	}
	if info.APIKey == saslHandshakeKey || info.APIKey == saslAuthenticateKey {
		if frame == nil {
			var err error
			if frame, err = c.toBroker.frame(size); err != nil {
				return true, err
			}
		}
		probe = frame[4:]
	}
	out, handled, err := c.session.Serve(probe)
	if len(out) > 0 {
		if werr := c.answerLocally(out); werr != nil && err == nil {
			err = werr
		}
	}
	return handled, err
}
