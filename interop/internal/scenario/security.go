package scenario

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
)

// Security protocols, as Kafka's security.protocol names them.
const (
	Plaintext     = "PLAINTEXT"
	SSL           = "SSL"
	SASLPlaintext = "SASL_PLAINTEXT"
	SASLSSL       = "SASL_SSL"
)

// SASL mechanisms the clients are run with.
const (
	Plain       = "PLAIN"
	ScramSHA256 = "SCRAM-SHA-256"
	ScramSHA512 = "SCRAM-SHA-512"
)

// WrongPassword is the password of the steps that expect to be refused.
const WrongPassword = "not-the-password"

// Security is how a client reaches a secured broker: Kafka's
// security.protocol, a SASL mechanism with its credentials, and the CA that
// signed the broker's certificate.
type Security struct {
	Protocol       string // Plaintext, SSL, SASLPlaintext or SASLSSL; "" is Plaintext
	Mechanism      string // Plain, ScramSHA256 or ScramSHA512, for the SASL protocols
	User, Password string
	CAFile         string // PEM, for SSL and SASL_SSL
	// RepeatedScramNonceAccepted says the server takes the SCRAM final
	// message of librdkafka before 2.6.1, which repeats the client's nonce
	// (kafkaproxy's acceptRepeatedScramNonce); Kafka 4 and the example
	// broker refuse it. Only kcat's steps read it.
	RepeatedScramNonceAccepted bool
}

// UsesTLS reports whether the protocol runs over TLS.
func (s Security) UsesTLS() bool { return s.Protocol == SSL || s.Protocol == SASLSSL }

// UsesSASL reports whether the protocol authenticates with SASL.
func (s Security) UsesSASL() bool { return s.Protocol == SASLPlaintext || s.Protocol == SASLSSL }

// Secured reports whether s is anything but plaintext.
func (s Security) Secured() bool { return s.UsesTLS() || s.UsesSASL() }

// Check reports what makes s unusable: an unknown protocol or mechanism, or
// a missing user, password or CA file.
func (s Security) Check() error {
	switch s.Protocol {
	case "", Plaintext, SSL, SASLPlaintext, SASLSSL:
	default:
		return fmt.Errorf("security protocol %q: want PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL", s.Protocol)
	}
	if s.UsesSASL() {
		switch s.Mechanism {
		case Plain, ScramSHA256, ScramSHA512:
		default:
			return fmt.Errorf("%s: SASL mechanism %q: want PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512", s.Protocol, s.Mechanism)
		}
		if s.User == "" || s.Password == "" {
			return fmt.Errorf("%s: a SASL user and password are needed", s.Protocol)
		}
	}
	if s.UsesTLS() && s.CAFile == "" {
		return fmt.Errorf("%s: a CA file is needed", s.Protocol)
	}
	return nil
}

// Label names the security in step names and client ids: "ssl",
// "sasl-plaintext-plain", "sasl-ssl-scram-sha-512" ("sasl-ssl" with no
// mechanism set).
func (s Security) Label() string {
	label := strings.ToLower(strings.ReplaceAll(s.Protocol, "_", "-"))
	if s.UsesSASL() && s.Mechanism != "" {
		label += "-" + strings.ToLower(s.Mechanism)
	}
	return label
}

// String describes s for "ok" lines: "SASL_SSL with SCRAM-SHA-512 as alice".
func (s Security) String() string {
	if s.UsesSASL() {
		return s.Protocol + " with " + s.Mechanism + " as " + s.User
	}
	return s.Protocol
}

// WithPassword returns s with another password.
func (s Security) WithPassword(password string) Security {
	s.Password = password
	return s
}

// AuthFailedMessage is the message Kafka (and the example broker) puts in
// the SASL_AUTHENTICATION_FAILED answer to a wrong password under s's
// mechanism. A client reporting it shows that the broker answered, rather
// than the client guessing from a closed connection: the clients' own
// texts for code 58 ("SASL Authentication failed") differ from it.
func (s Security) AuthFailedMessage() string {
	if s.Mechanism == Plain {
		return "Authentication failed: Invalid username or password"
	}
	return "Authentication failed during authentication due to invalid credentials with SASL mechanism " + s.Mechanism
}

// TLSConfig trusts the CA of CAFile only; nil for a protocol without TLS.
// The server name is left to the client, which takes the broker's host
// (127.0.0.1, an IP address the certificate names).
func (s Security) TLSConfig() (*tls.Config, error) {
	if !s.UsesTLS() {
		return nil, nil
	}
	pem, err := os.ReadFile(s.CAFile)
	if err != nil {
		return nil, fmt.Errorf("CA file: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("CA file %s: no PEM certificate in it", s.CAFile)
	}
	return &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}, nil
}

// SecurityFlags registers the flags of a client command that set a
// Security, named as the harness passes them to every client.
func SecurityFlags(fs *flag.FlagSet) *Security {
	s := &Security{}
	fs.StringVar(&s.Protocol, "security-protocol", Plaintext, "PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL")
	fs.StringVar(&s.Mechanism, "sasl-mechanism", "", "PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512")
	fs.StringVar(&s.User, "sasl-user", "", "SASL user")
	fs.StringVar(&s.Password, "sasl-password", "", "SASL password")
	fs.StringVar(&s.CAFile, "ca-file", "", "PEM file of the CA that signed the broker's certificate")
	fs.BoolVar(&s.RepeatedScramNonceAccepted, "scram-repeated-nonce-accepted", false, "the server accepts librdkafka's repeated SCRAM nonce (kafkaproxy's acceptRepeatedScramNonce)")
	return s
}

// SecureSteps are the scenarios of a client against a secured broker, named
// after the security: its records produced and read back exactly
// (produceConsume, given the step name), and for SASL a connection with
// WrongPassword that must be refused (wrongPassword, given the step name;
// it returns what the client reported).
func SecureSteps(sec Security, produceConsume, wrongPassword func(ctx context.Context, step string) (string, error)) []Step {
	step := sec.Label() + "-none"
	steps := []Step{{Name: step, Run: func(ctx context.Context) (string, error) {
		detail, err := produceConsume(ctx, step)
		if err != nil {
			return "", err
		}
		return detail + " over " + sec.String(), nil
	}}}
	if sec.UsesSASL() {
		refused := sec.Label() + "-wrong-password"
		steps = append(steps, Step{Name: refused, Run: func(ctx context.Context) (string, error) {
			return wrongPassword(ctx, refused)
		}})
	}
	return steps
}

// ExpectAuthFailed checks what a Go client returned for a connection of
// s's with WrongPassword: an error that is SASL_AUTHENTICATION_FAILED (58)
// by the client's own test (is58), carrying the broker's
// AuthFailedMessage.
func (s Security) ExpectAuthFailed(err error, is58 func(error) bool) (string, error) {
	switch {
	case err == nil:
		return "", errors.New("a wrong password was accepted")
	case !is58(err):
		return "", fmt.Errorf("a wrong password got %v, want SASL_AUTHENTICATION_FAILED (58)", err)
	case !strings.Contains(err.Error(), s.AuthFailedMessage()):
		return "", fmt.Errorf("a wrong password got %q, SASL_AUTHENTICATION_FAILED without the broker's message %q", err, s.AuthFailedMessage())
	}
	return "a wrong password refused: " + err.Error(), nil
}

// Failing is a single step, named name, that fails with err: what a
// client's SecureSteps returns when its security cannot be set up (an
// unreadable CA file), so that the run reports it as a failed step.
func Failing(name string, err error) []Step {
	return []Step{{Name: name, Run: func(context.Context) (string, error) { return "", err }}}
}
