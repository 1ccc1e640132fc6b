package wire

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The first client messages of PLAIN and OAUTHBEARER, byte for byte, and
// the OAUTHBEARER inputs RFC 7628 does not allow.
func TestSASLFirstMessages(t *testing.T) {
	_, msg, err := PlainAuth("alice", "pw").Begin(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "\x00alice\x00pw", string(msg))

	cases := []struct {
		name  string
		token string
		ext   map[string]string
		err   error
		want  string
	}{
		{"token", "t0k", nil, nil, "n,,\x01auth=Bearer t0k\x01\x01"},
		{"extensions sorted", "t0k", map[string]string{"zeta": "1", "alpha": "x y"}, nil, "n,,\x01auth=Bearer t0k\x01alpha=x y\x01zeta=1\x01\x01"},
		{"key auth", "t0k", map[string]string{"auth": "x"}, nil, `extension key "auth": want letters only, not auth`},
		{"key with a digit", "t0k", map[string]string{"k1": "x"}, nil, `extension key "k1"`},
		{"value with 0x01", "t0k", map[string]string{"k": "a\x01b"}, nil, "characters RFC 7628 does not allow"},
		{"empty token", "", nil, nil, "the token is empty"},
		{"token error", "", nil, errors.New("expired"), "getting the token: expired"},
	}
	for _, c := range cases {
		mech := OAuthBearerAuth(func(context.Context) (string, map[string]string, error) { return c.token, c.ext, c.err })
		ex, msg, err := mech.Begin(context.Background())
		if c.want[0] != 'n' {
			require.Error(t, err, c.name)
			assert.Contains(t, err.Error(), c.want, c.name)
			continue
		}
		require.NoError(t, err, c.name)
		assert.Equal(t, c.want, string(msg), c.name)
		_, done, err := ex.Next(nil)
		require.NoError(t, err)
		assert.True(t, done, "an empty answer is success")
	}
}

// A SCRAM broker message that does not parse ends the exchange with an
// error naming the mechanism.
func TestScramRefusesBadBrokerMessages(t *testing.T) {
	mech, err := ScramSHA256Auth("alice", "secret")
	require.NoError(t, err)
	ex, first, err := mech.Begin(context.Background())
	require.NoError(t, err)
	assert.Contains(t, string(first), "n,,n=alice,r=")
	_, _, err = ex.Next([]byte("not a server-first message"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "kafka sasl SCRAM-SHA-256:")
}
