package main

import (
	"io"
	"log"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/proxy/acl"
	"github.com/kafkagen/kafkagen/proxy/quota"
)

func TestConfigIssueExample(t *testing.T) {
	c, err := readConfig("testdata/issue-example.yaml")
	require.NoError(t, err)
	assert.Equal(t, "127.0.0.1:9192", c.Listen)
	assert.Equal(t, []string{"127.0.0.1:9092"}, c.Upstream)
	assert.Equal(t, "proxy", c.UpstreamSASL.Username)
	assert.Equal(t, map[string]string{"alice": "alice-secret", "bob": "bob-secret"}, c.SASL.Users)
	assert.Equal(t, "a", c.clusterOf("carol"))
	policy, err := c.policy()
	require.NoError(t, err)
	assert.Equal(t, []acl.ACL{{Principal: "carol", ResourceType: acl.ResourceTopic, PatternType: acl.PatternPrefixed, Name: "public.",
		Operations: []acl.Operation{acl.OpRead, acl.OpDescribe}, Permission: acl.Allow}}, policy.ACLs)
	assert.Equal(t, []string{"alice"}, policy.SuperUsers)
	limits, err := c.quotaLimits()
	require.NoError(t, err)
	assert.Equal(t, map[string]quota.Limits{"bob": {ProduceBytesPerSecond: 524288}}, limits)
	assert.Equal(t, "127.0.0.1:9464", c.Metrics)
}

func TestConfigErrors(t *testing.T) {
	dir := t.TempDir()
	cert := filepath.Join(dir, "cert.pem")
	require.NoError(t, os.WriteFile(cert, []byte("x"), 0o600))
	const base = "listen: 127.0.0.1:9192\nupstream: [127.0.0.1:9092]\n"
	tests := []struct {
		name, yaml, want string
	}{
		{"empty", "", "the file is empty"},
		{"unknown key", base + "acl: []\n", "line 3: unknown key acl"},
		{"unknown nested key", base + "acls:\n  - {principal: carol, resource: topic}\n", "line 4: unknown key resource"},
		{"wrong type", base + "superUsers: alice\n", "line 3: cannot unmarshal !!str `alice` into []string"},
		{"two documents", base + "---\nlisten: x\n", "more than one YAML document"},
		{"no upstream", "listen: 127.0.0.1:9192\n", "listen and upstream are required"},
		{"bad listen", "listen: 127.0.0.1\nupstream: [127.0.0.1:9092]\n", `listen: "127.0.0.1": want HOST:PORT`},
		{"bad upstream", "listen: 127.0.0.1:9192\nupstream: [127.0.0.1:9092, b]\n", `upstream[1]: "b" is not HOST:PORT`},
		{"bad api", base + "allowApis: [Produce, Teleport]\n", `allowApis: "Teleport" is neither an api name`},
		{"bad metrics", base + "metrics: 9464\n", `metrics: "9464" is not HOST:PORT`},
		{"acl resource", base + "acls: [{principal: c, resourceType: user, name: x, operations: [read], permission: allow}]\n", `acls[0]: resourceType: resource type "user"`},
		{"acl pattern", base + "acls: [{principal: c, resourceType: topic, patternType: match, name: x, operations: [read], permission: allow}]\n", `acls[0]: patternType: pattern type "match"`},
		{"acl operation", base + "acls: [{principal: c, resourceType: topic, name: x, operations: [read, fly], permission: allow}]\n", `acls[0]: operations[1]: operation "fly"`},
		{"acl permission", base + "acls: [{principal: c, resourceType: topic, name: x, operations: [read], permission: maybe}]\n", `acls[0]: permission: permission "maybe"`},
		{"acl no name", base + "acls: [{principal: c, resourceType: topic, operations: [read], permission: allow}]\n", "acls[0]: name is empty"},
		{"acl cluster name", base + "acls: [{principal: c, resourceType: cluster, name: x, operations: [create], permission: allow}]\n", `acls[0]: name "x": the cluster resource's name is "kafka-cluster"`},
		{"quota negative", base + "quotas: [{principal: bob, fetchBytesPerSecond: -5}]\n", "quotas[0]: fetchBytesPerSecond is -5"},
		{"quota nobody", base + "quotas: [{produceBytesPerSecond: 5}]\n", "quotas[0]: give principal or virtualCluster"},
		{"quota twice", base + "quotas: [{principal: bob, produceBytesPerSecond: 5}, {principal: User:bob, fetchBytesPerSecond: 5}]\n", "quotas[1]: a second quota for bob"},
		{"quota unknown cluster", base + "quotas: [{virtualCluster: z, produceBytesPerSecond: 5}]\n", `quotas[0]: virtualCluster "z" is not one of virtualClusters`},
		{"tls without key", base + "tls: {certFile: " + cert + "}\n", "tls: certFile and keyFile are required"},
		{"tls missing file", base + "tls: {certFile: " + cert + ", keyFile: /nonexistent/key.pem}\n", "tls.keyFile: stat /nonexistent/key.pem"},
		{"upstreamTLS half a pair", base + "upstreamTLS: {certFile: " + cert + "}\n", "upstreamTLS: give certFile and keyFile together"},
		{"upstreamSASL mechanism", base + "upstreamSASL: {mechanism: GSSAPI, username: a, password: b}\n", `upstreamSASL.mechanism: "GSSAPI"`},
		{"upstreamSASL no password", base + "upstreamSASL: {mechanism: PLAIN, username: a}\n", "upstreamSASL: username and password are required"},
		{"sasl no mechanisms", base + "sasl: {users: {a: b}}\n", "sasl.mechanisms: list one or more"},
		{"sasl mechanism", base + "sasl: {mechanisms: [PLAIN, KERBEROS]}\n", `sasl.mechanisms[1]: "KERBEROS"`},
		{"sasl users twice", base + "sasl: {mechanisms: [PLAIN], users: {a: b}, usersFile: u.yaml}\n", "sasl: give users or usersFile, not both"},
		{"sasl users file missing", base + "sasl: {mechanisms: [PLAIN], usersFile: /nonexistent/u.yaml}\n", "sasl.usersFile: open /nonexistent/u.yaml"},
		{"oauth mechanism without its key", base + "sasl: {mechanisms: [OAUTHBEARER]}\n", "sasl.mechanisms: OAUTHBEARER needs sasl.oauthBearer"},
		{"oauth key without its mechanism", base + "sasl: {mechanisms: [PLAIN], users: {a: b}, oauthBearer: {keysFile: " + cert + ", audience: kafka}}\n", "sasl.oauthBearer: OAUTHBEARER is not in sasl.mechanisms"},
		{"oauth no keys file", base + "sasl: {mechanisms: [OAUTHBEARER], oauthBearer: {audience: kafka}}\n", "sasl.oauthBearer.keysFile: required"},
		{"oauth no audience", base + "sasl: {mechanisms: [OAUTHBEARER], oauthBearer: {keysFile: " + cert + "}}\n", "sasl.oauthBearer.audience: required"},
		{"oauth keys file missing", base + "sasl: {mechanisms: [OAUTHBEARER], oauthBearer: {keysFile: /nonexistent/k.pem, audience: kafka}}\n", "sasl.oauthBearer.keysFile: open /nonexistent/k.pem"},
		{"oauth keys file without a key", base + "sasl: {mechanisms: [OAUTHBEARER], oauthBearer: {keysFile: " + cert + ", audience: kafka}}\n", "no PEM PUBLIC KEY block"},
		{"oauth unknown key", base + "sasl: {mechanisms: [OAUTHBEARER], oauthBearer: {keysFile: " + cert + ", audience: kafka, jwks: x}}\n", "unknown key jwks"},
		{"prefix and clusters", base + "topicPrefix: t.\nvirtualClusters: [{name: a, topicPrefix: a.}]\n", "topicPrefix and virtualClusters: give one"},
		{"cluster no prefix", base + "virtualClusters: [{name: a}]\n", "virtualClusters[0]: name and topicPrefix are required"},
		{"cluster twice", base + "virtualClusters: [{name: a, topicPrefix: a.}, {name: a, topicPrefix: b.}]\n", `virtualClusters[1]: name "a" is given twice`},
		{"principal in two clusters", base + "virtualClusters: [{name: a, topicPrefix: a., principals: [c]}, {name: b, topicPrefix: b., principals: [c]}]\n", `virtualClusters[1]: principal "c" is already in virtual cluster "a"`},
		{"overlapping prefixes", base + "virtualClusters: [{name: a, topicPrefix: a.}, {name: b, topicPrefix: a.b.}]\n", `virtualClusters[1]: topicPrefix "a.b." overlaps "a."`},
		{"stand-in twice", base + "standInIdentity: {principal: x, principalFromClientId: true}\n", "standInIdentity: give principal or principalFromClientId"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseConfig([]byte(tt.yaml))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestConfigUsersFile(t *testing.T) {
	dir := t.TempDir()
	users := filepath.Join(dir, "users.yaml")
	require.NoError(t, os.WriteFile(users, []byte("alice: s1\nbob: s2\n"), 0o600))
	c, err := parseConfig([]byte("listen: 127.0.0.1:9192\nupstream: [127.0.0.1:9092]\nsasl: {mechanisms: [SCRAM-SHA-512], usersFile: " + users + "}\n"))
	require.NoError(t, err)
	got, err := c.saslUsers()
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"alice": "s1", "bob": "s2"}, got)
}

// A virtual cluster's quota is one budget for its principals; a principal
// with its own quota and outside a cluster's keeps its own.
func TestQuotaKeys(t *testing.T) {
	c, err := parseConfig([]byte(`listen: 127.0.0.1:9192
upstream: [127.0.0.1:9092]
standInIdentity: {principalFromClientId: true}
virtualClusters:
  - {name: a, principals: [alice, carol], topicPrefix: "a."}
  - {name: b, principals: [bob], topicPrefix: "b."}
quotas:
  - {virtualCluster: a, produceBytesPerSecond: 1000}
  - {principal: bob, produceBytesPerSecond: 10}
`))
	require.NoError(t, err)
	g, err := newGateway("unused.yaml", c, nil, log.New(io.Discard, "", 0))
	require.NoError(t, err)
	for principal, want := range map[string]string{"alice": "virtualCluster:a", "carol": "virtualCluster:a", "bob": "bob", "dave": "dave"} {
		assert.Equal(t, want, g.quotaKey(exchange(principal, 0, 9, nil)), principal)
	}
	assert.Equal(t, "a", g.clusterOfKey("virtualCluster:a"))
	assert.Equal(t, "b", g.clusterOfKey("bob"))
	assert.Equal(t, "", g.clusterOfKey("dave"))
	// The shared budget: alice's use counts against carol's.
	assert.Zero(t, g.quotas.Record("virtualCluster:a", quota.ProduceBytes, 1000))
	assert.Positive(t, g.quotas.Record(g.quotaKey(exchange("carol", 0, 9, nil)), quota.ProduceBytes, 500))
}
