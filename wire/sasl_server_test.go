package wire

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xdg-go/scram"

	"github.com/kafkagen/kafkagen/generated"
	kruntime "github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/frames"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// The users of the SASL tests.
var testPasswords = map[string]string{"alice": "alice-secret", "bob": "bob-secret"}

func plainUsers(user, password string) bool {
	p, ok := testPasswords[user]
	return ok && p == password
}

// scramUsers derives the SCRAM credentials of testPasswords once per test.
func scramUsers(t *testing.T) func(mechanism, user string) (ScramCredentials, bool) {
	t.Helper()
	creds := map[[2]string]ScramCredentials{}
	for user, password := range testPasswords {
		for _, m := range []string{SASLScramSHA256, SASLScramSHA512} {
			c, err := NewScramCredentials(m, password, 0)
			require.NoError(t, err)
			creds[[2]string{m, user}] = c
		}
	}
	return func(mechanism, user string) (ScramCredentials, bool) {
		c, ok := creds[[2]string{mechanism, user}]
		return c, ok
	}
}

func saslServerFor(t *testing.T, reauth time.Duration) (*testServer, *echoHandler) {
	t.Helper()
	h := &echoHandler{peers: make(chan Peer, 100)}
	ts := startServer(t, h, ServerOptions{SASL: &SASLConfig{Plain: plainUsers, Scram: scramUsers(t), MaxReauth: reauth}})
	return ts, h
}

// saslClient is the client side of an authentication, written from the
// protocol: SaslHandshake at handshakeVersion, then the mechanism's tokens
// in SaslAuthenticate requests at authVersion (or as bare frames after a v0
// handshake).
type saslClient struct {
	conn                          net.Conn
	handshakeVersion, authVersion int16
	corr                          int32
	lifetimeMs                    int64
}

// handshake sends a SaslHandshake and returns the answer.
func (c *saslClient) handshake(t *testing.T, mechanism string) *generated.SaslHandshakeResponse {
	t.Helper()
	req := generated.NewSaslHandshakeRequest()
	req.Mechanism = mechanism
	resp := generated.NewSaslHandshakeResponse()
	c.corr++
	roundTrip(t, c.conn, c.handshakeVersion, c.corr, req, resp)
	return resp
}

// token sends one client token and returns the server's, or the error code
// and message of a SaslAuthenticate answer.
func (c *saslClient) token(t *testing.T, token []byte) ([]byte, int16, string) {
	t.Helper()
	if c.handshakeVersion == 0 {
		frame, err := frames.AppendFrame(nil, token)
		require.NoError(t, err)
		_, err = c.conn.Write(frame)
		require.NoError(t, err)
		reply, err := frames.NewFrameReader(c.conn, 0).Next()
		if err != nil {
			return nil, -1, err.Error()
		}
		return reply, 0, ""
	}
	req := generated.NewSaslAuthenticateRequest()
	req.AuthBytes = token
	resp := generated.NewSaslAuthenticateResponse()
	c.corr++
	roundTrip(t, c.conn, c.authVersion, c.corr, req, resp)
	c.lifetimeMs = resp.SessionLifetimeMs
	return resp.AuthBytes, resp.ErrorCode, resp.ErrorMessage.Value
}

// login runs a whole authentication and returns the first error code met
// and its message (0 and "" on success).
func (c *saslClient) login(t *testing.T, mechanism, user, password string) (int16, string) {
	t.Helper()
	if hs := c.handshake(t, mechanism); hs.ErrorCode != 0 {
		return hs.ErrorCode, ""
	}
	if mechanism == SASLPlain {
		_, code, msg := c.token(t, []byte("\x00"+user+"\x00"+password))
		return code, msg
	}
	hash, err := scramHash(mechanism)
	require.NoError(t, err)
	client, err := hash.NewClient(user, password, "")
	require.NoError(t, err)
	conv := client.NewConversation()
	first, err := conv.Step("")
	require.NoError(t, err)
	serverFirst, code, msg := c.token(t, []byte(first))
	if code != 0 {
		return code, msg
	}
	final, err := conv.Step(string(serverFirst))
	require.NoError(t, err)
	serverFinal, code, msg := c.token(t, []byte(final))
	if code != 0 {
		return code, msg
	}
	_, err = conv.Step(string(serverFinal))
	require.NoError(t, err, "the server proves it knows the credentials")
	require.True(t, conv.Valid())
	return 0, ""
}

// Every mechanism, over every handshake and SaslAuthenticate version,
// authenticates, and the handler then sees the principal.
func TestSASLMechanisms(t *testing.T) {
	ts, h := saslServerFor(t, 0)
	for _, mechanism := range []string{SASLPlain, SASLScramSHA256, SASLScramSHA512} {
		for _, v := range []struct{ handshake, auth int16 }{{0, 0}, {1, 0}, {1, 1}, {1, 2}} {
			t.Run(mechanism, func(t *testing.T) {
				conn := dial(t, ts.addr)
				c := &saslClient{conn: conn, handshakeVersion: v.handshake, authVersion: v.auth}
				code, msg := c.login(t, mechanism, "alice", "alice-secret")
				require.Zero(t, code, "handshake v%d, SaslAuthenticate v%d: %s", v.handshake, v.auth, msg)
				assert.Zero(t, c.lifetimeMs, "no session lifetime without MaxReauth")
				beat(t, conn, 100)
				p := <-h.peers
				assert.Equal(t, "alice", p.Principal)
				assert.Equal(t, mechanism, p.Mechanism)
			})
		}
	}
}

// A failed authentication gets SASL_AUTHENTICATION_FAILED with a message,
// then the connection is closed; a v0 exchange can only close.
func TestSASLAuthenticationFails(t *testing.T) {
	ts, _ := saslServerFor(t, 0)
	cases := []struct {
		mechanism, user, password string
		want                      string
	}{
		{SASLPlain, "alice", "wrong", "Authentication failed: Invalid username or password"},
		{SASLPlain, "nobody", "alice-secret", "Authentication failed: Invalid username or password"},
		{SASLPlain, "alice", "", "password not specified"},
		{SASLScramSHA256, "alice", "wrong", "invalid credentials with SASL mechanism SCRAM-SHA-256"},
		{SASLScramSHA512, "nobody", "x", "invalid credentials with SASL mechanism SCRAM-SHA-512"},
	}
	for _, c := range cases {
		for _, handshake := range []int16{0, 1} {
			t.Run(c.mechanism+"/"+c.user, func(t *testing.T) {
				conn := dial(t, ts.addr)
				client := &saslClient{conn: conn, handshakeVersion: handshake, authVersion: 1}
				code, msg := client.login(t, c.mechanism, c.user, c.password)
				if handshake == 1 {
					assert.Equal(t, kerrors.SaslAuthenticationFailed.Code, code)
					assert.Contains(t, msg, c.want)
				} else {
					assert.Equal(t, int16(-1), code, "v0: the connection closes, no answer")
				}
				requireClosed(t, conn)
				end := ts.nextEnd(t)
				assert.ErrorIs(t, end.err, kerrors.SaslAuthenticationFailed)
				assert.Contains(t, end.err.Error(), c.want)
			})
		}
	}
}

func TestSASLUnsupportedMechanism(t *testing.T) {
	ts := startServer(t, &echoHandler{}, ServerOptions{SASL: &SASLConfig{Mechanisms: []string{SASLScramSHA512, SASLPlain}, Plain: plainUsers, Scram: scramUsers(t)}})
	conn := dial(t, ts.addr)
	c := &saslClient{conn: conn, handshakeVersion: 1}
	hs := c.handshake(t, "GSSAPI")
	assert.Equal(t, kerrors.UnsupportedSaslMechanism.Code, hs.ErrorCode)
	assert.Equal(t, []string{SASLScramSHA512, SASLPlain}, hs.Mechanisms, "the enabled list, in the configured order")
	requireClosed(t, conn)
	assert.ErrorIs(t, ts.nextEnd(t).err, kerrors.UnsupportedSaslMechanism)
}

// Before authentication only ApiVersions (once) and SaslHandshake pass;
// during it only SaslAuthenticate.
func TestSASLRefusesRequestsBeforeAuthentication(t *testing.T) {
	ts, h := saslServerFor(t, 0)
	apiVersions := func(t *testing.T, c *saslClient) {
		c.corr++
		roundTrip(t, c.conn, 3, c.corr, generated.NewAPIVersionsRequest(), generated.NewAPIVersionsResponse())
	}
	cases := []struct {
		name    string
		before  func(t *testing.T, c *saslClient)
		request func(t *testing.T, c *saslClient)
		want    error
	}{
		{"a request first", func(*testing.T, *saslClient) {}, func(t *testing.T, c *saslClient) { send(t, c.conn, 50, 0, 9, heartbeat(1)) }, ErrNotAuthenticated},
		{"a request after ApiVersions", apiVersions, func(t *testing.T, c *saslClient) { send(t, c.conn, 50, 0, 9, heartbeat(1)) }, ErrNotAuthenticated},
		{"ApiVersions twice", apiVersions, func(t *testing.T, c *saslClient) { send(t, c.conn, 18, 3, 9, generated.NewAPIVersionsRequest()) }, ErrNotAuthenticated},
		{"SaslAuthenticate before a handshake", func(*testing.T, *saslClient) {}, func(t *testing.T, c *saslClient) {
			send(t, c.conn, 36, 1, 9, generated.NewSaslAuthenticateRequest())
		}, ErrNotAuthenticated},
		{"a request during authentication", func(t *testing.T, c *saslClient) { c.handshake(t, SASLPlain) }, func(t *testing.T, c *saslClient) {
			send(t, c.conn, 50, 0, 9, heartbeat(1))
		}, ErrNotAuthenticated},
		{"a second handshake during authentication", func(t *testing.T, c *saslClient) { c.handshake(t, SASLPlain) }, func(t *testing.T, c *saslClient) {
			hs := c.handshake(t, SASLPlain)
			assert.Equal(t, kerrors.IllegalSaslState.Code, hs.ErrorCode)
		}, kerrors.IllegalSaslState},
		{"a frame above sasl.server.max.receive.size", func(*testing.T, *saslClient) {}, func(t *testing.T, c *saslClient) {
			_, err := c.conn.Write(unhex(t, "00080001"))
			require.NoError(t, err)
		}, frames.ErrFrameSize},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			client := &saslClient{conn: dial(t, ts.addr), handshakeVersion: 1, authVersion: 1}
			c.before(t, client)
			c.request(t, client)
			requireClosed(t, client.conn)
			end := ts.nextEnd(t)
			assert.ErrorIs(t, end.err, c.want)
			if c.want == ErrNotAuthenticated {
				assert.Regexp(t, `api key \d+ v\d+ (before a SaslHandshake|after ApiVersions|during SaslAuthenticate)`, end.err.Error())
			}
		})
	}
	// Only the ApiVersions requests reached the handler.
	for range 2 {
		p := <-h.peers
		assert.Empty(t, p.Principal)
	}
	assert.Empty(t, h.peers)
}

// Once authenticated, SaslHandshake and SaslAuthenticate are answered
// ILLEGAL_SASL_STATE and the connection stays.
func TestSASLAfterAuthentication(t *testing.T) {
	ts, _ := saslServerFor(t, 0)
	conn := dial(t, ts.addr)
	c := &saslClient{conn: conn, handshakeVersion: 1, authVersion: 2}
	code, _ := c.login(t, SASLScramSHA256, "bob", "bob-secret")
	require.Zero(t, code)
	assert.Equal(t, kerrors.IllegalSaslState.Code, c.handshake(t, SASLScramSHA256).ErrorCode, "no re-authentication without a session lifetime")
	_, code, msg := c.token(t, []byte("x"))
	assert.Equal(t, kerrors.IllegalSaslState.Code, code)
	assert.Equal(t, "SaslAuthenticate request received after successful authentication", msg)
	beat(t, conn, 50)
}

// KIP-368: with MaxReauth the session lifetime is announced, the client may
// authenticate again on the connection (same mechanism, same principal),
// and a request after the session expired closes the connection.
func TestSASLReauthentication(t *testing.T) {
	const lifetime = 1500 * time.Millisecond
	ts, h := saslServerFor(t, lifetime)

	conn := dial(t, ts.addr)
	c := &saslClient{conn: conn, handshakeVersion: 1, authVersion: 1}
	code, _ := c.login(t, SASLScramSHA512, "alice", "alice-secret")
	require.Zero(t, code)
	assert.Equal(t, lifetime.Milliseconds(), c.lifetimeMs)
	beat(t, conn, 10)
	code, _ = c.login(t, SASLScramSHA512, "alice", "alice-secret")
	require.Zero(t, code, "re-authenticated at once: the first authentication does not count")
	assert.Equal(t, kerrors.IllegalSaslState.Code, c.handshake(t, SASLScramSHA512).ErrorCode, "a second re-authentication within a second is refused")
	beat(t, conn, 11)
	time.Sleep(minReauthInterval)
	code, _ = c.login(t, SASLScramSHA512, "alice", "alice-secret")
	require.Zero(t, code, "re-authenticated")
	time.Sleep(lifetime / 2)
	beat(t, conn, 12) // the new session runs from the re-authentication
	for range 3 {
		assert.Equal(t, "alice", (<-h.peers).Principal)
	}

	time.Sleep(lifetime)
	send(t, conn, 50, 0, 13, heartbeat(1))
	requireClosed(t, conn)
	assert.ErrorIs(t, ts.nextEnd(t).err, ErrSessionExpired)

	// Re-authentication must keep the principal and the mechanism.
	for _, change := range []struct{ mechanism, user, password, want string }{
		{SASLScramSHA512, "bob", "bob-secret", "Cannot change principals during re-authentication from User:alice: User:bob"},
		{SASLPlain, "alice", "alice-secret", "SASL mechanism 'PLAIN' requested by client is not supported for re-authentication of mechanism 'SCRAM-SHA-512'"},
	} {
		conn := dial(t, ts.addr)
		c := &saslClient{conn: conn, handshakeVersion: 1, authVersion: 2}
		code, _ := c.login(t, SASLScramSHA512, "alice", "alice-secret")
		require.Zero(t, code)
		code, msg := c.login(t, change.mechanism, change.user, change.password)
		assert.Equal(t, kerrors.SaslAuthenticationFailed.Code, code)
		assert.Equal(t, change.want, msg)
		requireClosed(t, conn)
		assert.ErrorIs(t, ts.nextEnd(t).err, kerrors.SaslAuthenticationFailed)
	}
}

// ApiVersions before authentication reaches the handler, which lists the
// SASL versions the server serves.
func TestSASLVersions(t *testing.T) {
	h := HandlerFunc(func(ctx context.Context, p *Peer, req *Request) (kruntime.APIMessage, error) {
		resp := generated.NewAPIVersionsResponse()
		for _, r := range SASLVersions() {
			resp.APIKeys = append(resp.APIKeys, generated.APIVersionsResponseAPIVersion{APIKey: r.APIKey, MinVersion: r.MinVersion, MaxVersion: r.MaxVersion})
		}
		return resp, nil
	})
	ts := startServer(t, h, ServerOptions{SASL: &SASLConfig{Plain: plainUsers}})
	conn := dial(t, ts.addr)
	resp := generated.NewAPIVersionsResponse()
	roundTrip(t, conn, 3, 1, generated.NewAPIVersionsRequest(), resp)
	assert.Equal(t, []generated.APIVersionsResponseAPIVersion{{APIKey: 17, MinVersion: 0, MaxVersion: 1}, {APIKey: 36, MinVersion: 0, MaxVersion: 2}}, resp.APIKeys)
	c := &saslClient{conn: conn, handshakeVersion: 1, corr: 1}
	code, _ := c.login(t, SASLPlain, "bob", "bob-secret")
	assert.Zero(t, code)
}

func TestScramCredentials(t *testing.T) {
	c, err := NewScramCredentials(SASLScramSHA256, "pw", 0)
	require.NoError(t, err)
	assert.Equal(t, MinScramIterations, c.Iterations)
	assert.Len(t, c.Salt, 32)
	// What xdg-go/scram's client derives from the same salt.
	client, err := scram.SHA256.NewClient("", "pw", "")
	require.NoError(t, err)
	want := client.GetStoredCredentials(scram.KeyFactors{Salt: string(c.Salt), Iters: c.Iterations})
	assert.Equal(t, want.StoredKey, c.StoredKey)
	assert.Equal(t, want.ServerKey, c.ServerKey)

	again, err := NewScramCredentials(SASLScramSHA256, "pw", 0)
	require.NoError(t, err)
	assert.NotEqual(t, c.Salt, again.Salt, "a fresh salt each time")

	for _, bad := range []struct {
		mechanism  string
		iterations int
		want       string
	}{
		{SASLScramSHA512, 100, "100 SCRAM iterations: Kafka accepts 4096 to 16384"},
		{SASLScramSHA512, 20000, "20000 SCRAM iterations"},
		{SASLPlain, 0, `"PLAIN" is not a SCRAM mechanism`},
	} {
		_, err := NewScramCredentials(bad.mechanism, "pw", bad.iterations)
		assert.ErrorContains(t, err, bad.want)
	}
}

// SASLUsers serves every mechanism for a table of users.
func TestSASLUsers(t *testing.T) {
	cfg, err := SASLUsers(testPasswords)
	require.NoError(t, err)
	ts := startServer(t, &echoHandler{}, ServerOptions{SASL: cfg})
	for _, mechanism := range []string{SASLPlain, SASLScramSHA256, SASLScramSHA512} {
		for _, login := range []struct {
			user, password string
			want           int16
		}{{"alice", "alice-secret", 0}, {"bob", "alice-secret", kerrors.SaslAuthenticationFailed.Code}} {
			c := &saslClient{conn: dial(t, ts.addr), handshakeVersion: 1, authVersion: 1}
			code, msg := c.login(t, mechanism, login.user, login.password)
			assert.Equal(t, login.want, code, "%s %s: %s", mechanism, login.user, msg)
		}
	}
}
