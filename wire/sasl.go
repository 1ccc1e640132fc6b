package wire

import (
	"context"
	"fmt"
	"strings"

	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// The SASL mechanism names of Kafka's SaslHandshake request, shared by
// both sides of a connection.
const (
	SASLPlain       = "PLAIN"         // RFC 4616: user and password in the clear (use TLS)
	SASLScramSHA256 = "SCRAM-SHA-256" // RFC 5802 and 7677, Kafka's KIP-84
	SASLScramSHA512 = "SCRAM-SHA-512"
	SASLOAuthBearer = "OAUTHBEARER" // RFC 7628, Kafka's KIP-255
)

// SASLMechanism authenticates a client connection. A Conn sends
// SaslHandshake v1 with Name, then each message of the exchange in a
// SaslAuthenticate request (KIP-152); the v0 handshake, after which the
// tokens travel as raw frames, is not supported.
//
// A mechanism is used by every connection dialled with its ConnConfig, at
// once: Begin must be safe for concurrent use; each SASLExchange serves
// one authentication.
type SASLMechanism interface {
	// Name is the mechanism's name in SaslHandshake, such as SASLPlain.
	Name() string
	// Begin starts one authentication and returns the client's first
	// message.
	Begin(ctx context.Context) (SASLExchange, []byte, error)
}

// SASLExchange is one authentication in progress.
type SASLExchange interface {
	// Next takes the broker's answer to the client's last message (the
	// AuthBytes of a successful SaslAuthenticate response) and returns the
	// next message to send, or done when that answer completed the
	// authentication. An error (a broker that failed to prove itself, in
	// SCRAM) ends the authentication.
	Next(answer []byte) (message []byte, done bool, err error)
}

// SASLError is an authentication the broker refused: its error code (one
// of UNSUPPORTED_SASL_MECHANISM, ILLEGAL_SASL_STATE,
// SASL_AUTHENTICATION_FAILED, or another) and its message. errors.Is
// matches the code's *kerrors.Error, such as kerrors.SaslAuthenticationFailed.
type SASLError struct {
	Mechanism string
	Request   string // "SaslHandshake" or "SaslAuthenticate"
	Code      int16
	Message   string   // the broker's error message, if it sent one
	Enabled   []string // the mechanisms the broker lists (SaslHandshake)
}

// Error names the mechanism, the request, Kafka's error and the broker's
// message or enabled mechanisms.
func (e *SASLError) Error() string {
	s := fmt.Sprintf("kafka sasl %s: %s: %v", e.Mechanism, e.Request, kerrors.ErrorCode(e.Code))
	if e.Message != "" {
		s += ": broker says: " + e.Message
	}
	if len(e.Enabled) > 0 {
		s += ": the broker enables " + strings.Join(e.Enabled, ", ")
	}
	return s
}

// Unwrap returns the code's error, for errors.Is.
func (e *SASLError) Unwrap() error { return kerrors.ErrorCode(e.Code) }
