package wire

import (
	"context"
	"errors"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

func dialTest(t *testing.T, addr string, cfg ConnConfig) (*Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := Dial(ctx, addr, cfg)
	if err == nil {
		t.Cleanup(func() { c.Close() })
	}
	return c, err
}

// Dial asks ApiVersions at v4 and calls pick the highest common version.
func TestDialNegotiates(t *testing.T) {
	b := startConnBroker(t, nil)
	c, err := dialTest(t, b.addr(), ConnConfig{ClientID: "negotiates"})
	require.NoError(t, err)
	versions := c.APIVersions()
	assert.Equal(t, int16(4), versions.ReadAt)
	assert.Len(t, versions.Ranges, 4)
	sasl, listed := versions.Lookup(36)
	assert.True(t, listed)
	assert.Equal(t, VersionRange{36, 0, 2}, sasl)
	_, listed = versions.Lookup(50)
	assert.False(t, listed, "BrokerHeartbeat is not listed")
	assert.Equal(t, []VersionRange{{18, 0, 4}, {17, 0, 1}, {36, 0, 2}, {5, 0, 0}}, c.BrokerVersions())

	sv, err := c.Version(generated.NewSaslAuthenticateRequest())
	require.NoError(t, err)
	assert.Equal(t, int16(2), sv)
	_, err = c.Version(generated.NewBrokerHeartbeatRequest())
	require.ErrorIs(t, err, ErrNoCommonVersion)
	assert.EqualError(t, err, "BrokerHeartbeatRequest: the broker does not list it: no version in common")
	n := c.Negotiated(generated.NewRequest)
	hv, err := n.Version(17)
	require.NoError(t, err)
	assert.Equal(t, int16(1), hv)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out := generated.NewStopReplicaResponse()
	require.NoError(t, c.Do(ctx, stopReplica(), out))
	assert.Len(t, out.PartitionErrors, 1)
	unanswered := stopReplica()
	unanswered.AckTimeoutMs = 0 // the stub does not answer it
	require.NoError(t, c.Send(ctx, unanswered))
	err = c.Do(ctx, generated.NewBrokerHeartbeatRequest(), generated.NewBrokerHeartbeatResponse())
	require.ErrorIs(t, err, ErrNoCommonVersion, "nothing is sent at no version")
	require.Eventually(t, func() bool { return len(b.logged()) == 3 }, 5*time.Second, time.Millisecond)
	assert.Equal(t, []string{"ApiVersions v4", "StopReplica v0", "StopReplica v0"}, b.logged())
}

// KIP-511: a broker serving ApiVersions up to v2 answers the v4 request
// with UNSUPPORTED_VERSION; the Conn asks again at v2.
func TestDialRetriesAPIVersions(t *testing.T) {
	b := startConnBroker(t, func(b *connBroker) { b.apiVersionsMax = 2 })
	c, err := dialTest(t, b.addr(), ConnConfig{})
	require.NoError(t, err)
	assert.Equal(t, int16(2), c.APIVersions().ReadAt)
	assert.Equal(t, []string{"ApiVersions v3 refused", "ApiVersions v2"}, b.logged())
}

// Every mechanism against the stub broker, and Kafka's refusals with the
// broker's message.
func TestDialSASL(t *testing.T) {
	scram256, err := ScramSHA256Auth("alice", "secret")
	require.NoError(t, err)
	scram512, err := ScramSHA512Auth("alice", "secret")
	require.NoError(t, err)
	wrong512, err := ScramSHA512Auth("alice", "wrong")
	require.NoError(t, err)
	token := func(tok string) SASLMechanism {
		return OAuthBearerAuth(func(context.Context) (string, map[string]string, error) {
			return tok, map[string]string{"traceId": "abc"}, nil
		})
	}
	cases := []struct {
		name    string
		mech    SASLMechanism
		code    *kerrors.Error
		message string
	}{
		{"PLAIN", PlainAuth("alice", "secret"), nil, ""},
		{"SCRAM-SHA-256", scram256, nil, ""},
		{"SCRAM-SHA-512", scram512, nil, ""},
		{"OAUTHBEARER", token("good-token"), nil, ""},
		{"PLAIN wrong password", PlainAuth("alice", "nope"), kerrors.SaslAuthenticationFailed, "broker says: Authentication failed: Invalid username or password"},
		{"SCRAM wrong password", wrong512, kerrors.SaslAuthenticationFailed, "with SASL mechanism SCRAM-SHA-512"},
		{"OAUTHBEARER bad token", token("bad-token"), kerrors.SaslAuthenticationFailed, "broker says: invalid token"},
		{"unknown mechanism", PlainAuth("alice", "secret"), kerrors.UnsupportedSaslMechanism, "the broker enables PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER"},
		{"illegal state", PlainAuth("alice", "secret"), kerrors.IllegalSaslState, "kafka sasl PLAIN: SaslHandshake: ILLEGAL_SASL_STATE (kafka error 34)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := startConnBroker(t, func(b *connBroker) {
				b.passwords = map[string]string{"alice": "secret"}
				b.tokens = map[string]bool{"good-token": true}
				b.illegalState = tc.code == kerrors.IllegalSaslState
			})
			mech := tc.mech
			if tc.code == kerrors.UnsupportedSaslMechanism {
				mech = renamed{mech, "GSSAPI"}
			}
			c, err := dialTest(t, b.addr(), ConnConfig{SASL: mech})
			if tc.code == nil {
				require.NoError(t, err)
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				require.NoError(t, c.Do(ctx, stopReplica(), generated.NewStopReplicaResponse()))
				assert.Empty(t, b.violations)
				return
			}
			require.ErrorIs(t, err, tc.code)
			var se *SASLError
			require.ErrorAs(t, err, &se)
			assert.Contains(t, err.Error(), tc.message)
			assert.Contains(t, err.Error(), tc.code.Name)
		})
	}
}

// A broker that closes the connection on wrong credentials instead of
// answering SASL_AUTHENTICATION_FAILED gets an error that says so.
func TestDialSASLClosedDuringAuthentication(t *testing.T) {
	b := startConnBroker(t, func(b *connBroker) { b.passwords = map[string]string{"alice": "secret"}; b.silentFailure = true })
	_, err := dialTest(t, b.addr(), ConnConfig{SASL: PlainAuth("alice", "nope")})
	require.ErrorIs(t, err, io.EOF)
	assert.Contains(t, err.Error(), "kafka sasl PLAIN: the broker closed the connection during SaslAuthenticate")
}

// renamed is a mechanism under another name, which the broker lacks.
type renamed struct {
	SASLMechanism
	name string
}

func (r renamed) Name() string { return r.name }

// A broker whose SaslHandshake stops at v0 would want raw SASL frames,
// which a Conn does not speak: it says so before sending anything.
func TestDialSASLNeedsHandshakeV1(t *testing.T) {
	b := startConnBroker(t, func(b *connBroker) { b.handshakeMax = 0; b.passwords = map[string]string{} })
	_, err := dialTest(t, b.addr(), ConnConfig{SASL: PlainAuth("a", "b")})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "SaslHandshake v0 only: v0, whose tokens travel as raw frames, is not supported")
	assert.Equal(t, []string{"ApiVersions v4"}, b.logged())
}

// KIP-368: sessions of 2 s are renewed on the same connection while eight
// goroutines keep calls in flight; the broker never sees a request inside
// an exchange or after expiry, and every call succeeds. (The lifetime
// leaves 300 ms between the renewal at 85% and the expiry: with 300 ms
// sessions, calls delayed 45 ms on a loaded machine reached the broker
// after expiry.)
func TestConnReauthenticates(t *testing.T) {
	b := startConnBroker(t, func(b *connBroker) {
		b.passwords = map[string]string{"alice": "secret"}
		b.lifetime = 2 * time.Second
	})
	mech, err := ScramSHA256Auth("alice", "secret")
	require.NoError(t, err)
	c, err := dialTest(t, b.addr(), ConnConfig{SASL: mech})
	require.NoError(t, err)
	stop := time.Now().Add(4500 * time.Millisecond)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(stop) {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				err := c.Do(ctx, stopReplica(), generated.NewStopReplicaResponse())
				cancel()
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	b.mu.Lock()
	defer b.mu.Unlock()
	require.Empty(t, b.violations)
	for err := range errs {
		require.NoError(t, err)
	}
	assert.GreaterOrEqual(t, b.auths, 3, "4.5 s of 2 s sessions renewed at 85-95%%")
}

func TestDialErrors(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closed := ln.Addr().String()
	ln.Close()
	_, err = dialTest(t, closed, ConnConfig{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "kafka dial "+closed+":")

	b := startConnBroker(t, nil)
	_, err = dialTest(t, b.addr(), ConnConfig{SoftwareName: "my client"})
	assert.EqualError(t, err, `kafka dial `+b.addr()+`: kafka conn: ConnConfig.SoftwareName "my client": KIP-511 allows letters, digits, '-' and '.', starting and ending with a letter or digit`)
	assert.Regexp(t, `^[a-zA-Z0-9](?:[a-zA-Z0-9\-.]*[a-zA-Z0-9])?$`, moduleVersion())

	dialer := func(context.Context, string, string) (net.Conn, error) { return nil, errors.New("no route") }
	_, err = dialTest(t, "broker:9092", ConnConfig{DialContext: dialer})
	assert.EqualError(t, err, "kafka dial broker:9092: no route")
}

// olderAPIVersions stands for the ApiVersionsResponse of another generated
// package, one made from older specs (up to v3).
type olderAPIVersions struct{ *generated.APIVersionsResponse }

func (olderAPIVersions) MaxVersion() int16 { return 3 }

// BrokerVersions reads this module's ApiVersionsResponse and any other
// package's, and refuses error answers.
func TestBrokerVersions(t *testing.T) {
	own := generated.NewAPIVersionsResponse()
	own.APIKeys = []generated.APIVersionsResponseAPIVersion{{APIKey: 0, MinVersion: 3, MaxVersion: 11}}
	got, err := BrokerVersions(own)
	require.NoError(t, err)
	assert.Equal(t, []VersionRange{{0, 3, 11}}, got)

	other := olderAPIVersions{generated.NewAPIVersionsResponse()}
	other.APIKeys = []generated.APIVersionsResponseAPIVersion{{APIKey: 5, MinVersion: 0, MaxVersion: 3}, {APIKey: 18, MinVersion: 0, MaxVersion: 2}}
	got, err = BrokerVersions(other)
	require.NoError(t, err)
	assert.Equal(t, []VersionRange{{5, 0, 3}, {18, 0, 2}}, got)
	n, err := NegotiateResponse(other, generated.NewRequest)
	require.NoError(t, err)
	v, err := n.Version(5)
	require.NoError(t, err)
	assert.Equal(t, int16(0), v)

	other.ErrorCode = kerrors.UnsupportedVersion.Code
	_, err = BrokerVersions(other)
	require.ErrorIs(t, err, kerrors.UnsupportedVersion)
	_, err = BrokerVersions(generated.NewStopReplicaResponse())
	assert.EqualError(t, err, "kafka negotiate: StopReplicaResponse is not an ApiVersions response")
}
