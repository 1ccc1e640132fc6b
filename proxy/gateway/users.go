package gateway

import (
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/sha256"
	"crypto/subtle"
	"fmt"

	"github.com/kafkagen/kafkagen/wire"
)

// Users are the credentials of SASL users as SCRAM stores them (RFC 5802):
// a random salt, an iteration count and the keys derived from the password,
// per mechanism; the password itself is not kept.
type Users struct {
	sha256, sha512 map[string]wire.ScramCredentials
}

// NewUsers derives the stored credentials of each user's password.
func NewUsers(passwords map[string]string) (*Users, error) {
	u := &Users{sha256: map[string]wire.ScramCredentials{}, sha512: map[string]wire.ScramCredentials{}}
	for user, password := range passwords {
		if user == "" || password == "" {
			return nil, fmt.Errorf("gateway: user %q: a name and a password are required", user)
		}
		var err error
		if u.sha256[user], err = wire.NewScramCredentials(wire.SASLScramSHA256, password, 0); err != nil {
			return nil, err
		}
		if u.sha512[user], err = wire.NewScramCredentials(wire.SASLScramSHA512, password, 0); err != nil {
			return nil, err
		}
	}
	return u, nil
}

// Scram returns what SCRAM stores for user under mechanism.
func (u *Users) Scram(mechanism, user string) (wire.ScramCredentials, bool) {
	if mechanism == wire.SASLScramSHA512 {
		c, ok := u.sha512[user]
		return c, ok
	}
	c, ok := u.sha256[user]
	return c, ok
}

// Plain checks a PLAIN password the way SCRAM checks a proof: it derives
// the stored key from the password with the user's salt and iterations
// (SCRAM-SHA-256's) and compares it in constant time.
func (u *Users) Plain(user, password string) bool {
	c, ok := u.sha256[user]
	if !ok {
		return false
	}
	salted, err := pbkdf2.Key(sha256.New, password, c.Salt, c.Iterations, sha256.Size)
	if err != nil {
		return false
	}
	mac := hmac.New(sha256.New, salted)
	mac.Write([]byte("Client Key"))
	stored := sha256.Sum256(mac.Sum(nil))
	return subtle.ConstantTimeCompare(stored[:], c.StoredKey) == 1
}
