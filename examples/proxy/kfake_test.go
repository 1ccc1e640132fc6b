package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkagen/kafkagen/examples/proxy/kafkamsg"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
)

const partitions = 6

// createTopic creates topic with partitions through cl.
func createTopic(t *testing.T, cl *kgo.Client, topic string) {
	req := kmsg.NewPtrCreateTopicsRequest()
	rt := kmsg.NewCreateTopicsRequestTopic()
	rt.Topic, rt.NumPartitions, rt.ReplicationFactor = topic, partitions, 1
	req.Topics = append(req.Topics, rt)
	resp, err := req.RequestWith(testContext(t), cl)
	require.NoError(t, err)
	require.Len(t, resp.Topics, 1)
	assert.Equal(t, topic, resp.Topics[0].Topic)
	require.Zero(t, resp.Topics[0].ErrorCode, "creating %s", topic)
}

// produce sends n records to topic and returns them.
func produce(t *testing.T, cl *kgo.Client, topic string, n int) []*kgo.Record {
	var rs []*kgo.Record
	for i := range n {
		rs = append(rs, &kgo.Record{Topic: topic, Key: []byte("k" + strconv.Itoa(i)), Value: []byte(fmt.Sprintf("%s-%d", topic, i))})
	}
	require.NoError(t, cl.ProduceSync(testContext(t), rs...).FirstErr())
	return rs
}

// consume polls cl until it has n records, and returns their values sorted.
func consume(t *testing.T, cl *kgo.Client, n int) []string {
	ctx := testContext(t)
	var got []string
	for len(got) < n {
		fs := cl.PollFetches(ctx)
		require.NoError(t, ctx.Err(), "got %d of %d records", len(got), n)
		for _, err := range fs.Errors() {
			require.NoError(t, err.Err, "fetching %s[%d]", err.Topic, err.Partition)
		}
		fs.EachRecord(func(r *kgo.Record) { got = append(got, string(r.Value)) })
	}
	slices.Sort(got)
	return got
}

func values(rs []*kgo.Record) []string {
	var out []string
	for _, r := range rs {
		out = append(out, string(r.Value))
	}
	slices.Sort(out)
	return out
}

// metadata asks seed for every topic.
func metadata(t *testing.T, cl *kgo.Client) *kmsg.MetadataResponse {
	resp, err := kmsg.NewPtrMetadataRequest().RequestWith(testContext(t), cl)
	require.NoError(t, err)
	return resp
}

func topicNames(resp *kmsg.MetadataResponse) []string {
	var out []string
	for _, t := range resp.Topics {
		out = append(out, *t.Topic)
	}
	slices.Sort(out)
	return out
}

// franz-go produces and consumes in a group through the proxy to a
// three-node kfake whose partitions are led by every node: the client sees
// the proxy's ports only, and with a prefix the cluster holds the records
// under the prefixed topic and group, while the client sees its own names
// and none of the other tenants'.
func TestThroughProxy(t *testing.T) {
	for _, prefix := range []string{"", "tenant1."} {
		t.Run("prefix="+prefix, func(t *testing.T) {
			c := startCluster(t, 3, kfake.SeedTopics(1, "tenant2.secret", "plain"))
			var args []string
			if prefix != "" {
				args = []string{"-topic-prefix", prefix}
			}
			bootstrap := startKafkaproxy(t, c, args...)
			cl := client(t, bootstrap, kgo.ConsumerGroup("readers"), kgo.ConsumeTopics("orders"), kgo.FetchMaxWait(200e6))
			createTopic(t, cl, "orders")
			leaders := map[int32]bool{}
			for p := range int32(partitions) {
				leaders[c.LeaderFor(prefix+"orders", p)] = true
			}
			require.Greater(t, len(leaders), 1, "partitions led by more than one node")

			sent := produce(t, cl, "orders", 60)
			assert.Equal(t, values(sent), consume(t, cl, 60))
			require.NoError(t, cl.CommitUncommittedOffsets(testContext(t)))

			md := metadata(t, cl)
			_, base, _ := net.SplitHostPort(bootstrap)
			port, _ := strconv.Atoi(base)
			for _, b := range md.Brokers {
				assert.Equal(t, "127.0.0.1", b.Host)
				assert.Equal(t, int32(port+1)+b.NodeID, b.Port, "node %d", b.NodeID)
			}
			direct := client(t, c.ListenAddrs()[0], kgo.ConsumeTopics(prefix+"orders"), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
			assert.Equal(t, values(sent), consume(t, direct, 60), "the cluster holds exactly the records sent")
			groups, err := kmsg.NewPtrListGroupsRequest().RequestWith(testContext(t), direct)
			require.NoError(t, err)
			var names []string
			for _, g := range groups.Groups {
				names = append(names, g.Group)
			}
			assert.Contains(t, names, prefix+"readers")
			if prefix == "" {
				assert.Equal(t, []string{"orders", "plain", "tenant2.secret"}, topicNames(md))
				return
			}
			assert.Equal(t, []string{"orders"}, topicNames(md), "other tenants' topics are hidden")
			assert.NotContains(t, topicNames(metadata(t, direct)), "orders")
		})
	}
}

// A transactional producer through a prefixing proxy: the cluster knows the
// prefixed transactional id, and read_committed consumers see the records.
func TestTransactionThroughProxy(t *testing.T) {
	c := startCluster(t, 3)
	bootstrap := startKafkaproxy(t, c, "-topic-prefix", "tenant1.")
	admin := client(t, bootstrap)
	createTopic(t, admin, "payments")
	txn := client(t, bootstrap, kgo.TransactionalID("tx-1"), kgo.DefaultProduceTopic("payments"))
	require.NoError(t, txn.BeginTransaction())
	sent := produce(t, txn, "payments", 20)
	require.NoError(t, txn.EndTransaction(testContext(t), kgo.TryCommit))

	reader := client(t, bootstrap, kgo.ConsumeTopics("payments"), kgo.FetchIsolationLevel(kgo.ReadCommitted()))
	assert.Equal(t, values(sent), consume(t, reader, 20))
	direct := client(t, c.ListenAddrs()[0])
	txns, err := kmsg.NewPtrListTransactionsRequest().RequestWith(testContext(t), direct)
	require.NoError(t, err)
	var ids []string
	for _, s := range txns.TransactionStates {
		ids = append(ids, s.TransactionalID)
	}
	assert.Equal(t, []string{"tenant1.tx-1"}, ids)
}

// The request log has one JSON line per exchange in Kafka's form; the
// allow-list answers a refused api with its error.
func TestLogAndAllowList(t *testing.T) {
	c := startCluster(t, 1)
	logFile := filepath.Join(t.TempDir(), "requests.jsonl")
	bootstrap := startKafkaproxy(t, c, "-log", logFile, "-allow-apis", "Metadata,CreateTopics,Produce,InitProducerId")
	cl := client(t, bootstrap, kgo.DefaultProduceTopic("logged"))
	createTopic(t, cl, "logged")
	produce(t, cl, "logged", 3)
	// franz-go sends no api the broker does not list; a client that does
	// gets the error.
	conn, err := net.Dial("tcp", bootstrap)
	require.NoError(t, err)
	raw := wire.NewClient(conn, wire.ClientConfig{ClientID: runtime.NewNullString("raw")})
	defer raw.Close()
	groups := kafkamsg.NewListGroupsResponse()
	require.NoError(t, raw.Do(testContext(t), kafkamsg.NewListGroupsRequest(), 4, groups))
	assert.Equal(t, int16(31), groups.ErrorCode, "CLUSTER_AUTHORIZATION_FAILED")

	data, err := os.ReadFile(logFile)
	require.NoError(t, err)
	var produced, refused int
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var l struct {
			RequestHeader struct {
				RequestAPIKey int16 `json:"requestApiKey"`
			} `json:"requestHeader"`
			Request  map[string]any `json:"request"`
			Response map[string]any `json:"response"`
		}
		require.NoError(t, json.Unmarshal([]byte(line), &l), line)
		switch l.RequestHeader.RequestAPIKey {
		case 0:
			produced++
			assert.Contains(t, line, `"recordsSizeInBytes":`)
		case 16:
			refused++
			assert.Equal(t, 31.0, l.Response["errorCode"])
		}
	}
	assert.Positive(t, produced)
	assert.Equal(t, 1, refused)
}
