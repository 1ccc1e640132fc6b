package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/wire/frames"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// TestReleaseTable checks the generated tables against the release specs'
// own comments ("Versions 0-2 were removed in Apache Kafka 4.0", 4.1's
// JoinGroup 0-1 put back) and the served ranges against the package.
func TestReleaseTable(t *testing.T) {
	rel := releaseVersions["4.0.0"]
	require.NotNil(t, rel, "4.0.0's table: go generate with KAFKA_SPEC_RELEASES_DIR")
	for _, tc := range []struct {
		release  string
		key      int16
		min, max int16
	}{
		{"4.0.0", kafkamsg.APIKeyProduce, 3, 12},
		{"4.0.0", kafkamsg.APIKeyFetch, 4, 17},
		{"4.0.0", kafkamsg.APIKeyListOffsets, 1, 10},
		{"4.0.0", kafkamsg.APIKeyOffsetCommit, 2, 9},
		{"4.0.0", kafkamsg.APIKeyOffsetFetch, 1, 9},
		{"4.0.0", kafkamsg.APIKeyJoinGroup, 2, 9},
		{"4.0.0", kafkamsg.APIKeyCreateTopics, 2, 7},
		{"4.0.0", kafkamsg.APIKeyDeleteTopics, 1, 6},
		{"4.0.0", kafkamsg.APIKeyMetadata, 0, 13},
		{"4.1.1", kafkamsg.APIKeyJoinGroup, 0, 9},
		{"4.1.1", kafkamsg.APIKeyProduce, 3, 13},
	} {
		got, ok := releaseVersions[tc.release][tc.key]
		require.True(t, ok, "%s %s", tc.release, apiName(tc.key))
		assert.Equal(t, versionRange{tc.min, tc.max}, got, "%s %s", tc.release, apiName(tc.key))
	}
	_, ok := rel[4]
	assert.False(t, ok, "LeaderAndIsr is \"none\" in 4.0.0")

	table, err := newVersionTable("4.0.0")
	require.NoError(t, err)
	assert.Equal(t, versionRange{3, min(12, supported[kafkamsg.APIKeyProduce].max)}, table.served[kafkamsg.APIKeyProduce],
		"served: the release's range within what the package implements")
	adv, ok := table.advertised(kafkamsg.APIKeyProduce)
	require.True(t, ok)
	assert.Equal(t, int16(0), adv.min, "KAFKA-18659: Produce advertised from v0")
	_, err = newVersionTable("3.0.0")
	assert.ErrorContains(t, err, `-kafka-release "3.0.0"`)
}

// TestKafka4RefusesOldVersions: a broker with -kafka-release 4.0.0 advertises
// Produce from v0, closes the connection unanswered on Produce v0-2 and
// Fetch v0-3 as on any removed version, answers INVALID_RECORD to a message
// set in Produce v3, and never answers null records.
func TestKafka4RefusesOldVersions(t *testing.T) {
	tb := startBroker(t, Config{KafkaRelease: "4.0.0", AutoCreate: true})
	cl := tb.client(t, "new")
	createTopic(t, cl, "t", 1)

	av := do(t, cl, kafkamsg.NewAPIVersionsRequest(), 3, kafkamsg.NewAPIVersionsResponse())
	got := map[int16][2]int16{}
	for _, k := range av.APIKeys {
		got[k.APIKey] = [2]int16{k.MinVersion, k.MaxVersion}
	}
	assert.Equal(t, int16(0), got[kafkamsg.APIKeyProduce][0])
	assert.Equal(t, [2]int16{4, 17}, got[kafkamsg.APIKeyFetch])
	assert.Equal(t, [2]int16{2, 9}, got[kafkamsg.APIKeyJoinGroup])

	produce := func(version int16, blob []byte) []byte {
		req := kafkamsg.NewProduceRequest()
		req.Acks, req.TimeoutMs = -1, 1000
		req.TopicData = []kafkamsg.ProduceRequestTopicProduceData{{Name: "t",
			PartitionData: []kafkamsg.ProduceRequestPartitionProduceData{{Index: 0, Records: blob}}}}
		h := frames.RequestHeader{APIKey: kafkamsg.APIKeyProduce, APIVersion: version, CorrelationID: 7}
		frame, err := frames.AppendRequest(nil, &h, req)
		require.NoError(t, err)
		return frame[4:]
	}
	for v := int16(0); v <= 2; v++ {
		resp, err := rawRequest(t, tb.addr, produce(v, legacyMessage(t, 1, "old")))
		assert.Error(t, err, "Produce v%d must close the connection unanswered, got %x", v, resp)
	}
	for v := int16(0); v <= 3; v++ {
		resp, err := rawRequest(t, tb.addr, header(t, kafkamsg.APIKeyFetch, v, "old", false))
		assert.Error(t, err, "Fetch v%d must close the connection unanswered, got %x", v, resp)
	}

	for _, magic := range []int8{0, 1} {
		req := kafkamsg.NewProduceRequest()
		req.Acks, req.TimeoutMs = -1, 1000
		req.TopicData = []kafkamsg.ProduceRequestTopicProduceData{{Name: "t",
			PartitionData: []kafkamsg.ProduceRequestPartitionProduceData{{Index: 0, Records: legacyMessage(t, magic, "old")}}}}
		resp := do(t, cl, req, 3, kafkamsg.NewProduceResponse())
		assert.Equal(t, kerrors.InvalidRecord.Code, resp.Responses[0].PartitionResponses[0].ErrorCode, "magic %d in Produce v3", magic)
	}

	fetch := kafkamsg.NewFetchRequest()
	fetch.MaxBytes = 1 << 20
	fetch.Topics = []kafkamsg.FetchRequestFetchTopic{{Topic: "absent", Partitions: []kafkamsg.FetchRequestFetchPartition{{Partition: 0, PartitionMaxBytes: 1 << 20, CurrentLeaderEpoch: -1, LastFetchedEpoch: -1, LogStartOffset: -1}}}}
	fr := do(t, cl, fetch, 4, kafkamsg.NewFetchResponse())
	require.Len(t, fr.Responses, 1)
	p := fr.Responses[0].Partitions[0]
	assert.NotEqual(t, codeNone, p.ErrorCode)
	assert.NotNil(t, p.Records, "Kafka 4 answers empty records, never null")
}
