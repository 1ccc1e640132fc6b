package wire

import (
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"errors"
	"hash"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generated"
	kruntime "github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/frames"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// testTokens are the OAUTHBEARER tokens the tests' check knows.
func testTokens(token string) (string, time.Time, error) {
	switch token {
	case "alice-token":
		return "alice", time.Now().Add(time.Hour), nil
	case "short-token":
		return "alice", time.Now().Add(2 * time.Second), nil
	}
	return "", time.Time{}, errors.New("token expired")
}

func oauthMessage(authzID, token string) []byte {
	return []byte("n," + authzID + ",\x01auth=Bearer " + token + "\x01\x01")
}

// OAUTHBEARER: a good token authenticates its principal, with a session
// ending with the token at the latest; a bad token, a malformed message or
// an authorization id not the token's fails.
func TestSASLOAuthBearer(t *testing.T) {
	h := &echoHandler{peers: make(chan Peer, 10)}
	ts := startServer(t, h, ServerOptions{SASL: &SASLConfig{OAuthBearer: testTokens, MaxReauth: time.Hour}})
	cases := []struct {
		name     string
		message  []byte
		fails    string
		lifetime time.Duration // at most
	}{
		{"token", oauthMessage("", "alice-token"), "", time.Hour},
		{"token with its authzid", oauthMessage("a=alice", "alice-token"), "", time.Hour},
		{"token expiring first", oauthMessage("", "short-token"), "", 2 * time.Second},
		{"bad token", oauthMessage("", "forged"), "invalid token: token expired", 0},
		{"other authzid", oauthMessage("a=bob", "alice-token"), "authorization id", 0},
		{"no auth pair", []byte("n,,\x01host=x\x01\x01"), "no auth pair", 0},
		{"not bearer", []byte("n,,\x01auth=Basic abc\x01\x01"), "Bearer", 0},
		{"no header", []byte("auth=Bearer alice-token"), "GS2 header", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			conn := dial(t, ts.addr)
			client := &saslClient{conn: conn, handshakeVersion: 1, authVersion: 1}
			require.Zero(t, client.handshake(t, SASLOAuthBearer).ErrorCode)
			_, code, msg := client.token(t, c.message)
			if c.fails != "" {
				assert.Equal(t, kerrors.SaslAuthenticationFailed.Code, code)
				assert.Contains(t, msg, c.fails)
				requireClosed(t, conn)
				return
			}
			require.Zero(t, code, msg)
			assert.Positive(t, client.lifetimeMs)
			assert.LessOrEqual(t, client.lifetimeMs, c.lifetime.Milliseconds())
			beat(t, conn, 100)
			p := <-h.peers
			assert.Equal(t, "alice", p.Principal)
			assert.Equal(t, SASLOAuthBearer, p.Mechanism)
		})
	}
}

// repeatedNonceClient is librdkafka's SCRAM client before 2.6.1, written
// from RFC 5802: its final message's r= is its own nonce followed by the
// server's whole nonce, and its proof signs that message.
func repeatedNonceFinal(mechanism, password, clientFirstBare, serverFirst string, nonce func(cnonce, snonce string) string) string {
	newHash := sha256.New
	if mechanism == SASLScramSHA512 {
		newHash = sha512.New
	}
	attrs := scramAttrs(serverFirst)
	salt, _ := base64.StdEncoding.DecodeString(attrs["s"])
	var iters int
	for _, d := range attrs["i"] {
		iters = iters*10 + int(d-'0')
	}
	salted, _ := pbkdf2.Key(newHash, password, salt, iters, newHash().Size())
	mac := func(key []byte, msg string) []byte {
		m := hmac.New(newHash, key)
		m.Write([]byte(msg))
		return m.Sum(nil)
	}
	clientKey := mac(salted, "Client Key")
	sum := func(h hash.Hash, b []byte) []byte { h.Write(b); return h.Sum(nil) }
	stored := sum(newHash(), clientKey)
	withoutProof := "c=biws,r=" + nonce(scramAttrs(clientFirstBare)["r"], attrs["r"])
	signature := mac(stored, clientFirstBare+","+serverFirst+","+withoutProof)
	proof := make([]byte, len(clientKey))
	for i := range proof {
		proof[i] = clientKey[i] ^ signature[i]
	}
	return withoutProof + ",p=" + base64.StdEncoding.EncodeToString(proof)
}

// AcceptRepeatedScramNonce accepts librdkafka's repeated client nonce and
// nothing else: off, that form fails as in Kafka 4; on, it authenticates,
// while a nonce wrong in another way, or a wrong password, still fails.
func TestSASLRepeatedScramNonce(t *testing.T) {
	repeated := func(c, s string) string { return c + s }
	cases := []struct {
		name     string
		accept   bool
		password string
		nonce    func(c, s string) string
		ok       bool
	}{
		{"off: the repeated nonce fails", false, "alice-secret", repeated, false},
		{"on: the repeated nonce authenticates", true, "alice-secret", repeated, true},
		{"on: the right nonce authenticates", true, "alice-secret", func(_, s string) string { return s }, true},
		{"on: another nonce fails", true, "alice-secret", func(c, s string) string { return c + "x" + s }, false},
		{"on: the server nonce altered fails", true, "alice-secret", func(c, s string) string { return c + s + "x" }, false},
		{"on: a wrong password fails", true, "wrong", repeated, false},
	}
	for _, mechanism := range []string{SASLScramSHA256, SASLScramSHA512} {
		for _, c := range cases {
			t.Run(mechanism+"/"+c.name, func(t *testing.T) {
				h := &echoHandler{peers: make(chan Peer, 10)}
				ts := startServer(t, h, ServerOptions{SASL: &SASLConfig{Scram: scramUsers(t), AcceptRepeatedScramNonce: c.accept}})
				conn := dial(t, ts.addr)
				client := &saslClient{conn: conn, handshakeVersion: 1, authVersion: 1}
				require.Zero(t, client.handshake(t, mechanism).ErrorCode)
				first := "n,,n=alice,r=rdkafkaNonce0123"
				serverFirst, code, msg := client.token(t, []byte(first))
				require.Zero(t, code, msg)
				require.True(t, strings.HasPrefix(scramAttrs(string(serverFirst))["r"], "rdkafkaNonce0123"))
				final := repeatedNonceFinal(mechanism, c.password, strings.TrimPrefix(first, "n,,"), string(serverFirst), c.nonce)
				reply, code, msg := client.token(t, []byte(final))
				if !c.ok {
					assert.Equal(t, kerrors.SaslAuthenticationFailed.Code, code)
					requireClosed(t, conn)
					return
				}
				require.Zero(t, code, msg)
				assert.True(t, strings.HasPrefix(string(reply), "v="), "the server proves itself")
				beat(t, conn, 100)
				assert.Equal(t, "alice", (<-h.peers).Principal)
			})
		}
	}
}

// A SASLSession, given frames as a proxy reads them: ApiVersions is the
// caller's, anything else before authentication is refused, PLAIN
// authenticates, and then every request is the caller's.
func TestSASLSession(t *testing.T) {
	cfg := &SASLConfig{Plain: plainUsers}
	frame := func(key, version int16, body kruntime.APIMessage) []byte {
		h := frames.RequestHeader{APIKey: key, APIVersion: version, CorrelationID: 7}
		out, err := frames.AppendRequest(nil, &h, body)
		require.NoError(t, err)
		return out[4:]
	}
	handshake := generated.NewSaslHandshakeRequest()
	handshake.Mechanism = SASLPlain
	auth := func(password string) []byte {
		a := generated.NewSaslAuthenticateRequest()
		a.AuthBytes = []byte("\x00alice\x00" + password)
		return frame(saslAuthenticateKey, 2, a)
	}
	apiVersions := frame(generated.APIKeyAPIVersions, 3, generated.NewAPIVersionsRequest())
	other := frame(generated.APIKeyStopReplica, 0, generated.NewStopReplicaRequest())

	s, err := NewSASLSession(cfg, func(v int16) bool { return v <= 3 })
	require.NoError(t, err)
	_, handled, err := s.Serve(apiVersions)
	require.NoError(t, err)
	assert.False(t, handled, "ApiVersions before the handshake is the caller's")
	out, handled, err := s.Serve(frame(saslHandshakeKey, 1, handshake))
	require.NoError(t, err)
	assert.True(t, handled)
	assert.NotEmpty(t, out, "the handshake's answer")
	assert.True(t, s.Exchanging())
	out, handled, err = s.Serve(auth("alice-secret"))
	require.NoError(t, err)
	assert.True(t, handled)
	assert.NotEmpty(t, out)
	assert.True(t, s.Authenticated())
	assert.Equal(t, "alice", s.Principal())
	_, handled, err = s.Serve(other)
	require.NoError(t, err)
	assert.False(t, handled, "after authentication requests are the caller's")

	refused, err := NewSASLSession(cfg, nil)
	require.NoError(t, err)
	_, _, err = refused.Serve(other)
	assert.ErrorIs(t, err, ErrNotAuthenticated)

	wrong, err := NewSASLSession(cfg, nil)
	require.NoError(t, err)
	_, _, err = wrong.Serve(frame(saslHandshakeKey, 1, handshake))
	require.NoError(t, err)
	out, _, err = wrong.Serve(auth("wrong"))
	assert.ErrorIs(t, err, kerrors.SaslAuthenticationFailed)
	assert.NotEmpty(t, out, "the failure is answered before the close")
	assert.False(t, wrong.Authenticated())
}
