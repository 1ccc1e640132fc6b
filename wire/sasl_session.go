package wire

import (
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/frames"
)

// SASLSession is the server side of SASL (and of KIP-368's
// re-authentication) for a connection that the caller reads and writes
// itself, such as a proxy's: the rules of Server's authentication
// (saslStage), given one request frame at a time.
//
// It is not safe for concurrent use: one goroutine, the one reading the
// connection's requests, calls it.
type SASLSession struct {
	auth       saslConn
	peer       Peer
	out        []byte
	apiVersion func(version int16) bool
}

// NewSASLSession starts the authentication of one connection. apiVersions
// reports whether the caller answers an ApiVersions request of a version
// (the one request a client may send before authenticating): when it does,
// a second one before the handshake closes the connection, as Kafka does.
func NewSASLSession(cfg *SASLConfig, apiVersions func(version int16) bool) (*SASLSession, error) {
	srv, err := newSASLServer(cfg)
	if err != nil {
		return nil, err
	}
	return &SASLSession{auth: saslConn{srv: srv}, apiVersion: apiVersions}, nil
}

// Serve gives the session a request frame (without its size prefix). When
// handled, the session served it, and out holds the frames to write to the
// client (size prefixes included; valid until the next call). When not, the
// request is the caller's: an ApiVersions before authentication, or any
// request of an authenticated session. An error means the connection must
// be closed, after writing out: an authentication failed, a request came
// before authentication, or the session expired (ErrSessionExpired).
func (s *SASLSession) Serve(frame []byte) (out []byte, handled bool, err error) {
	s.out = s.out[:0]
	handled, err = s.auth.intercept(s, frame)
	return s.out, handled, err
}

// Authenticated reports whether the client has authenticated (and stays
// so during a re-authentication).
func (s *SASLSession) Authenticated() bool { return s.peer.Principal != "" }

// Exchanging reports whether an authentication is under way: its frames
// should be read with MaxReceiveSize as their limit.
func (s *SASLSession) Exchanging() bool { return s.auth.exchanging() }

// MaxReceiveSize is the largest frame to read during an exchange
// (sasl.server.max.receive.size).
func (s *SASLSession) MaxReceiveSize() int { return s.auth.srv.maxReceive }

// Requested is the mechanism the client's last SaslHandshake chose (""
// before one, or when it named one not enabled): what a failed
// authentication was tried with.
func (s *SASLSession) Requested() string { return s.auth.mechanism }

// Principal and Mechanism are what the last authentication established;
// empty before.
func (s *SASLSession) Principal() string { return s.peer.Principal }
func (s *SASLSession) Mechanism() string { return s.peer.Mechanism }

func (s *SASLSession) respond(h *frames.RequestHeader, resp runtime.APIMessage) error {
	out, err := frames.AppendResponse(s.out, h.CorrelationID, resp, h.APIVersion)
	if err != nil {
		return err
	}
	s.out = out
	return nil
}

func (s *SASLSession) send(_ int, appendTo func(dst []byte) ([]byte, error)) error {
	out, err := appendTo(s.out)
	if err != nil {
		return err
	}
	s.out = out
	return nil
}

func (s *SASLSession) apiVersionsServed(v int16) bool { return s.apiVersion != nil && s.apiVersion(v) }

func (s *SASLSession) authPeer() *Peer { return &s.peer }
