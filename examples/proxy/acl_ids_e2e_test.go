package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/plain"

	"github.com/kafkagen/kafkagen/examples/proxy/kafkamsg"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
)

// carolUsesA: carol writes and reads her topics "a.", reads group
// "readers", nothing else (no DELETE); bob has no ACL.
const carolUsesA = `acls:
  - {principal: carol, resourceType: topic, patternType: prefixed, name: "a.", operations: [write, read], permission: allow}
  - {principal: carol, resourceType: group, name: readers, operations: [read], permission: allow}
`

// principalConn is a raw connection to addr whose client id, so principal
// under the stand-in identity, is principal.
func principalConn(t *testing.T, addr, principal string) *wire.Client {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	c := wire.NewClient(conn, wire.ClientConfig{ClientID: runtime.NewNullString(principal)})
	t.Cleanup(func() { c.Close() })
	return c
}

// fetchByIDCase is a Fetch v13 of every partition of a topic by id, by a
// principal, and what it gets: the first error code, and whether records
// came.
type fetchByIDCase struct {
	name      string
	principal string
	id        runtime.UUID
	wantCode  int16
	records   bool
}

// runFetchByID runs the cases, each on a connection of its principal that
// do sends the request on.
func runFetchByID(t *testing.T, cases []fetchByIDCase, do func(principal string, req, resp runtime.APIMessage) error) {
	for _, tt := range cases {
		t.Run("Fetch v13 "+tt.name, func(t *testing.T) {
			resp := kafkamsg.NewFetchResponse()
			require.NoError(t, do(tt.principal, fetchByID(tt.id), resp))
			require.Len(t, resp.Responses, 1)
			assert.Equal(t, tt.id, resp.Responses[0].TopicID, "answered by id")
			code, n := fetched(resp)
			assert.Equal(t, tt.wantCode, code)
			assert.Equal(t, tt.records, n > 0, "records")
		})
	}
}

// loggedVersions lists the versions of api key in a request log.
func loggedVersions(t *testing.T, logFile string, key int16) []int16 {
	data, err := os.ReadFile(logFile)
	require.NoError(t, err)
	var out []int16
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var l struct {
			RequestHeader struct {
				RequestAPIKey     int16 `json:"requestApiKey"`
				RequestAPIVersion int16 `json:"requestApiVersion"`
			} `json:"requestHeader"`
		}
		require.NoError(t, json.Unmarshal([]byte(line), &l), line)
		if l.RequestHeader.RequestAPIKey == key {
			out = append(out, l.RequestHeader.RequestAPIVersion)
		}
	}
	return out
}

// Authorization of the versions naming topics by id, through kafkaproxy
// -config in front of kfake: franz-go, now offered Produce 13, Fetch 13+,
// OffsetCommit and OffsetFetch 10, produces, consumes in a group and
// commits by id as carol, and reads the offsets back (franz-go resolves
// the ids of that answer with a Metadata by id); by id, what she may not read
// and what bob may not is refused TOPIC_AUTHORIZATION_FAILED, an id no
// answer showed gets UNKNOWN_TOPIC_ID, and DeleteTopics by id without
// DELETE is refused.
func TestGatewayACLTopicIDs(t *testing.T) {
	c := startCluster(t, 1, kfake.SeedTopics(partitions, "a.orders", "b.orders"))
	logFile := filepath.Join(t.TempDir(), "requests.jsonl")
	g := startPolicyGateway(t, c, fmt.Sprintf("log: %s\n%s", logFile, carolUsesA))

	carol := client(t, g.bootstrap, kgo.ClientID("carol"), kgo.DefaultProduceTopic("a.orders"))
	rs := produce(t, carol, "a.orders", 3)
	reader := client(t, g.bootstrap, kgo.ClientID("carol"), kgo.ConsumerGroup("readers"), kgo.ConsumeTopics("a.orders"),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.FetchMaxWait(200*time.Millisecond))
	assert.Equal(t, values(rs), consume(t, reader, 3))
	require.NoError(t, reader.CommitUncommittedOffsets(testContext(t)))
	offsets, err := kadmFetchOffsets(t, client(t, g.bootstrap, kgo.ClientID("carol")), "readers")
	require.NoError(t, err)
	assert.Equal(t, int64(3), offsets, "the offsets committed, summed over the partitions")
	for _, api := range []struct {
		key   int16
		from  int16
		label string
	}{
		{kafkamsg.APIKeyProduce, 13, "Produce"}, {kafkamsg.APIKeyFetch, 13, "Fetch"},
		{kafkamsg.APIKeyOffsetCommit, 10, "OffsetCommit"}, {kafkamsg.APIKeyOffsetFetch, 10, "OffsetFetch"},
	} {
		versions := loggedVersions(t, logFile, api.key)
		require.NotEmpty(t, versions, api.label)
		assert.GreaterOrEqual(t, versions[0], api.from, "franz-go sends %s by id", api.label)
	}

	// The ids, from the broker; the proxy learns them from an answer it
	// relays (here carol's Metadata of every topic, before its hiding).
	idA, idB := topicID(t, c.ListenAddrs()[0], "a.orders"), topicID(t, c.ListenAddrs()[0], "b.orders")
	assert.Equal(t, []string{"a.orders"}, topicNames(metadata(t, carol)), "b.orders hidden from carol")

	runFetchByID(t, []fetchByIDCase{
		{"carol reads hers", "carol", idA, 0, true},
		{"carol may not read b.orders", "carol", idB, 29, false},
		{"bob may not read a.orders", "bob", idA, 29, false},
		{"no answer showed the id", "carol", runtime.UUID{0xde, 0xad}, 100, false},
	}, func(principal string, req, resp runtime.APIMessage) error {
		return principalConn(t, g.bootstrap, principal).Do(testContext(t), req, 13, resp)
	})

	t.Run("DeleteTopics v6 by id without DELETE", func(t *testing.T) {
		req := kafkamsg.NewDeleteTopicsRequest()
		req.Topics, req.TimeoutMs = []kafkamsg.DeleteTopicsRequestDeleteTopicState{{TopicID: idA}}, 5000
		resp := kafkamsg.NewDeleteTopicsResponse()
		require.NoError(t, principalConn(t, g.bootstrap, "carol").Do(testContext(t), req, 6, resp))
		require.Len(t, resp.Responses, 1)
		assert.Equal(t, idA, resp.Responses[0].TopicID)
		assert.Equal(t, int16(29), resp.Responses[0].ErrorCode)
		assert.Equal(t, idA, topicID(t, c.ListenAddrs()[0], "a.orders"), "the topic is still there")
	})
}

// Two virtual clusters share the proxy's learned ids, each under the name
// its tenant sees ("orders" for both): alice reads hers by id, and bob,
// allowed his own "orders", naming alice's id gets UNKNOWN_TOPIC_ID from
// his tenant's id isolation and no record: the name an id resolves to
// never lets one tenant reach another's topic.
func TestGatewayACLTopicIDsAcrossTenants(t *testing.T) {
	c := startCluster(t, 1, kfake.SeedTopics(partitions, "a.orders", "b.orders"))
	g := startPolicyGateway(t, c, `sasl:
  mechanisms: [PLAIN]
  users: {alice: alice-secret, bob: bob-secret}
virtualClusters:
  - {name: a, principals: [alice], topicPrefix: "a."}
  - {name: b, principals: [bob], topicPrefix: "b."}
acls:
  - {principal: alice, resourceType: topic, name: orders, operations: [write, read], permission: allow}
  - {principal: bob, resourceType: topic, name: orders, operations: [write, read], permission: allow}
`)
	// user is a connection authenticated as user (password user-secret).
	user := func(user string) *wire.Conn {
		conn, err := wire.Dial(testContext(t), g.bootstrap, wire.ConnConfig{SASL: wire.PlainAuth(user, user+"-secret")})
		require.NoError(t, err)
		t.Cleanup(func() { conn.Close() })
		return conn
	}
	alice := client(t, g.bootstrap, kgo.SASL(plain.Auth{User: "alice", Pass: "alice-secret"}.AsMechanism()), kgo.DefaultProduceTopic("orders"))
	produce(t, alice, "orders", 2)
	idA, idB := topicID(t, c.ListenAddrs()[0], "a.orders"), topicID(t, c.ListenAddrs()[0], "b.orders")
	// Each tenant's Metadata, through the proxy, shows its own id.
	for _, who := range []struct {
		principal string
		id        runtime.UUID
	}{{"alice", idA}, {"bob", idB}} {
		req := kafkamsg.NewMetadataRequest()
		req.Topics = []kafkamsg.MetadataRequestTopic{{Name: runtime.NewNullString("orders")}}
		resp := kafkamsg.NewMetadataResponse()
		require.NoError(t, user(who.principal).DoAt(testContext(t), req, 12, resp))
		require.Len(t, resp.Topics, 1)
		require.Equal(t, who.id, resp.Topics[0].TopicID, "%s's orders", who.principal)
	}

	runFetchByID(t, []fetchByIDCase{
		{"alice reads hers", "alice", idA, 0, true},
		{"bob, by alice's id", "bob", idA, 100, false},
		{"bob reads his, empty", "bob", idB, 0, false},
	}, func(principal string, req, resp runtime.APIMessage) error {
		return user(principal).DoAt(testContext(t), req, 13, resp)
	})
}
