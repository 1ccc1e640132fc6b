package main

import (
	"bufio"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kgo"
	"go.yaml.in/yaml/v3"

	"github.com/kafkagen/kafkagen/interop/internal/scenario"
)

// texts are the recordText forms of the n records of the scenario rule for
// name, with a "topic" header naming header when it is not "".
func texts(name string, n int, header string) []string {
	var out []string
	for _, r := range scenario.Records(name, n, false) {
		rec := &kgo.Record{Key: r.Key, Value: r.Value}
		if header != "" {
			rec.Headers = []kgo.RecordHeader{{Key: "client", Value: []byte("kcat")}, {Key: "topic", Value: []byte(header)}}
		}
		out = append(out, recordText(rec))
	}
	slices.Sort(out)
	return out
}

func TestDiffTenantContents(t *testing.T) {
	want := map[string]expectedTopic{"t1.orders": {"orders", 3}, "t2.logs": {"logs", 2}}
	tests := []struct {
		name string
		got  contents
		want []string
	}{
		{"each topic under its prefix with its records", contents{"t1.orders": texts("orders", 3, ""), "t2.logs": texts("logs", 2, "logs")}, nil},
		{"a topic missing", contents{"t1.orders": texts("orders", 3, "")},
			[]string{"topic t2.logs is not at the broker"}},
		{"a record missing", contents{"t1.orders": texts("orders", 2, ""), "t2.logs": texts("logs", 2, "")},
			[]string{"topic t1.orders: 2 records, want 3"}},
		{"the records of another topic", contents{"t1.orders": texts("logs", 3, ""), "t2.logs": texts("logs", 2, "")},
			[]string{`topic t1.orders: a record the tenant did not write: key="key-0" value="logs value 0 "`}},
		{"a topic header naming the broker's name", contents{"t1.orders": texts("orders", 3, "t1.orders"), "t2.logs": texts("logs", 2, "")},
			[]string{`topic t1.orders: a record whose topic header is not orders: key="key-0" value="orders value 0 " "client"="kcat" "topic"="t1.orders"`}},
		{"a topic without a prefix", contents{"t1.orders": texts("orders", 3, ""), "t2.logs": texts("logs", 2, ""), "orders": nil},
			[]string{"topic orders is at the broker, and no tenant made it"}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, diffTenantContents(tt.got, want), tt.name)
	}
}

func TestClientTopics(t *testing.T) {
	tenants := gatewayTenants(gatewayRuns)
	require.Len(t, tenants, len(gatewayRuns)+6)
	assert.Equal(t, map[string]expectedTopic{"kcat-plain.kcat-sasl-ssl-plain-none": {"kcat-sasl-ssl-plain-none", 20}}, clientTopics(tenants[0], 20))
	assert.Equal(t, map[string]expectedTopic{"kafkajs-scram-sha-256.kafkajs-sasl-ssl-scram-sha-256-none": {"kafkajs-sasl-ssl-scram-sha-256-none", 5}}, clientTopics(tenants[3], 5))
	var others []string
	for _, tn := range tenants[7:] {
		others = append(others, tn.Name)
	}
	assert.Equal(t, []string{tenantA, tenantB, tenantNobody, tenantThrottled, tenantFullSpeed, tenantOAuth}, others)
	names := map[string]bool{}
	for _, tn := range tenants {
		assert.False(t, names[tn.Name], "tenant %s twice", tn.Name)
		names[tn.Name] = true
		assert.Equal(t, tn.Name != tenantOAuth, tn.Password != "", "%s: a password, but for the token-only tenant", tn.Name)
		assert.Equal(t, tn.Name == tenantThrottled, tn.ProduceQuota > 0, "%s: a quota for the throttled tenant only", tn.Name)
	}
}

func TestGatewayRunsOf(t *testing.T) {
	specs, err := selectClients("kcat,sarama")
	require.NoError(t, err)
	assert.Equal(t, []securedRun{gatewayRuns[0], gatewayRuns[1], gatewayRuns[5]}, gatewayRunsOf(specs))
}

// The configuration file, read back: every tenant a virtual cluster with
// its own prefix and, but the token-only one, a user; the ACLs of the
// client, quota and OAUTHBEARER tenants and no others; A and B super
// users; one quota; OAUTHBEARER with the run's key; the proxy's own login
// and librdkafka's nonce accepted.
func TestGatewayConfig(t *testing.T) {
	tenants := gatewayTenants(gatewayRuns[:2])
	data, err := gatewayConfig("127.0.0.1:9192", "127.0.0.1:9464", "127.0.0.1:9092",
		gatewayFiles{Cert: "c.pem", Key: "k.pem", UpstreamPassword: "up", OAuthKeys: "oauth.pem"}, tenants)
	require.NoError(t, err)
	var c proxyFileConfig
	require.NoError(t, yaml.Unmarshal(data, &c))
	assert.Equal(t, "127.0.0.1:9192", c.Listen)
	assert.Equal(t, "127.0.0.1:9464", c.Metrics)
	assert.Equal(t, []string{"127.0.0.1:9092"}, c.Upstream)
	assert.Equal(t, proxyTLS{CertFile: "c.pem", KeyFile: "k.pem"}, c.TLS)
	assert.True(t, c.SASL.AcceptRepeatedScramNonce)
	assert.Equal(t, []string{"PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER"}, c.SASL.Mechanisms)
	assert.Equal(t, proxyOAuthBearer{KeysFile: "oauth.pem", Audience: oauthAudience, Issuer: oauthIssuer}, c.SASL.OAuthBearer)
	assert.Equal(t, []proxyQuota{{Principal: tenantThrottled, ProduceBytesPerSecond: quotaLimit}}, c.Quotas)
	assert.Equal(t, proxyUpstreamSASL{Mechanism: "SCRAM-SHA-512", Username: gatewayUpstreamUser, Password: "up"}, c.UpstreamSASL)
	assert.Equal(t, []string{tenantA, tenantB}, c.SuperUsers)
	assert.False(t, c.AllowEveryone)
	require.Len(t, c.VirtualClusters, len(tenants))
	assert.Len(t, c.SASL.Users, len(tenants)-1)
	assert.NotContains(t, c.SASL.Users, tenantOAuth)
	for i, tn := range tenants {
		assert.Equal(t, tn.Password, c.SASL.Users[tn.Name])
		assert.Equal(t, proxyCluster{Name: tn.Name, Principals: []string{tn.Name}, TopicPrefix: tn.Name + "."}, c.VirtualClusters[i])
	}
	byPrincipal := map[string][]string{}
	for _, a := range c.ACLs {
		byPrincipal[a.Principal] = append(byPrincipal[a.Principal], a.ResourceType+":"+a.Name)
		assert.Equal(t, []string{"all"}, a.Operations)
		assert.Equal(t, "allow", a.Permission)
	}
	everything := []string{"topic:*", "group:*", "transactionalId:*", "cluster:kafka-cluster"}
	assert.Equal(t, map[string][]string{"kcat-plain": everything, "kcat-scram-sha-512": everything,
		tenantThrottled: everything, tenantFullSpeed: everything, tenantOAuth: everything}, byPrincipal)

	_, err = gatewayConfig("127.0.0.1:9192", "", "127.0.0.1:9092", gatewayFiles{}, []gatewayTenant{{Name: "a.b"}})
	assert.EqualError(t, err, `tenant name "a.b": want a name without '.', '*' or ':'`)
}

func TestReachedBroker(t *testing.T) {
	st := &stats{Clients: map[string]map[string]int64{"forwarded": {"Fetch v12": 1}, "refused-but-seen": {"Fetch v13": 1}}}
	attempts := []attempt{
		{Name: "by name", ClientID: "forwarded"},
		{Name: "by id", ClientID: "refused-but-seen", AtProxy: true},
		{Name: "by id, unseen", ClientID: "refused", AtProxy: true},
	}
	assert.Equal(t, []string{"by id reached the broker: map[Fetch v13:1]"}, reachedBroker(st, attempts))
}

func TestGatewayLine(t *testing.T) {
	o := gatewayOutcome{Runs: 7, Passed: 6, Clusters: 13, CrossTenant: 8, CrossTenantHeld: 8, ACLAttempts: 4, ACLRefusals: 4, AuthAttempts: 14, AuthRefusals: 14, Mismatches: 1,
		Quota: quotaOutcome{Held: 257 << 10, Limit: quotaLimit, Other: 47.5 * (1 << 20)}}
	assert.Equal(t, "gateway: clients=6/7 virtual-clusters=13 cross-tenant=8/8 held leaks=0 acl-refusals=4/4 auth-refusals=14/14 mismatches=1 quota: held=257KiB/s limit=256KiB/s other=47.5MiB/s", o.Line())
}

// tally counts what held and what leaked, and makes a problem of each
// attempt that did not hold or leaked.
func TestTally(t *testing.T) {
	var o gatewayOutcome
	var out strings.Builder
	o.tally(&out,
		[]attempt{{Name: "refused", Held: true}, {Name: "read A's records", Leaked: true, Detail: "40 bytes of records"}},
		[]attempt{{Name: "denied", Held: true}},
		[]attempt{{Name: "cut", Held: true}, {Name: "let in", Detail: "authenticated with a wrong password"}})
	assert.Equal(t, gatewayOutcome{CrossTenant: 2, CrossTenantHeld: 1, Leaks: 1, ACLAttempts: 1, ACLRefusals: 1, AuthAttempts: 2, AuthRefusals: 1,
		Problems: []string{
			"cross-tenant: read A's records was not refused or kept in the attacker's cluster (40 bytes of records)",
			"cross-tenant: read A's records leaked (40 bytes of records)",
			"auth: let in was not refused or cut before authentication (authenticated with a wrong password)",
		}}, o)
	assert.Contains(t, out.String(), "  cross-tenant NOT held: read A's records: 40 bytes of records\n")
}

func TestAuthFailuresMetric(t *testing.T) {
	text := `# HELP kafkaproxy_authentication_failures_total ...
# TYPE kafkaproxy_authentication_failures_total counter
kafkaproxy_authentication_failures_total{mechanism=""} 4
kafkaproxy_authentication_failures_total{mechanism="PLAIN"} 3
kafkaproxy_connections_total{virtual_cluster="a"} 9
`
	got, err := parseAuthFailures(bufio.NewScanner(strings.NewReader(text)))
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"": 4, "PLAIN": 3}, got)
	_, err = parseAuthFailures(bufio.NewScanner(strings.NewReader(`kafkaproxy_authentication_failures_total{mechanism="PLAIN"} x`)))
	assert.Error(t, err)

	assert.Equal(t, map[string]int{"PLAIN": 2, "SCRAM-SHA-512": 1}, counted(map[string]int{"": 4, "PLAIN": 1}, map[string]int{"": 4, "PLAIN": 3, "SCRAM-SHA-512": 1}))

	var o gatewayOutcome
	var out strings.Builder
	o.checkAuthFailures(&out, map[string]int{"PLAIN": 1}, []attempt{{Mechanism: "PLAIN"}, {Mechanism: ""}})
	assert.Equal(t, []string{`gateway: kafkaproxy_authentication_failures_total moved by map[PLAIN:1], want map[:1 PLAIN:1]`}, o.Problems)
}
