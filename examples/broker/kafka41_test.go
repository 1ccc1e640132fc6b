package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// The versions Kafka 4.1 and 4.2 added to the APIs the broker serves,
// generated from the union of the corpus and 4.2.0-rc1: Produce 13,
// OffsetCommit 10 and OffsetFetch 10 name topics by id; DescribeGroups 6
// says a group is unknown.

func TestProduce13ByTopicID(t *testing.T) {
	tb := startBroker(t, Config{AutoCreate: true})
	cl := tb.client(t, "kafka41")
	id := createTopic(t, cl, "by-id", 1)
	req := produceReq("", 0, -1, v2Batch(t, records.CompressionNone, testRecord{value: []byte("v13"), timestamp: 7}))
	req.TopicData[0].TopicID = id
	resp := do(t, cl, req, 13, kafkamsg.NewProduceResponse())
	require.Len(t, resp.Responses, 1)
	assert.Equal(t, id, resp.Responses[0].TopicID, "answered by id")
	assert.Equal(t, codeNone, resp.Responses[0].PartitionResponses[0].ErrorCode)
	assert.Equal(t, int64(0), resp.Responses[0].PartitionResponses[0].BaseOffset)

	p := fetchOne(t, cl, 18, fetchReq(18, "", id, 0, 0))
	require.Equal(t, codeNone, p.ErrorCode)
	got := readRecords(t, p.Records)
	require.Len(t, got, 1)
	assert.Equal(t, []byte("v13"), got[0].Value)

	// An unknown id is refused per partition and creates nothing, even
	// with auto-creation on.
	req.TopicData[0].TopicID = runtime.UUID{9, 9, 9}
	resp = do(t, cl, req, 13, kafkamsg.NewProduceResponse())
	assert.Equal(t, kerrors.UnknownTopicID.Code, resp.Responses[0].PartitionResponses[0].ErrorCode)
	assert.Equal(t, int64(-1), resp.Responses[0].PartitionResponses[0].BaseOffset)
	all := kafkamsg.NewMetadataRequest()
	all.Topics = nil // every topic
	meta := do(t, cl, all, 12, kafkamsg.NewMetadataResponse())
	assert.Len(t, meta.Topics, 1, "no topic was created for the unknown id")
}

func TestOffsetCommitFetch10ByTopicID(t *testing.T) {
	tb := startBroker(t, Config{})
	cl := tb.client(t, "kafka41")
	id := createTopic(t, cl, "offsets", 2)
	req := commitReq("g", "", -1, "", 1, 99, "m")
	req.Topics[0].TopicID = id
	commit := do(t, cl, req, 10, kafkamsg.NewOffsetCommitResponse())
	require.Len(t, commit.Topics, 1)
	assert.Equal(t, id, commit.Topics[0].TopicID)
	assert.Equal(t, codeNone, commit.Topics[0].Partitions[0].ErrorCode)

	req.Topics[0].TopicID = runtime.UUID{1}
	commit = do(t, cl, req, 10, kafkamsg.NewOffsetCommitResponse())
	assert.Equal(t, kerrors.UnknownTopicID.Code, commit.Topics[0].Partitions[0].ErrorCode)

	fetch := kafkamsg.NewOffsetFetchRequest()
	g := defaults[kafkamsg.OffsetFetchRequestGroup]()
	g.GroupID = "g"
	g.Topics = []kafkamsg.OffsetFetchRequestTopics{{TopicID: id, PartitionIndexes: []int32{0, 1}}, {TopicID: runtime.UUID{2}, PartitionIndexes: []int32{0}}}
	fetch.Groups = []kafkamsg.OffsetFetchRequestGroup{g}
	resp := do(t, cl, fetch, 10, kafkamsg.NewOffsetFetchResponse())
	require.Len(t, resp.Groups, 1)
	topics := resp.Groups[0].Topics
	require.Len(t, topics, 2)
	byID := map[runtime.UUID]kafkamsg.OffsetFetchResponseTopics{topics[0].TopicID: topics[0], topics[1].TopicID: topics[1]}
	known := byID[id]
	require.Len(t, known.Partitions, 2, "one topic entry for both partitions")
	assert.Equal(t, int64(-1), known.Partitions[0].CommittedOffset)
	assert.Equal(t, int64(99), known.Partitions[1].CommittedOffset)
	assert.Equal(t, kerrors.UnknownTopicID.Code, byID[runtime.UUID{2}].Partitions[0].ErrorCode)

	// Every offset of the group (null topics), answered by id.
	g.Topics = nil
	fetch.Groups = []kafkamsg.OffsetFetchRequestGroup{g}
	resp = do(t, cl, fetch, 10, kafkamsg.NewOffsetFetchResponse())
	require.Len(t, resp.Groups[0].Topics, 1)
	assert.Equal(t, id, resp.Groups[0].Topics[0].TopicID)
}

func TestDescribeGroups6UnknownGroup(t *testing.T) {
	tb := startBroker(t, Config{})
	cl := tb.client(t, "kafka41")
	req := kafkamsg.NewDescribeGroupsRequest()
	req.Groups = []string{"nobody"}
	for _, c := range []struct {
		version int16
		code    int16
	}{{5, codeNone}, {6, kerrors.GroupIDNotFound.Code}} {
		resp := do(t, cl, req, c.version, kafkamsg.NewDescribeGroupsResponse())
		require.Len(t, resp.Groups, 1)
		assert.Equal(t, c.code, resp.Groups[0].ErrorCode, "v%d", c.version)
		assert.Equal(t, "Dead", resp.Groups[0].GroupState, "v%d", c.version)
	}
}
