package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kafkagen/kafkagen/examples/proxy/kafkamsg"
	"github.com/kafkagen/kafkagen/proxy"
	"github.com/kafkagen/kafkagen/proxy/quota"
)

// A Fetch answer over the quota carries the throttle in throttle_time_ms,
// unless the broker's own is longer; a principal without a quota is not
// throttled.
func TestQuotaFetchAnswer(t *testing.T) {
	q, err := quota.New(map[string]quota.Limits{"bob": {FetchBytesPerSecond: 1000}})
	require.NoError(t, err)
	f, err := quota.NewFilter(q, func(x *proxy.Exchange) string { return x.Header.ClientID.Value })
	require.NoError(t, err)
	fetch := func(principal string, brokerThrottle int32) int32 {
		resp := &kafkamsg.FetchResponse{}
		resp.Reset()
		resp.ThrottleTimeMs = brokerThrottle
		x := exchange(principal, kafkamsg.APIKeyFetch, 12, nil)
		x.Response, x.ResponseVersion, x.ResponseBytes, x.Started = resp, 12, 3000, time.Now()
		require.NoError(t, f.Response(x))
		return resp.ThrottleTimeMs
	}
	// A second's worth (1000 bytes) is free; 2000 bytes over wait 2s.
	assert.InDelta(t, 2000, fetch("bob", 0), 5)
	assert.Equal(t, int32(60000), fetch("bob", 60000), "the broker's longer throttle stays")
	assert.Zero(t, fetch("alice", 0))
}

// With a topic prefix, the ACLs name topics as the tenant sees them: the
// authorization filter runs before the prefixing.
func TestGatewayACLBeforePrefix(t *testing.T) {
	c := startCluster(t, 1, kfake.SeedTopics(1, "t1.orders", "t1.other"))
	g := startPolicyGateway(t, c, `topicPrefix: t1.
acls:
  - {principal: carol, resourceType: topic, name: orders, operations: [write], permission: allow}
`)
	carol := client(t, g.bootstrap, kgo.ClientID("carol"), kgo.RetryTimeout(2*time.Second))
	require.NoError(t, produceOne(t, carol, "orders"))
	assert.Error(t, produceOne(t, carol, "other"))
	direct := client(t, c.ListenAddrs()[0], kgo.ConsumeTopics("t1.orders"), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	assert.Equal(t, []string{"v"}, consume(t, direct, 1))
}
