package wire

import (
	"bytes"
	"errors"
	"fmt"
)

// saslExchange is the server side of one authentication with a mechanism.
type saslExchange interface {
	// step takes the client's next token and returns the server's reply
	// and whether authentication succeeded with it. An error fails the
	// authentication; its text is sent to the client.
	step(token []byte) (reply []byte, done bool, err error)
	// user is the authenticated user name once step reported done.
	user() string
}

// newExchange starts an exchange with an enabled mechanism.
func (s *saslServer) newExchange(mechanism string) saslExchange {
	switch mechanism {
	case SASLPlain:
		return &plainExchange{check: s.plain}
	case SASLOAuthBearer:
		return &oauthServerExchange{check: s.oauth}
	}
	return newScramExchange(mechanism, s.scram, s.repeated)
}

// plainExchange is the server side of PLAIN (RFC 4616): one token holding
// an authorization id, the user name and the password, separated by NUL
// bytes, answered with an empty token.
type plainExchange struct {
	check    func(user, password string) bool
	username string
}

func (e *plainExchange) step(token []byte) ([]byte, bool, error) {
	parts := bytes.Split(token, []byte{0})
	if len(parts) != 3 {
		return nil, false, fmt.Errorf("Invalid SASL/PLAIN response: expected 3 NUL-separated parts, got %d", len(parts))
	}
	authzID, user, password := string(parts[0]), string(parts[1]), string(parts[2])
	switch {
	case user == "":
		return nil, false, errors.New("Authentication failed: username not specified")
	case password == "":
		return nil, false, errors.New("Authentication failed: password not specified")
	case authzID != "" && authzID != user:
		return nil, false, errors.New("Authentication failed: Client requested an authorization id that is different from username")
	case !e.check(user, password):
		return nil, false, errors.New("Authentication failed: Invalid username or password")
	}
	e.username = user
	return []byte{}, true, nil
}

func (e *plainExchange) user() string { return e.username }
