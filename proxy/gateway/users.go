package gateway

import (
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"sync/atomic"

	"github.com/kafkagen/kafkagen/wire"
)

// Users are the credentials of SASL users as SCRAM stores them (RFC 5802):
// a random salt, an iteration count and the keys derived from the password,
// per mechanism; the password itself is not kept. Replace swaps the whole
// set while connections authenticate against it (a configuration reload):
// an authentication reads one set or the other, never a mix.
type Users struct {
	keys atomic.Pointer[userKeys]
}

// userKeys is one set of users' stored keys, never changed once made.
type userKeys struct {
	sha256, sha512 map[string]wire.ScramCredentials
}

// NewUsers derives the stored credentials of each user's password.
func NewUsers(passwords map[string]string) (*Users, error) {
	k := &userKeys{sha256: map[string]wire.ScramCredentials{}, sha512: map[string]wire.ScramCredentials{}}
	for user, password := range passwords {
		if user == "" || password == "" {
			return nil, fmt.Errorf("gateway: user %q: a name and a password are required", user)
		}
		var err error
		if k.sha256[user], err = wire.NewScramCredentials(wire.SASLScramSHA256, password, 0); err != nil {
			return nil, err
		}
		if k.sha512[user], err = wire.NewScramCredentials(wire.SASLScramSHA512, password, 0); err != nil {
			return nil, err
		}
	}
	u := &Users{}
	u.keys.Store(k)
	return u, nil
}

// Replace makes u hold the users of with from now on. Connections already
// authenticated stay so (as Kafka's do when a SCRAM credential is
// removed); the next authentication or re-authentication uses the new set.
func (u *Users) Replace(with *Users) {
	u.keys.Store(with.keys.Load())
}

// Len is the number of users.
func (u *Users) Len() int {
	return len(u.keys.Load().sha256)
}

// Scram returns what SCRAM stores for user under mechanism.
func (u *Users) Scram(mechanism, user string) (wire.ScramCredentials, bool) {
	k := u.keys.Load()
	if mechanism == wire.SASLScramSHA512 {
		c, ok := k.sha512[user]
		return c, ok
	}
	c, ok := k.sha256[user]
	return c, ok
}

// Plain checks a PLAIN password the way SCRAM checks a proof: it derives
// the stored key from the password with the user's salt and iterations
// (SCRAM-SHA-256's) and compares it in constant time.
func (u *Users) Plain(user, password string) bool {
	c, ok := u.keys.Load().sha256[user]
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
