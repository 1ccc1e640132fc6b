package wire

import (
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"fmt"

	"github.com/xdg-go/scram"
)

// SCRAM iteration counts Kafka accepts for stored credentials; clients
// refuse fewer than the minimum too.
const (
	MinScramIterations = 4096
	MaxScramIterations = 16384
)

// ScramCredentials is what a server stores for a SCRAM user (RFC 5802):
// enough to check a client's proof and prove itself, never the password.
type ScramCredentials struct {
	Salt       []byte
	Iterations int
	StoredKey  []byte
	ServerKey  []byte
}

// NewScramCredentials derives the credentials of password for mechanism
// ("SCRAM-SHA-256" or "SCRAM-SHA-512") with a fresh random salt and
// iterations rounds (0: MinScramIterations). The password is used as its
// UTF-8 bytes, as Kafka's own tools derive it, without SASLprep.
func NewScramCredentials(mechanism, password string, iterations int) (ScramCredentials, error) {
	if iterations == 0 {
		iterations = MinScramIterations
	}
	if iterations < MinScramIterations || iterations > MaxScramIterations {
		return ScramCredentials{}, fmt.Errorf("kafka sasl: %d SCRAM iterations: Kafka accepts %d to %d", iterations, MinScramIterations, MaxScramIterations)
	}
	hash, err := scramHash(mechanism)
	if err != nil {
		return ScramCredentials{}, err
	}
	salt := make([]byte, 32)
	_, _ = rand.Read(salt) // crypto/rand.Read does not fail
	client, err := hash.NewClientUnprepped("", password, "")
	if err != nil {
		return ScramCredentials{}, fmt.Errorf("kafka sasl: %s credentials: %w", mechanism, err)
	}
	stored, err := client.GetStoredCredentialsWithError(scram.KeyFactors{Salt: string(salt), Iters: iterations})
	if err != nil {
		return ScramCredentials{}, fmt.Errorf("kafka sasl: %s credentials: %w", mechanism, err)
	}
	return ScramCredentials{Salt: salt, Iterations: iterations, StoredKey: stored.StoredKey, ServerKey: stored.ServerKey}, nil
}

// SASLUsers returns a SASLConfig that enables PLAIN, SCRAM-SHA-256 and
// SCRAM-SHA-512 for the users of passwords (user name to password), the
// SCRAM credentials derived once here. PLAIN compares passwords in constant
// time.
func SASLUsers(passwords map[string]string) (*SASLConfig, error) {
	type userCreds struct {
		password       string
		sha256, sha512 ScramCredentials
	}
	users := make(map[string]userCreds, len(passwords))
	for user, password := range passwords {
		u := userCreds{password: password}
		var err error
		if u.sha256, err = NewScramCredentials(SASLScramSHA256, password, 0); err != nil {
			return nil, err
		}
		if u.sha512, err = NewScramCredentials(SASLScramSHA512, password, 0); err != nil {
			return nil, err
		}
		users[user] = u
	}
	return &SASLConfig{
		Plain: func(user, password string) bool {
			u, ok := users[user]
			return ok && subtle.ConstantTimeCompare([]byte(u.password), []byte(password)) == 1
		},
		Scram: func(mechanism, user string) (ScramCredentials, bool) {
			u, ok := users[user]
			if mechanism == SASLScramSHA512 {
				return u.sha512, ok
			}
			return u.sha256, ok
		},
	}, nil
}

// scramHash is the hash of a SCRAM mechanism.
func scramHash(mechanism string) (scram.HashGeneratorFcn, error) {
	switch mechanism {
	case SASLScramSHA256:
		return scram.SHA256, nil
	case SASLScramSHA512:
		return scram.SHA512, nil
	}
	return nil, fmt.Errorf("kafka sasl: %q is not a SCRAM mechanism (SCRAM-SHA-256, SCRAM-SHA-512)", mechanism)
}

// scramExchange is the server side of one SCRAM authentication: the
// client's first message, then its proof.
type scramExchange struct {
	mechanism string
	conv      *scram.ServerConversation
	// With AcceptRepeatedScramNonce: the messages of the exchange so far,
	// for checking the final one without the library (scram_repeated.go),
	// and the user that check authenticated.
	repeated                 bool
	lookup                   func(mechanism, user string) (ScramCredentials, bool)
	clientFirst, serverFirst string
	repeatedUser             string
}

// newScramExchange starts a SCRAM exchange whose credentials come from
// lookup.
func newScramExchange(mechanism string, lookup func(mechanism, user string) (ScramCredentials, bool), repeated bool) saslExchange {
	hash, _ := scramHash(mechanism) // the mechanism was checked at the handshake
	server, _ := hash.NewServer(func(user string) (scram.StoredCredentials, error) {
		c, ok := lookup(mechanism, user)
		if !ok {
			return scram.StoredCredentials{}, errors.New("unknown user")
		}
		return scram.StoredCredentials{KeyFactors: scram.KeyFactors{Salt: string(c.Salt), Iters: c.Iterations}, StoredKey: c.StoredKey, ServerKey: c.ServerKey}, nil
	})
	return &scramExchange{mechanism: mechanism, conv: server.NewConversation(), repeated: repeated, lookup: lookup}
}

// step answers the client's first message with the salt and iterations, and
// its proof with the server's signature. An unknown user, a wrong proof and
// a malformed message fail alike, telling the client nothing about which
// users exist.
func (e *scramExchange) step(token []byte) ([]byte, bool, error) {
	if e.repeated && e.serverFirst != "" {
		if reply, ok, err := e.repeatedNonceFinal(string(token)); ok {
			return reply, err == nil, err
		}
	}
	reply, err := e.conv.Step(string(token))
	if e.repeated && e.clientFirst == "" && err == nil {
		e.clientFirst, e.serverFirst = string(token), reply
	}
	if err != nil {
		return nil, false, fmt.Errorf("Authentication failed during authentication due to invalid credentials with SASL mechanism %s", e.mechanism)
	}
	if id := e.conv.AuthzID(); id != "" && id != e.conv.Username() {
		return nil, false, errors.New("Authentication failed: Client requested an authorization id that is different from username")
	}
	return []byte(reply), e.conv.Done() && e.conv.Valid(), nil
}

func (e *scramExchange) user() string {
	if e.repeatedUser != "" {
		return e.repeatedUser
	}
	return e.conv.Username()
}
