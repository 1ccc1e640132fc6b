package gateway

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/proxy"
	"github.com/kafkagen/kafkagen/wire"
)

func TestUsersStoreNoPassword(t *testing.T) {
	u, err := NewUsers(map[string]string{"alice": "alice-secret"})
	require.NoError(t, err)
	assert.True(t, u.Plain("alice", "alice-secret"))
	assert.False(t, u.Plain("alice", "alice-secreT"))
	assert.False(t, u.Plain("bob", "alice-secret"))
	for _, m := range []string{wire.SASLScramSHA256, wire.SASLScramSHA512} {
		c, ok := u.Scram(m, "alice")
		require.True(t, ok, m)
		assert.Len(t, c.Salt, 32)
		assert.Equal(t, wire.MinScramIterations, c.Iterations)
		assert.NotContains(t, string(c.StoredKey)+string(c.ServerKey)+string(c.Salt), "alice-secret")
	}
	_, ok := u.Scram(wire.SASLScramSHA256, "bob")
	assert.False(t, ok)
}

func TestApplyErrors(t *testing.T) {
	users := &SASL{Users: map[string]string{"alice": "a"}}
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"no prefix", Config{VirtualClusters: []VirtualCluster{{Name: "a"}}}, `virtual cluster "a": topicPrefix is required`},
		{"principal twice", Config{VirtualClusters: []VirtualCluster{{Name: "a", TopicPrefix: "a.", Principals: []string{"x"}}, {Name: "b", TopicPrefix: "b.", Principals: []string{"x"}}}},
			`principal "x" is in virtual clusters "a" and "b"`},
		{"overlapping prefixes", Config{VirtualClusters: []VirtualCluster{{Name: "a", TopicPrefix: "a"}, {Name: "ab", TopicPrefix: "ab."}}},
			`prefix "a" and "ab." overlap`},
		{"same name", Config{VirtualClusters: []VirtualCluster{{Name: "a", TopicPrefix: "a."}, {Name: "a", TopicPrefix: "b."}}},
			`two virtual clusters named "a"`},
		{"no mechanism", Config{SASL: &SASL{}}, "enables no mechanism"},
		{"OAUTHBEARER without a check", Config{SASL: &SASL{Users: users.Users, Mechanisms: []string{"OAUTHBEARER"}}}, "without an OAuthBearer check"},
		{"empty password", Config{SASL: &SASL{Users: map[string]string{"alice": ""}}}, `user "alice": a name and a password are required`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var cfg proxy.Config
			_, err := tt.cfg.Apply(&cfg, proxy.NewTenant)
			require.ErrorContains(t, err, tt.want)
		})
	}
}

func TestApply(t *testing.T) {
	var cfg proxy.Config
	vcs, err := Config{
		SASL: &SASL{Users: map[string]string{"alice": "a", "bob": "b"}},
		VirtualClusters: []VirtualCluster{
			{Name: "one", TopicPrefix: "one.", Principals: []string{"alice"}},
			{Name: "two", TopicPrefix: "two.", Principals: []string{"bob"}},
		},
	}.Apply(&cfg, proxy.NewTenant)
	require.NoError(t, err)
	require.NotNil(t, cfg.SASL)
	assert.Equal(t, []string{"PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"}, cfg.SASL.Mechanisms)
	for principal, want := range map[string]string{"alice": "one.", "bob": "two."} {
		vc, ok := vcs.Lookup(principal)
		require.True(t, ok, principal)
		assert.Equal(t, want, vc.Tenant.Prefix)
	}
	_, ok := vcs.Lookup("carol")
	assert.False(t, ok, "a principal of no cluster")
}

// A store given to SASL is what the proxy's SASL checks against, and
// Replace changes it for the next authentication.
func TestUsersReplace(t *testing.T) {
	store, err := NewUsers(map[string]string{"alice": "old"})
	require.NoError(t, err)
	var cfg proxy.Config
	_, err = Config{SASL: &SASL{Store: store}}.Apply(&cfg, proxy.NewTenant)
	require.NoError(t, err)
	assert.Equal(t, []string{wire.SASLPlain, wire.SASLScramSHA256, wire.SASLScramSHA512}, cfg.SASL.Mechanisms)
	assert.True(t, cfg.SASL.Plain("alice", "old"))

	next, err := NewUsers(map[string]string{"alice": "new", "bob": "b"})
	require.NoError(t, err)
	store.Replace(next)
	assert.Equal(t, 2, store.Len())
	assert.False(t, cfg.SASL.Plain("alice", "old"))
	assert.True(t, cfg.SASL.Plain("alice", "new"))
	_, ok := cfg.SASL.Scram(wire.SASLScramSHA512, "bob")
	assert.True(t, ok)
}
