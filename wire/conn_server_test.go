package wire

import (
	"context"
	"crypto/tls"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// The client connection against this package's own Server with TLS and
// SASL (SASLUsers: PLAIN, SCRAM-SHA-256, SCRAM-SHA-512), as an application
// would run both.

// saslServer serves StopReplica on 127.0.0.1 over TLS with SASL for
// alice, sessions of maxReauth (0: no expiry); it returns the address and
// the principals the handler saw.
func startSASLServer(t *testing.T, pki *connTestPKI, maxReauth time.Duration) (string, func() []string) {
	sasl, err := SASLUsers(map[string]string{"alice": "alice-secret"})
	require.NoError(t, err)
	sasl.MaxReauth = maxReauth
	var mu sync.Mutex
	var principals []string
	versions := generated.NewAPIVersionsResponse()
	for _, r := range SupportedVersions(generated.NewRequest, generated.APIKeys()) {
		versions.APIKeys = append(versions.APIKeys, generated.APIVersionsResponseAPIVersion{APIKey: r.APIKey, MinVersion: r.MinVersion, MaxVersion: r.MaxVersion})
	}
	handler := HandlerFunc(func(_ context.Context, peer *Peer, req *Request) (runtime.APIMessage, error) {
		if _, ok := req.Body.(*generated.APIVersionsRequest); ok {
			return versions, nil
		}
		mu.Lock()
		principals = append(principals, peer.Mechanism+" "+peer.Principal)
		mu.Unlock()
		return stopReplicaAnswer(req), nil
	})
	srv, err := NewServer(handler, ServerOptions{
		NewRequest: generated.NewRequest,
		TLS:        &tls.Config{Certificates: []tls.Certificate{pki.server}},
		SASL:       sasl,
	})
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
		<-served
	})
	return ln.Addr().String(), func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), principals...)
	}
}

func TestConnAgainstServer(t *testing.T) {
	pki := newConnTestPKI(t)
	addr, principals := startSASLServer(t, pki, 0)
	clientTLS := &tls.Config{RootCAs: pki.roots}
	scram256, err := ScramSHA256Auth("alice", "alice-secret")
	require.NoError(t, err)
	scram512, err := ScramSHA512Auth("alice", "alice-secret")
	require.NoError(t, err)
	wrong, err := ScramSHA512Auth("alice", "wrong")
	require.NoError(t, err)
	cases := []struct {
		mech SASLMechanism
		code *kerrors.Error
	}{
		{PlainAuth("alice", "alice-secret"), nil},
		{scram256, nil},
		{scram512, nil},
		{PlainAuth("alice", "wrong"), kerrors.SaslAuthenticationFailed},
		{wrong, kerrors.SaslAuthenticationFailed},
		{OAuthBearerAuth(func(context.Context) (string, map[string]string, error) { return "t", nil, nil }), kerrors.UnsupportedSaslMechanism},
	}
	for _, tc := range cases {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		c, err := Dial(ctx, addr, ConnConfig{TLS: clientTLS, SASL: tc.mech})
		if tc.code != nil {
			require.ErrorIs(t, err, tc.code, tc.mech.Name())
			var se *SASLError
			require.ErrorAs(t, err, &se)
			if tc.code == kerrors.UnsupportedSaslMechanism {
				assert.Equal(t, []string{SASLPlain, SASLScramSHA256, SASLScramSHA512}, se.Enabled)
			} else {
				assert.NotEmpty(t, se.Message, "the server's message travels with the code")
			}
			cancel()
			continue
		}
		require.NoError(t, err, tc.mech.Name())
		require.NoError(t, c.Do(ctx, stopReplica(), generated.NewStopReplicaResponse()))
		c.Close()
		cancel()
	}
	assert.Equal(t, []string{"PLAIN alice", "SCRAM-SHA-256 alice", "SCRAM-SHA-512 alice"}, principals())
}

// Sessions of 2 s (the Server closes a connection at its first request
// after expiry) and eight callers for 4.2 s on one connection: every call
// succeeds because the Conn re-authenticates in time.
func TestConnReauthenticatesAgainstServer(t *testing.T) {
	pki := newConnTestPKI(t)
	addr, _ := startSASLServer(t, pki, 2*time.Second)
	mech, err := ScramSHA512Auth("alice", "alice-secret")
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := Dial(ctx, addr, ConnConfig{TLS: &tls.Config{RootCAs: pki.roots}, SASL: mech})
	require.NoError(t, err)
	defer c.Close()
	first := c.reauthAt.Load()
	require.NotZero(t, first, "the session has a lifetime")
	var wg sync.WaitGroup
	errs := make([]error, 8)
	stop := time.Now().Add(4200 * time.Millisecond)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for errs[i] == nil && time.Now().Before(stop) {
				errs[i] = c.Do(ctx, stopReplica(), generated.NewStopReplicaResponse())
				time.Sleep(10 * time.Millisecond)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	assert.Greater(t, c.reauthAt.Load()-first, int64(2*time.Second), "re-authenticated at least twice")
}
