package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/oauth"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"

	"github.com/kafkagen/kafkagen/wire"
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

// sasl.oauthBearer: a token signed by a key of keysFile, for the audience
// and issuer, logs in as its subject, in the subject's virtual cluster; an
// expired token and one for another audience or issuer are refused.
func TestConfigFileOAuthBearer(t *testing.T) {
	const issuer = "https://issuer.test"
	key := newJWTKey(t)
	c := startCluster(t, 1, kfake.SeedTopics(1, "c.orders"))
	g := startPolicyGateway(t, c, fmt.Sprintf(`sasl:
  mechanisms: [SCRAM-SHA-512, OAUTHBEARER]
  users: {alice: alice-secret}
  oauthBearer: {keysFile: %q, audience: kafka, issuer: %q}
virtualClusters:
  - {name: c, principals: [carol], topicPrefix: "c."}
superUsers: [carol]
`, key.file, issuer))
	claims := func(audience, issuer string, ttl time.Duration) jwt.MapClaims {
		return jwt.MapClaims{"sub": "carol", "aud": audience, "iss": issuer, "exp": time.Now().Add(ttl).Unix()}
	}
	token := func(c jwt.MapClaims) wire.SASLMechanism {
		s := key.sign(t, c)
		return wire.OAuthBearerAuth(func(context.Context) (string, map[string]string, error) { return s, nil, nil })
	}
	assert.NoError(t, login(t, g.bootstrap, token(claims("kafka", issuer, time.Hour))))
	assert.ErrorContains(t, login(t, g.bootstrap, token(claims("kafka", issuer, -time.Minute))), "token is expired")
	assert.ErrorContains(t, login(t, g.bootstrap, token(claims("elsewhere", issuer, time.Hour))), "token has invalid audience")
	assert.ErrorContains(t, login(t, g.bootstrap, token(claims("kafka", "https://other.test", time.Hour))), "token has invalid issuer")

	valid := key.sign(t, claims("kafka", issuer, time.Hour))
	carol := client(t, g.bootstrap, kgo.SASL(oauth.Auth{Token: valid}.AsMechanism()), kgo.RetryTimeout(2*time.Second))
	require.NoError(t, produceOne(t, carol, "orders"), "carol writes orders in her cluster")
	direct := client(t, c.ListenAddrs()[0], kgo.ConsumeTopics("c.orders"), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	assert.Equal(t, []string{"v"}, consume(t, direct, 1))
}

// SIGHUP replaces the SASL users: a changed password and a new user apply
// to the next authentication, a connection authenticated before keeps
// working, and a file whose user has no password changes nothing.
func TestConfigReloadUsers(t *testing.T) {
	c := startCluster(t, 1, kfake.SeedTopics(1, "a.orders", "d.orders"))
	g := startPolicyGateway(t, c, identityPolicy)
	plainAs := func(user, pass string) *kgo.Client {
		return client(t, g.bootstrap, kgo.SASL(plain.Auth{User: user, Pass: pass}.AsMechanism()), kgo.RetryTimeout(time.Second))
	}
	before := plainAs("alice", "alice-secret")
	require.NoError(t, produceOne(t, before, "orders"))

	rotated := strings.Replace(identityPolicy, "users: {alice: alice-secret, bob: bob-secret}",
		"users: {alice: alice-rotated, bob: bob-secret, dave: dave-secret}", 1)
	rotated = strings.Replace(rotated, "  - {name: b,", "  - {name: d, principals: [dave], topicPrefix: \"d.\"}\n  - {name: b,", 1)
	rotated += "  - {principal: dave, resourceType: topic, name: orders, operations: [write], permission: allow}\n"
	g.reload(t, rotated)
	assert.Contains(t, g.logs.String(), "reload: 3 users, 2 ACLs")
	assert.Contains(t, g.logs.String(), "reload: virtualClusters changed; that needs a restart")

	assert.NoError(t, produceOne(t, before, "orders"), "the connection authenticated before the reload stays")
	assert.ErrorContains(t, login(t, g.bootstrap, wire.PlainAuth("alice", "alice-secret")), "Invalid username or password", "the old password")
	assert.NoError(t, produceOne(t, plainAs("alice", "alice-rotated"), "orders"), "the new password")
	scramDave := scram.Auth{User: "dave", Pass: "dave-secret"}.AsSha256Mechanism()
	dave := client(t, g.bootstrap, kgo.SASL(scramDave), kgo.RetryTimeout(time.Second))
	// dave authenticates (PLAIN and SCRAM); his virtual cluster needs a restart, so he has
	// none yet and is cut off at his first request after authenticating.
	assert.NoError(t, login(t, g.bootstrap, wire.PlainAuth("dave", "dave-secret")))
	assert.Error(t, produceBriefly(t, dave, "orders"))
	assert.NotContains(t, g.logs.String(), "sasl: user")

	// A user without a password refuses the whole file.
	data, err := os.ReadFile(g.file)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(g.file, []byte(strings.Replace(string(data), "dave: dave-secret", `dave: ""`, 1)), 0o600))
	n := strings.Count(g.logs.String(), "the configuration in force stays")
	g.hup <- os.Interrupt
	require.Eventually(t, func() bool { return strings.Count(g.logs.String(), "the configuration in force stays") > n }, 10*time.Second, 10*time.Millisecond)
	assert.Contains(t, g.logs.String(), `sasl: gateway: user "dave": a name and a password are required`)
	assert.NoError(t, produceOne(t, plainAs("alice", "alice-rotated"), "orders"), "the users in force stay")
}

// produceBriefly is produceOne for a produce expected to fail, which the
// client would otherwise retry until the test's deadline.
func produceBriefly(t *testing.T, cl *kgo.Client, topic string) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(testContext(t), 5*time.Second)
	defer cancel()
	return cl.ProduceSync(ctx, &kgo.Record{Topic: topic, Value: []byte("v")}).FirstErr()
}

// login authenticates one connection at the proxy and closes it.
func login(t *testing.T, addr string, m wire.SASLMechanism) error {
	t.Helper()
	conn, err := wire.Dial(testContext(t), addr, wire.ConnConfig{SASL: m})
	if err == nil {
		conn.Close()
	}
	return err
}
