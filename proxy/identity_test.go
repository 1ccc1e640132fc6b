package proxy

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/wire"
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
		principal string
		err       error
	}
	var admits []admission
	p, logs := startProxy(t, Config{SASL: users, OnAdmit: func(info *ConnInfo, err error) {
		mu.Lock()
		defer mu.Unlock()
		admits = append(admits, admission{info.Principal, err})
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

	mu.Lock()
	defer mu.Unlock()
	require.Len(t, admits, 2)
	assert.Equal(t, "alice", admits[0].principal)
	assert.NoError(t, admits[0].err)
	assert.ErrorIs(t, admits[1].err, kerrors.SaslAuthenticationFailed)
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
