package wire

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/frames"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// The api keys of the SASL exchange.
const (
	saslHandshakeKey    = generated.APIKeySaslHandshake
	saslAuthenticateKey = generated.APIKeySaslAuthenticate
)

// minReauthInterval is Kafka's: a connection starts a re-authentication at
// most once a second; a SaslHandshake sooner is answered ILLEGAL_SASL_STATE.
const minReauthInterval = time.Second

// SASLConfig enables SASL authentication on a Server. Credentials come from
// the application: PLAIN checks a user's password, SCRAM looks up what the
// server stores for a user (see NewScramCredentials).
type SASLConfig struct {
	// Mechanisms are the enabled mechanisms, in the order SaslHandshake
	// answers list them: "PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512". Empty:
	// PLAIN when Plain is set, and both SCRAM mechanisms when Scram is.
	Mechanisms []string
	// Plain reports whether password is user's. Required for PLAIN.
	Plain func(user, password string) bool
	// Scram returns what the server stores for user under a SCRAM
	// mechanism, or false for a user it does not know. Required for SCRAM.
	Scram func(mechanism, user string) (ScramCredentials, bool)
	// MaxReauth is connections.max.reauth.ms (KIP-368): an authenticated
	// session lasts this long, the client is told so in SaslAuthenticate v1
	// and up, and may authenticate again on the same connection; a request
	// after the session expired closes the connection. 0: sessions never
	// expire and re-authentication is refused.
	MaxReauth time.Duration
	// MaxReceiveSize is sasl.server.max.receive.size: the largest frame read
	// before authentication succeeds. 0: DefaultSASLMaxReceiveSize.
	MaxReceiveSize int
}

// saslServer is a Server's checked SASL configuration.
type saslServer struct {
	mechanisms []string
	plain      func(user, password string) bool
	scram      func(mechanism, user string) (ScramCredentials, bool)
	maxReauth  time.Duration
	maxReceive int
}

func newSASLServer(cfg *SASLConfig) (*saslServer, error) {
	s := &saslServer{plain: cfg.Plain, scram: cfg.Scram, maxReauth: cfg.MaxReauth, maxReceive: cfg.MaxReceiveSize}
	if s.maxReceive <= 0 {
		s.maxReceive = DefaultSASLMaxReceiveSize
	}
	s.mechanisms = slices.Clone(cfg.Mechanisms)
	if len(s.mechanisms) == 0 {
		if cfg.Plain != nil {
			s.mechanisms = append(s.mechanisms, SASLPlain)
		}
		if cfg.Scram != nil {
			s.mechanisms = append(s.mechanisms, SASLScramSHA256, SASLScramSHA512)
		}
	}
	if len(s.mechanisms) == 0 {
		return nil, errors.New("kafka server: SASLConfig enables no mechanism: set Plain, Scram or both")
	}
	for _, m := range s.mechanisms {
		switch {
		case m == SASLPlain && cfg.Plain == nil:
			return nil, errors.New("kafka server: SASLConfig enables PLAIN without a Plain check")
		case (m == SASLScramSHA256 || m == SASLScramSHA512) && cfg.Scram == nil:
			return nil, fmt.Errorf("kafka server: SASLConfig enables %s without a Scram lookup", m)
		case m != SASLPlain && m != SASLScramSHA256 && m != SASLScramSHA512:
			return nil, fmt.Errorf("kafka server: SASLConfig enables %q: the mechanisms served are PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512", m)
		}
	}
	return s, nil
}

// saslStage is where a connection is in authentication, after Kafka's
// SaslServerAuthenticator. Its rules, which saslConn follows:
//
//   - Before a handshake, only ApiVersions (once answered, not again) and
//     SaslHandshake may come; any other request closes the connection with
//     no answer (Kafka takes it for a client of the wrong security
//     protocol).
//   - A SaslHandshake naming a mechanism that is not enabled is answered
//     UNSUPPORTED_SASL_MECHANISM (33) with the enabled list, then the
//     connection is closed.
//   - After a v1 handshake only SaslAuthenticate may come. A SaslHandshake
//     is answered ILLEGAL_SASL_STATE (34), then the connection is closed;
//     Kafka answers any other request with that error in its own response
//     type and closes, which this server, knowing no other response types,
//     does by closing alone.
//   - After a v0 handshake the tokens travel as bare size-prefixed frames.
//   - A failed authentication is answered SASL_AUTHENTICATION_FAILED (58)
//     with a message (a v0 exchange has no way to say it), then the
//     connection is closed.
//   - Once authenticated, SaslHandshake and SaslAuthenticate are answered
//     ILLEGAL_SASL_STATE and the connection stays, except that a
//     SaslHandshake on a session with a lifetime (KIP-368) starts a
//     re-authentication, which must keep the mechanism and the principal.
//     A request after the session expired closes the connection.
type saslStage int

const (
	stageStart     saslStage = iota // ApiVersions or SaslHandshake
	stageHandshake                  // ApiVersions answered: SaslHandshake
	stageTokens                     // v1 handshake accepted: SaslAuthenticate
	stageRawTokens                  // v0 handshake accepted: bare tokens
	stageDone                       // authenticated: the handler's requests
)

// String says where authentication is, for errors.
func (s saslStage) String() string {
	return [...]string{"before a SaslHandshake", "after ApiVersions, before a SaslHandshake", "during SaslAuthenticate",
		"during a v0 token exchange", "after authentication"}[s]
}

var (
	// ErrNotAuthenticated: a request came before SASL authentication
	// allowed it.
	ErrNotAuthenticated = errors.New("request before SASL authentication")
	// ErrSessionExpired: a request came after the SASL session's lifetime
	// (SASLConfig.MaxReauth) without a re-authentication.
	ErrSessionExpired = errors.New("SASL session expired")
)

// saslConn is the authentication of one connection.
type saslConn struct {
	srv       *saslServer
	stage     saslStage
	exchange  saslExchange
	mechanism string // the handshake's
	// reauthenticating is set while a KIP-368 re-authentication runs;
	// badMechanism says why it will fail.
	reauthenticating bool
	badMechanism     string
	expires          time.Time // zero: never
	lastReauth       time.Time
	decoder          *RequestDecoder
	req              Request
}

// exchanging reports whether an authentication (or re-authentication) is
// under way, whose frames sasl.server.max.receive.size bounds.
func (a *saslConn) exchanging() bool { return a.stage != stageDone }

// saslRequests decodes the SASL requests with the module's own messages,
// whatever package the application generated.
func saslRequests(key int16) runtime.APIMessage {
	switch key {
	case saslHandshakeKey:
		return generated.NewSaslHandshakeRequest()
	case saslAuthenticateKey:
		return generated.NewSaslAuthenticateRequest()
	}
	return nil
}

// intercept serves frame when authentication has a say in it, reporting
// handled; a frame it leaves is the handler's.
func (a *saslConn) intercept(c *serverConn, frame []byte) (handled bool, err error) {
	if a.stage == stageRawTokens {
		return true, a.rawToken(c, frame)
	}
	key, version, err := frames.PeekRequestKey(frame)
	if err != nil {
		return true, err
	}
	isSASL := key == saslHandshakeKey || key == saslAuthenticateKey
	switch a.stage {
	case stageDone:
		if key == saslHandshakeKey && a.mayReauthenticate() {
			return true, a.handshake(c, frame)
		}
		if !a.expires.IsZero() && time.Now().After(a.expires) {
			return true, fmt.Errorf("kafka sasl: %w (api key %d after %v)", ErrSessionExpired, key, a.srv.maxReauth)
		}
		if isSASL {
			return true, a.illegalState(c, frame, false)
		}
		return false, nil
	case stageStart, stageHandshake:
		switch {
		case key == saslHandshakeKey:
			return true, a.handshake(c, frame)
		case key == generated.APIKeyAPIVersions && a.stage == stageStart:
			if c.apiVersionsServed(version) {
				a.stage = stageHandshake
			}
			return false, nil
		}
	case stageTokens:
		switch key {
		case saslAuthenticateKey:
			return true, a.authenticate(c, frame)
		case saslHandshakeKey:
			return true, a.illegalState(c, frame, true)
		}
	}
	return true, fmt.Errorf("kafka sasl: api key %d v%d %v: %w", key, version, a.stage, ErrNotAuthenticated)
}

// mayReauthenticate reports whether a SaslHandshake on an authenticated
// connection starts a re-authentication: the session has a lifetime and the
// last one started a second or more ago.
func (a *saslConn) mayReauthenticate() bool {
	return !a.expires.IsZero() && time.Since(a.lastReauth) >= minReauthInterval
}

// decode decodes one of the SASL requests.
func (a *saslConn) decode(frame []byte) error {
	if a.decoder == nil {
		a.decoder = NewRequestDecoder(saslRequests, false, nil)
	}
	return a.decoder.Decode(frame, &a.req)
}

// handshake serves a SaslHandshake: the mechanism is enabled, or the
// connection ends after the answer.
func (a *saslConn) handshake(c *serverConn, frame []byte) error {
	if err := a.decode(frame); err != nil {
		return err
	}
	mechanism := a.req.Body.(*generated.SaslHandshakeRequest).Mechanism
	resp := generated.NewSaslHandshakeResponse()
	resp.Mechanisms = a.srv.mechanisms
	if !slices.Contains(a.srv.mechanisms, mechanism) {
		resp.ErrorCode = kerrors.UnsupportedSaslMechanism.Code
		if err := c.respond(&a.req.Header, resp); err != nil {
			return err
		}
		return fmt.Errorf("kafka sasl: mechanism %q (enabled: %v): %w", mechanism, a.srv.mechanisms, kerrors.UnsupportedSaslMechanism)
	}
	if a.stage == stageDone {
		a.reauthenticating, a.lastReauth = true, time.Now()
		if mechanism != c.peer.Mechanism {
			a.badMechanism = fmt.Sprintf("SASL mechanism '%s' requested by client is not supported for re-authentication of mechanism '%s'", mechanism, c.peer.Mechanism)
		}
	}
	a.mechanism, a.exchange = mechanism, a.srv.newExchange(mechanism)
	a.stage = stageTokens
	if a.req.Header.APIVersion == 0 {
		a.stage = stageRawTokens
	}
	return c.respond(&a.req.Header, resp)
}

// authenticate serves a SaslAuthenticate: one token of the exchange.
func (a *saslConn) authenticate(c *serverConn, frame []byte) error {
	if err := a.decode(frame); err != nil {
		return err
	}
	token := a.req.Body.(*generated.SaslAuthenticateRequest).AuthBytes
	reply, done, failure := a.step(c, token)
	resp := generated.NewSaslAuthenticateResponse()
	if failure != nil {
		resp.ErrorCode = kerrors.SaslAuthenticationFailed.Code
		resp.ErrorMessage = runtime.NewNullString(failure.Error())
		if err := c.respond(&a.req.Header, resp); err != nil {
			return err
		}
		return fmt.Errorf("kafka sasl: %v: %w", failure, kerrors.SaslAuthenticationFailed)
	}
	resp.AuthBytes = reply
	if done {
		resp.SessionLifetimeMs = a.complete(c)
	}
	return c.respond(&a.req.Header, resp)
}

// rawToken serves one token of a v0 exchange, which travels as a bare
// frame, and answers with a bare frame; a failure can only close.
func (a *saslConn) rawToken(c *serverConn, token []byte) error {
	reply, done, failure := a.step(c, token)
	if failure != nil {
		return fmt.Errorf("kafka sasl: %v: %w", failure, kerrors.SaslAuthenticationFailed)
	}
	if done {
		a.complete(c)
	}
	return c.send(4+len(reply), func(dst []byte) ([]byte, error) { return frames.AppendFrame(dst, reply) })
}

// step runs one step of the exchange and, when it completes, checks what a
// re-authentication must keep.
func (a *saslConn) step(c *serverConn, token []byte) (reply []byte, done bool, failure error) {
	if a.badMechanism != "" {
		return nil, false, errors.New(a.badMechanism)
	}
	reply, done, failure = a.exchange.step(token)
	if failure == nil && done && a.reauthenticating && a.exchange.user() != c.peer.Principal {
		failure = fmt.Errorf("Cannot change principals during re-authentication from User:%s: User:%s", c.peer.Principal, a.exchange.user())
	}
	return reply, done, failure
}

// complete ends a successful exchange: the principal is the handler's to
// see, and the session's lifetime starts.
func (a *saslConn) complete(c *serverConn) (lifetimeMs int64) {
	c.peer.Principal, c.peer.Mechanism = a.exchange.user(), a.mechanism
	a.stage, a.reauthenticating, a.exchange = stageDone, false, nil
	a.expires = time.Time{}
	if a.srv.maxReauth > 0 {
		a.expires = time.Now().Add(a.srv.maxReauth)
		return a.srv.maxReauth.Milliseconds()
	}
	return 0
}

// illegalState answers a SaslHandshake or SaslAuthenticate that comes at
// the wrong time with ILLEGAL_SASL_STATE; during authentication the
// connection then ends.
func (a *saslConn) illegalState(c *serverConn, frame []byte, closeAfter bool) error {
	if err := a.decode(frame); err != nil {
		return err
	}
	var resp runtime.APIMessage
	switch a.req.Body.(type) {
	case *generated.SaslHandshakeRequest:
		hs := generated.NewSaslHandshakeResponse()
		hs.ErrorCode = kerrors.IllegalSaslState.Code
		resp = hs
	default:
		au := generated.NewSaslAuthenticateResponse()
		au.ErrorCode = kerrors.IllegalSaslState.Code
		au.ErrorMessage = runtime.NewNullString("SaslAuthenticate request received after successful authentication")
		resp = au
	}
	if err := c.respond(&a.req.Header, resp); err != nil || !closeAfter {
		return err
	}
	return fmt.Errorf("kafka sasl: api key %d during authentication: %w", a.req.Header.APIKey, kerrors.IllegalSaslState)
}
