package proxy

import (
	"context"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
	"github.com/kafkagen/kafkagen/wire/frames"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// SASL at the proxy: a client that authenticates is relayed with its
// principal known to OnAdmit; one that fails is refused and OnAdmit told
// why; the broker sees neither's SASL requests, nor anything of the one
// that failed.
func TestSASLAtTheProxy(t *testing.T) {
	b := startBroker(t)
	users, err := wire.SASLUsers(map[string]string{"alice": "alice-secret"})
	require.NoError(t, err)
	var mu sync.Mutex
	type admission struct {
		principal, mechanism string
		err                  error
	}
	var admits []admission
	p, logs := startProxy(t, Config{SASL: users, OnAdmit: func(info *ConnInfo, err error) {
		mu.Lock()
		defer mu.Unlock()
		admits = append(admits, admission{info.Principal, info.Mechanism, err})
	}}, b)

	good, err := wire.Dial(t.Context(), p.Addr().String(), wire.ConnConfig{SASL: wire.PlainAuth("alice", "alice-secret")})
	require.NoError(t, err)
	req := testRequests(3).(*metadataRequest)
	req.Topics = []string{"orders"}
	require.NoError(t, good.DoAt(t.Context(), req, 1, testResponses(3)), "proxy log: %s", logs)
	good.Close()
	seenBefore := len(b.seenKeys())

	scram, err := wire.ScramSHA512Auth("alice", "wrong")
	require.NoError(t, err)
	_, err = wire.Dial(t.Context(), p.Addr().String(), wire.ConnConfig{SASL: scram})
	require.ErrorIs(t, err, kerrors.SaslAuthenticationFailed)

	// The refusal is written before OnAdmit hears of it.
	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(admits) == 2
	}, 5*time.Second, 5*time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, "alice", admits[0].principal)
	assert.NoError(t, admits[0].err)
	assert.ErrorIs(t, admits[1].err, kerrors.SaslAuthenticationFailed)
	assert.Equal(t, []string{wire.SASLPlain, wire.SASLScramSHA512}, []string{admits[0].mechanism, admits[1].mechanism},
		"the mechanism used, and the one a failure tried")
	seen := b.seenKeys()
	assert.NotContains(t, seen, saslHandshakeKey, "client SASL frames never reach the broker")
	assert.NotContains(t, seen, saslAuthenticateKey)
	assert.Contains(t, seen, int16(3), "the authenticated client's Metadata did")
	assert.Len(t, seen, seenBefore, "nothing of the refused client did")
}

func (b *fakeBroker) seenKeys() []int16 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]int16(nil), b.seen...)
}

// librdkafka before 2.6 authenticates only with a server whose ApiVersions
// lists SaslHandshake v0. Before authentication the proxy answers itself
// and serves a v0 handshake's bare tokens, so its answer lists v0; after
// admission a v0 handshake, whose bare tokens the relay could not tell from
// requests, closes the connection.
func TestSASLHandshakeV0AtTheProxy(t *testing.T) {
	b := startBroker(t)
	users, err := wire.SASLUsers(map[string]string{"alice": "alice-secret"})
	require.NoError(t, err)
	p, logs := startProxy(t, Config{SASL: users}, b)
	conn := rawDial(t, p.Addr().String())

	_, err = conn.Write(requestFrame(t, generated.APIKeyAPIVersions, 0, 1, nil))
	require.NoError(t, err)
	versions := generated.NewAPIVersionsResponse()
	_, err = versions.Decode(readFrame(t, conn)[8:], 0) // size, correlation id
	require.NoError(t, err)
	i := slices.IndexFunc(versions.APIKeys, func(k generated.APIVersionsResponseAPIVersion) bool { return k.APIKey == saslHandshakeKey })
	require.GreaterOrEqual(t, i, 0, "SaslHandshake listed")
	assert.Equal(t, int16(0), versions.APIKeys[i].MinVersion, "SaslHandshake from v0 before authentication")

	hs := generated.NewSaslHandshakeRequest()
	hs.Mechanism = wire.SASLPlain
	body, err := hs.AppendTo(nil, 0)
	require.NoError(t, err)
	_, err = conn.Write(requestFrame(t, saslHandshakeKey, 0, 2, body))
	require.NoError(t, err)
	hsResp := generated.NewSaslHandshakeResponse()
	_, err = hsResp.Decode(readFrame(t, conn)[8:], 0)
	require.NoError(t, err)
	require.Zero(t, hsResp.ErrorCode)
	token, err := frames.AppendFrame(nil, []byte("\x00alice\x00alice-secret"))
	require.NoError(t, err)
	_, err = conn.Write(token)
	require.NoError(t, err)
	var size [4]byte
	_, err = io.ReadFull(conn, size[:])
	require.NoError(t, err)
	require.Equal(t, [4]byte{}, size, "PLAIN's bare answer is empty")

	cl := wire.NewClient(conn, wire.ClientConfig{ClientID: runtime.NewNullString("v0-client")})
	req := testRequests(3).(*metadataRequest)
	req.Topics = []string{"orders"}
	do(t, cl, req, 1, testResponses(3))

	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	require.Error(t, cl.Do(ctx, hs, 0, generated.NewSaslHandshakeResponse()), "a v0 handshake after admission closes the connection")
	assert.NotContains(t, b.seenKeys(), saslHandshakeKey, "no client SASL frame reaches the broker")
	require.Eventually(t, func() bool { return strings.Contains(logs.String(), "SaslHandshake v0 after authentication") }, 5*time.Second, 10*time.Millisecond)
}
