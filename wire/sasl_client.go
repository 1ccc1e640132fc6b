package wire

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/xdg-go/scram"
)

// PlainAuth authenticates with SASL/PLAIN: the user name and password sent
// as they are, so only over TLS in earnest.
func PlainAuth(user, password string) SASLMechanism { return plain{user, password} }

type plain struct{ user, password string }

func (plain) Name() string { return SASLPlain }

// Begin sends "\x00user\x00password": an empty authorization id, which
// Kafka takes as the user.
func (p plain) Begin(context.Context) (SASLExchange, []byte, error) {
	return plain{}, []byte("\x00" + p.user + "\x00" + p.password), nil
}

// Next: the broker's one answer ends PLAIN.
func (plain) Next([]byte) ([]byte, bool, error) { return nil, true, nil }

// ScramSHA256Auth authenticates with SASL/SCRAM-SHA-256 (RFC 5802 and
// 7677). Like Kafka's clients it sends user and password without SASLprep;
// the broker's proof of knowing the password is checked. The salted
// password is computed once per salt and iteration count, so keep the
// mechanism for all the connections of one user.
func ScramSHA256Auth(user, password string) (SASLMechanism, error) {
	return newScram(SASLScramSHA256, scram.SHA256, user, password)
}

// ScramSHA512Auth is ScramSHA256Auth with SHA-512.
func ScramSHA512Auth(user, password string) (SASLMechanism, error) {
	return newScram(SASLScramSHA512, scram.SHA512, user, password)
}

type scramAuth struct {
	name   string
	client *scram.Client
}

func newScram(name string, hash scram.HashGeneratorFcn, user, password string) (SASLMechanism, error) {
	c, err := hash.NewClientUnprepped(user, password, "")
	if err != nil {
		return nil, fmt.Errorf("kafka sasl %s: %w", name, err)
	}
	return &scramAuth{name: name, client: c}, nil
}

func (s *scramAuth) Name() string { return s.name }

// Begin returns the client-first message.
func (s *scramAuth) Begin(context.Context) (SASLExchange, []byte, error) {
	conv := s.client.NewConversation()
	first, err := conv.Step("")
	if err != nil {
		return nil, nil, fmt.Errorf("kafka sasl %s: %w", s.name, err)
	}
	return &scramClientExchange{name: s.name, conv: conv}, []byte(first), nil
}

type scramClientExchange struct {
	name string
	conv *scram.ClientConversation
}

// Next answers the server-first message with the client-final one, then
// checks the server-final message's signature.
func (x *scramClientExchange) Next(answer []byte) ([]byte, bool, error) {
	msg, err := x.conv.Step(string(answer))
	if err != nil {
		return nil, false, fmt.Errorf("kafka sasl %s: %w", x.name, err)
	}
	if x.conv.Done() {
		if !x.conv.Valid() {
			return nil, false, fmt.Errorf("kafka sasl %s: the broker's final message does not prove it knows the password", x.name)
		}
		return nil, true, nil
	}
	return []byte(msg), false, nil
}

// OAuthToken supplies the bearer token of a SASL/OAUTHBEARER
// authentication, and optional SASL extensions (KIP-342), at each
// authentication: a re-authentication (KIP-368) asks for it again.
type OAuthToken func(ctx context.Context) (token string, extensions map[string]string, err error)

// OAuthBearerAuth authenticates with SASL/OAUTHBEARER (RFC 7628), sending
// the token the function returns.
func OAuthBearerAuth(token OAuthToken) SASLMechanism { return oauthBearer{token} }

type oauthBearer struct{ token OAuthToken }

func (oauthBearer) Name() string { return SASLOAuthBearer }

// Extension keys are letters only and values printable ASCII, space and
// tab, CR and LF (RFC 7628, 3.1); "auth" is the token's own key.
var (
	oauthKey   = regexp.MustCompile(`^[A-Za-z]+$`)
	oauthValue = regexp.MustCompile(`^[\x21-\x7E \t\r\n]+$`)
)

// Begin builds the client's initial response: the GS2 header "n,,", then
// auth=Bearer and each extension (sorted by key), each ended by 0x01, and
// a last 0x01.
func (o oauthBearer) Begin(ctx context.Context) (SASLExchange, []byte, error) {
	token, ext, err := o.token(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("kafka sasl %s: getting the token: %w", SASLOAuthBearer, err)
	}
	if token == "" {
		return nil, nil, fmt.Errorf("kafka sasl %s: the token is empty", SASLOAuthBearer)
	}
	keys := make([]string, 0, len(ext))
	for k, v := range ext {
		if !oauthKey.MatchString(k) || k == "auth" {
			return nil, nil, fmt.Errorf("kafka sasl %s: extension key %q: want letters only, not auth", SASLOAuthBearer, k)
		}
		if !oauthValue.MatchString(v) {
			return nil, nil, fmt.Errorf("kafka sasl %s: extension %s: value %q has characters RFC 7628 does not allow", SASLOAuthBearer, k, v)
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString("n,,\x01auth=Bearer " + token + "\x01")
	for _, k := range keys {
		b.WriteString(k + "=" + ext[k] + "\x01")
	}
	b.WriteString("\x01")
	return &oauthExchange{}, []byte(b.String()), nil
}

type oauthExchange struct{ refused bool }

// Next: an empty answer is success. A broker refusing the token answers
// with an error document instead; RFC 7628 has the client reply with a
// lone 0x01, after which the broker fails the authentication
// (SASL_AUTHENTICATION_FAILED).
func (x *oauthExchange) Next(answer []byte) ([]byte, bool, error) {
	if len(answer) == 0 {
		return nil, true, nil
	}
	if x.refused {
		return nil, false, errors.New("kafka sasl OAUTHBEARER: the broker sent a second error document: " + string(answer))
	}
	x.refused = true
	return []byte{1}, false, nil
}
