package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kafkagen/kafkagen/examples/proxy/kafkamsg"
	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
)

// rawConn is kafkagen's own client to addr, which sends each request at
// the version asked, closed when the test ends.
func rawConn(t *testing.T, addr string) *wire.Client {
	t.Helper()
	return principalConn(t, addr, "attacker")
}

// topicID asks addr (a proxy or the broker) for the id of topic, at
// Metadata v12.
func topicID(t *testing.T, addr, topic string) runtime.UUID {
	req := kafkamsg.NewMetadataRequest()
	req.Topics = []kafkamsg.MetadataRequestTopic{{Name: runtime.NewNullString(topic)}}
	resp := kafkamsg.NewMetadataResponse()
	require.NoError(t, rawConn(t, addr).Do(testContext(t), req, 12, resp))
	require.Len(t, resp.Topics, 1)
	require.Zero(t, resp.Topics[0].ErrorCode, "metadata of %s at %s", topic, addr)
	require.NotZero(t, resp.Topics[0].TopicID)
	return resp.Topics[0].TopicID
}

// fetchByID fetches every partition of the topic with id from the start.
func fetchByID(id runtime.UUID) *kafkamsg.FetchRequest {
	req := kafkamsg.NewFetchRequest()
	req.MaxBytes, req.MinBytes, req.MaxWaitMs = 1<<20, 1, 100
	ft := kafkamsg.FetchRequestFetchTopic{TopicID: id}
	for p := range int32(partitions) {
		ft.Partitions = append(ft.Partitions, kafkamsg.FetchRequestFetchPartition{Partition: p, PartitionMaxBytes: 1 << 20, CurrentLeaderEpoch: -1, LastFetchedEpoch: -1})
	}
	req.Topics = []kafkamsg.FetchRequestFetchTopic{ft}
	return req
}

func fetchByName(name string) *kafkamsg.FetchRequest {
	req := fetchByID(runtime.UUID{})
	req.Topics[0].Topic = name
	return req
}

// fetched is what a Fetch answer gave: the first error code of its
// partitions and the bytes of records.
func fetched(resp *kafkamsg.FetchResponse) (code int16, records int) {
	for _, t := range resp.Responses {
		for _, p := range t.Partitions {
			if code == 0 {
				code = p.ErrorCode
			}
			records += len(p.Records)
		}
	}
	return code, records
}

// The cross-tenant attempts, against kfake through two prefixing
// proxies (one per tenant, as the issue ran them): tenant B knows tenant
// A's topic name and id and tries to read and delete it, by name and by id,
// at the versions that name topics each way, and writes to it with Produce
// v13 (Kafka 4.1) by id. Every attempt is refused
// (UNKNOWN_TOPIC_ID for ids, an unknown topic for names, which the prefix
// makes "b.a.secret"), nothing is read, and the topic survives, checked on
// the broker. Tenant A itself reads its topic by id, so the ids it was
// shown are served.
func TestCrossTenantAttempts(t *testing.T) {
	c := startCluster(t, 1)
	proxyA := startKafkaproxy(t, c, "-topic-prefix", "a.")
	proxyB := startKafkaproxy(t, c, "-topic-prefix", "b.")
	broker := c.ListenAddrs()[0]

	owner := client(t, proxyA, kgo.DefaultProduceTopic("secret"))
	createTopic(t, owner, "secret")
	produce(t, owner, "secret", 5)
	id := topicID(t, proxyA, "secret")
	require.Equal(t, id, topicID(t, broker, "a.secret"), "the proxy shows the broker's id")

	for _, v := range []int16{13, 15, 16, 18} {
		resp := kafkamsg.NewFetchResponse()
		require.NoError(t, rawConn(t, proxyA).Do(testContext(t), fetchByID(id), v, resp))
		code, n := fetched(resp)
		require.Zero(t, code, "tenant A fetches its own topic by id at v%d", v)
		require.Positive(t, n, "tenant A reads its records by id at v%d", v)
	}

	before := endOffsets(t, broker, "a.secret")
	const unknownTopicID, unknownTopicOrPartition = 100, 3
	attempts := []struct {
		name string
		run  func(t *testing.T, c *wire.Client) (code int16, records int)
	}{
		{"Fetch v12 by name", func(t *testing.T, c *wire.Client) (int16, int) {
			resp := kafkamsg.NewFetchResponse()
			require.NoError(t, c.Do(testContext(t), fetchByName("a.secret"), 12, resp))
			return fetched(resp)
		}},
		{"Metadata v12 by name", func(t *testing.T, c *wire.Client) (int16, int) {
			req := kafkamsg.NewMetadataRequest()
			req.Topics = []kafkamsg.MetadataRequestTopic{{Name: runtime.NewNullString("a.secret")}}
			req.AllowAutoTopicCreation = false
			resp := kafkamsg.NewMetadataResponse()
			require.NoError(t, c.Do(testContext(t), req, 12, resp))
			require.Len(t, resp.Topics, 1)
			assert.NotEqual(t, id, resp.Topics[0].TopicID)
			return resp.Topics[0].ErrorCode, 0
		}},
		{"DeleteTopics v5 by name", func(t *testing.T, c *wire.Client) (int16, int) {
			req := kafkamsg.NewDeleteTopicsRequest()
			req.TopicNames, req.TimeoutMs = []string{"a.secret"}, 5000
			resp := kafkamsg.NewDeleteTopicsResponse()
			require.NoError(t, c.Do(testContext(t), req, 5, resp))
			require.Len(t, resp.Responses, 1)
			return resp.Responses[0].ErrorCode, 0
		}},
		{"ListOffsets v7 by name", func(t *testing.T, c *wire.Client) (int16, int) {
			req := kafkamsg.NewListOffsetsRequest()
			req.Topics = []kafkamsg.ListOffsetsRequestListOffsetsTopic{{Name: "a.secret",
				Partitions: []kafkamsg.ListOffsetsRequestListOffsetsPartition{{Timestamp: -1, CurrentLeaderEpoch: -1, MaxNumOffsets: 1}}}}
			resp := kafkamsg.NewListOffsetsResponse()
			require.NoError(t, c.Do(testContext(t), req, 7, resp))
			return resp.Topics[0].Partitions[0].ErrorCode, int(resp.Topics[0].Partitions[0].Offset)
		}},
		{"Fetch v13 by id", fetchAttempt(id, 13)},
		{"Fetch v15 by id", fetchAttempt(id, 15)},
		{"Fetch v16 by id", fetchAttempt(id, 16)},
		{"Fetch v18 by id", fetchAttempt(id, 18)},
		{"Produce v13 by id", func(t *testing.T, c *wire.Client) (int16, int) {
			b := records.NewBatchBuilder()
			b.Append(time.Now().UnixMilli(), []byte("k"), []byte("written by tenant B"))
			batch, err := b.AppendTo(nil)
			require.NoError(t, err)
			req := kafkamsg.NewProduceRequest()
			req.Acks, req.TimeoutMs = -1, 5000
			req.TopicData = []kafkamsg.ProduceRequestTopicProduceData{{TopicID: id,
				PartitionData: []kafkamsg.ProduceRequestPartitionProduceData{{Index: 0, Records: batch}}}}
			resp := kafkamsg.NewProduceResponse()
			require.NoError(t, c.Do(testContext(t), req, 13, resp))
			require.Len(t, resp.Responses, 1)
			assert.Equal(t, id, resp.Responses[0].TopicID)
			return resp.Responses[0].PartitionResponses[0].ErrorCode, 0
		}},
		{"OffsetFetch v10 by id", func(t *testing.T, c *wire.Client) (int16, int) {
			req := kafkamsg.NewOffsetFetchRequest()
			req.Groups = []kafkamsg.OffsetFetchRequestGroup{{GroupID: "g", MemberEpoch: -1,
				Topics: []kafkamsg.OffsetFetchRequestTopics{{TopicID: id, PartitionIndexes: []int32{0}}}}}
			resp := kafkamsg.NewOffsetFetchResponse()
			require.NoError(t, c.Do(testContext(t), req, 10, resp))
			p := resp.Groups[0].Topics[0].Partitions[0]
			return p.ErrorCode, int(p.CommittedOffset)
		}},
		{"DeleteTopics v6 by id", func(t *testing.T, c *wire.Client) (int16, int) {
			req := kafkamsg.NewDeleteTopicsRequest()
			req.Topics, req.TimeoutMs = []kafkamsg.DeleteTopicsRequestDeleteTopicState{{TopicID: id}}, 5000
			resp := kafkamsg.NewDeleteTopicsResponse()
			require.NoError(t, c.Do(testContext(t), req, 6, resp))
			require.Len(t, resp.Responses, 1)
			assert.Equal(t, id, resp.Responses[0].TopicID)
			assert.False(t, resp.Responses[0].Name.Valid, "no name for an unknown id")
			return resp.Responses[0].ErrorCode, 0
		}},
		{"Metadata v12 by id", func(t *testing.T, c *wire.Client) (int16, int) {
			req := kafkamsg.NewMetadataRequest()
			req.Topics = []kafkamsg.MetadataRequestTopic{{TopicID: id, Name: runtime.NullString{}}}
			resp := kafkamsg.NewMetadataResponse()
			require.NoError(t, c.Do(testContext(t), req, 12, resp))
			require.Len(t, resp.Topics, 1)
			assert.False(t, resp.Topics[0].Name.Valid, "no name for an unknown id")
			return resp.Topics[0].ErrorCode, len(resp.Topics[0].Partitions)
		}},
	}
	for _, a := range attempts {
		t.Run(a.name, func(t *testing.T) {
			code, n := a.run(t, rawConn(t, proxyB))
			assert.Contains(t, []int16{unknownTopicID, unknownTopicOrPartition}, code, "refused with an unknown topic or id")
			assert.LessOrEqual(t, n, 0, "nothing of tenant A's is read")
		})
	}
	assert.Equal(t, id, topicID(t, broker, "a.secret"), "tenant A's topic is still on the broker")
	assert.Equal(t, before, endOffsets(t, broker, "a.secret"), "and nothing was written to it")
	direct := client(t, broker, kgo.ConsumeTopics("a.secret"), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	assert.Len(t, consume(t, direct, 5), 5, "with its five records")
}

// fetchAttempt fetches tenant A's topic by id at version.
func fetchAttempt(id runtime.UUID, version int16) func(t *testing.T, c *wire.Client) (int16, int) {
	return func(t *testing.T, c *wire.Client) (int16, int) {
		resp := kafkamsg.NewFetchResponse()
		require.NoError(t, c.Do(testContext(t), fetchByID(id), version, resp))
		code, n := fetched(resp)
		require.Len(t, resp.Responses, 1)
		assert.Equal(t, id, resp.Responses[0].TopicID, "the answer names the id asked for")
		return code, n
	}
}

// endOffsets are the end offsets of the partitions of topic, asked of addr
// with ListOffsets v7.
func endOffsets(t *testing.T, addr, topic string) []int64 {
	req := kafkamsg.NewListOffsetsRequest()
	lt := kafkamsg.ListOffsetsRequestListOffsetsTopic{Name: topic}
	for p := range int32(partitions) {
		lt.Partitions = append(lt.Partitions, kafkamsg.ListOffsetsRequestListOffsetsPartition{PartitionIndex: p, Timestamp: -1, CurrentLeaderEpoch: -1, MaxNumOffsets: 1})
	}
	req.Topics = []kafkamsg.ListOffsetsRequestListOffsetsTopic{lt}
	resp := kafkamsg.NewListOffsetsResponse()
	require.NoError(t, rawConn(t, addr).Do(testContext(t), req, 7, resp))
	var out []int64
	for _, p := range resp.Topics[0].Partitions {
		require.Zero(t, p.ErrorCode)
		out = append(out, p.Offset)
	}
	return out
}
