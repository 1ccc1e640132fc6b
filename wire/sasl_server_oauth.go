package wire

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// oauthServerExchange is the server side of OAUTHBEARER (RFC 7628, Kafka's
// KIP-255): one client message holding a GS2 header and key=value pairs
// separated by 0x01, of which auth is "Bearer <token>"; the token is
// checked by SASLConfig.OAuthBearer. Kafka's server answers a bad token
// with an error document and waits for the client's 0x01 before failing;
// this one fails at once, with the reason, which clients report the same
// way (SASL_AUTHENTICATION_FAILED). docs/protocol.md, "SASL".
type oauthServerExchange struct {
	check     func(token string) (principal string, expires time.Time, err error)
	principal string
	expires   time.Time
}

func (e *oauthServerExchange) step(message []byte) ([]byte, bool, error) {
	token, authzID, err := parseOAuthBearer(string(message))
	if err != nil {
		return nil, false, fmt.Errorf("Invalid OAUTHBEARER client first message: %v", err)
	}
	principal, expires, err := e.check(token)
	switch {
	case err != nil:
		return nil, false, fmt.Errorf("Authentication failed: invalid token: %v", err)
	case principal == "":
		return nil, false, errors.New("Authentication failed: the token names no principal")
	case authzID != "" && authzID != principal:
		return nil, false, errors.New("Authentication failed: Client requested an authorization id that is different from the token's principal")
	}
	e.principal, e.expires = principal, expires
	return []byte{}, true, nil
}

func (e *oauthServerExchange) user() string { return e.principal }

// expiry is when the token stops being valid: the session ends then at the
// latest (KIP-368 re-authentication).
func (e *oauthServerExchange) expiry() time.Time { return e.expires }

// parseOAuthBearer reads an OAUTHBEARER client message: "n,," or
// "n,a=AUTHZID," (the GS2 header, "y" also allowed), then 0x01, pairs each
// ended by 0x01, and a final 0x01.
func parseOAuthBearer(msg string) (token, authzID string, err error) {
	header, rest, ok := strings.Cut(msg, "\x01")
	if !ok || !strings.HasSuffix(rest, "\x01") {
		return "", "", errors.New("want a GS2 header and key=value pairs each ended by 0x01")
	}
	parts := strings.Split(header, ",")
	if len(parts) != 3 || parts[0] != "n" && parts[0] != "y" || parts[2] != "" {
		return "", "", fmt.Errorf("GS2 header %q: want n,, or n,a=ID,", header)
	}
	if parts[1] != "" {
		var has bool
		if authzID, has = strings.CutPrefix(parts[1], "a="); !has {
			return "", "", fmt.Errorf("GS2 header %q: want n,, or n,a=ID,", header)
		}
	}
	for _, kv := range strings.Split(strings.TrimSuffix(rest, "\x01"), "\x01") {
		if kv == "" {
			continue
		}
		key, value, ok := strings.Cut(kv, "=")
		if !ok {
			return "", "", fmt.Errorf("pair %q has no =", kv)
		}
		if key == "auth" {
			scheme, t, ok := strings.Cut(value, " ")
			if !ok || !strings.EqualFold(scheme, "Bearer") || t == "" {
				return "", "", errors.New("auth is not \"Bearer <token>\"")
			}
			token = t
		}
	}
	if token == "" {
		return "", "", errors.New("no auth pair")
	}
	return token, authzID, nil
}
