package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"
)

// identityPolicy is a configuration file with SASL at the proxy, a virtual
// cluster per user and an ACL in the tenant's names: the principal the ACL
// and the cluster see is the authenticated user, not the client id.
const identityPolicy = `sasl:
  mechanisms: [PLAIN, SCRAM-SHA-512]
  users: {alice: alice-secret, bob: bob-secret}
virtualClusters:
  - {name: a, principals: [alice], topicPrefix: "a."}
  - {name: b, principals: [bob], topicPrefix: "b."}
acls:
  - {principal: alice, resourceType: topic, patternType: literal, name: orders, operations: [write, create], permission: allow}
`

func TestConfigFileIdentityAndACLs(t *testing.T) {
	c := startCluster(t, 1, kfake.SeedTopics(1, "a.orders", "b.orders"))
	g := startPolicyGateway(t, c, identityPolicy)
	scramAlice := scram.Auth{User: "alice", Pass: "alice-secret"}.AsSha512Mechanism()
	alice := client(t, g.bootstrap, kgo.SASL(scramAlice), kgo.RetryTimeout(2*time.Second))
	// bob names himself alice in his client id: the stand-in identity is
	// off once sasl is configured.
	bob := client(t, g.bootstrap, kgo.ClientID("alice"), kgo.SASL(plain.Auth{User: "bob", Pass: "bob-secret"}.AsMechanism()), kgo.RetryTimeout(2*time.Second))

	require.NoError(t, produceOne(t, alice, "orders"), "alice writes orders in her cluster")
	assert.ErrorIs(t, produceOne(t, bob, "orders"), kerr.TopicAuthorizationFailed, "bob has no ACL, whatever his client id")

	wrong := client(t, g.bootstrap, kgo.SASL(plain.Auth{User: "alice", Pass: "nope"}.AsMechanism()), kgo.RetryTimeout(time.Second))
	assert.Error(t, produceOne(t, wrong, "orders"))

	// The broker holds alice's record under her prefix, nothing else.
	direct := client(t, c.ListenAddrs()[0], kgo.ConsumeTopics("a.orders", "b.orders"), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	assert.Equal(t, []string{"v"}, consume(t, direct, 1))
	assert.GreaterOrEqual(t, g.scrape(t, `kafkaproxy_authentication_failures_total{`), 1.0)
	assert.GreaterOrEqual(t, g.scrape(t, `kafkaproxy_authorization_refusals_total{`), 1.0)
}
