package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/examples/proxy/kafkamsg"
	"github.com/kafkagen/kafkagen/proxy"
	"github.com/kafkagen/kafkagen/proxy/bridge"
	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// kafka400 are the ranges Kafka 4.0.0's broker advertises (its specs, with
// Produce from v0: KAFKA-18659), as far as these tests need them.
var kafka400 = []wire.VersionRange{
	{APIKey: kafkamsg.APIKeyProduce, MinVersion: 0, MaxVersion: 12},
	{APIKey: kafkamsg.APIKeyFetch, MinVersion: 4, MaxVersion: 17},
	{APIKey: kafkamsg.APIKeyListOffsets, MinVersion: 1, MaxVersion: 10},
	{APIKey: kafkamsg.APIKeyMetadata, MinVersion: 0, MaxVersion: 13},
	{APIKey: kafkamsg.APIKeyOffsetCommit, MinVersion: 2, MaxVersion: 9},
	{APIKey: kafkamsg.APIKeyOffsetFetch, MinVersion: 1, MaxVersion: 9},
	{APIKey: kafkamsg.APIKeyJoinGroup, MinVersion: 2, MaxVersion: 9},
	{APIKey: kafkamsg.APIKeyAPIVersions, MinVersion: 0, MaxVersion: 4},
	{APIKey: kafkamsg.APIKeyCreateTopics, MinVersion: 2, MaxVersion: 7},
	{APIKey: kafkamsg.APIKeyDeleteTopics, MinVersion: 1, MaxVersion: 6},
	{APIKey: kafkamsg.APIKeyOffsetForLeaderEpoch, MinVersion: 2, MaxVersion: 4},
	{APIKey: kafkamsg.APIKeyDescribeConfigs, MinVersion: 1, MaxVersion: 4},
	{APIKey: kafkamsg.APIKeyDescribeACLs, MinVersion: 1, MaxVersion: 3},
	{APIKey: kafkamsg.APIKeyCreateACLs, MinVersion: 1, MaxVersion: 3},
	{APIKey: kafkamsg.APIKeyDeleteACLs, MinVersion: 1, MaxVersion: 3},
	{APIKey: kafkamsg.APIKeyAlterReplicaLogDirs, MinVersion: 1, MaxVersion: 2},
	{APIKey: kafkamsg.APIKeyDescribeLogDirs, MinVersion: 1, MaxVersion: 4},
	{APIKey: kafkamsg.APIKeyCreateDelegationToken, MinVersion: 1, MaxVersion: 3},
	{APIKey: kafkamsg.APIKeyRenewDelegationToken, MinVersion: 1, MaxVersion: 2},
	{APIKey: kafkamsg.APIKeyExpireDelegationToken, MinVersion: 1, MaxVersion: 2},
	{APIKey: kafkamsg.APIKeyDescribeDelegationToken, MinVersion: 1, MaxVersion: 3},
}

func newBridgeConn(t *testing.T) (*bridge.Bridge, proxy.BridgeConn) {
	t.Helper()
	b := bridge.New(kafkamsg.NewRequest, kafkamsg.NewResponse)
	return b, b.Conn(kafka400)
}

func TestBridgeTarget(t *testing.T) {
	b, c := newBridgeConn(t)
	withoutACLs := b.Conn([]wire.VersionRange{{APIKey: kafkamsg.APIKeyProduce, MinVersion: 3, MaxVersion: 12}})
	_, ok := withoutACLs.Target(kafkamsg.APIKeyDescribeACLs, 0)
	assert.False(t, ok, "an api the broker does not list is not translated")
	for _, tc := range []struct {
		name    string
		key, v  int16
		want    int16
		forward bool
	}{
		{"Produce v0: advertised, refused, so v3 (KAFKA-18659)", kafkamsg.APIKeyProduce, 0, 3, true},
		{"Produce v2", kafkamsg.APIKeyProduce, 2, 3, true},
		{"Produce v3 is served", kafkamsg.APIKeyProduce, 3, 0, false},
		{"Fetch v0", kafkamsg.APIKeyFetch, 0, 4, true},
		{"Fetch v3", kafkamsg.APIKeyFetch, 3, 4, true},
		{"Fetch v4 is served", kafkamsg.APIKeyFetch, 4, 0, false},
		{"ListOffsets v0", kafkamsg.APIKeyListOffsets, 0, 1, true},
		{"OffsetCommit v1", kafkamsg.APIKeyOffsetCommit, 1, 2, true},
		{"JoinGroup v0", kafkamsg.APIKeyJoinGroup, 0, 2, true},
		{"CreateTopics v0", kafkamsg.APIKeyCreateTopics, 0, 2, true},
		{"Metadata v0 is served", kafkamsg.APIKeyMetadata, 0, 0, false},
		{"ApiVersions is never translated", kafkamsg.APIKeyAPIVersions, 0, 0, false},
		{"DescribeAcls v0 (KIP-219 throttling)", kafkamsg.APIKeyDescribeACLs, 0, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			to, ok := c.Target(tc.key, tc.v)
			assert.Equal(t, tc.forward, ok)
			assert.Equal(t, tc.want, to)
		})
	}
}

// roundTrip encodes m at version and decodes it into a fresh message, as
// the proxy's frames do: what a peer at that version reads.
func roundTrip[M runtime.APIMessage](t *testing.T, m M, version int16, fresh M) M {
	t.Helper()
	b, err := m.AppendTo(nil, version)
	require.NoError(t, err, "%s v%d", m.SpecName(), version)
	_, err = fresh.Decode(b, version)
	require.NoError(t, err)
	return fresh
}

func legacySet(t *testing.T, magic int8, values ...string) []byte {
	t.Helper()
	var out []byte
	for i, v := range values {
		var err error
		out, err = records.AppendMessage(out, magic, int64(i), 1700000000000, 0, []byte("k"+v), []byte(v))
		require.NoError(t, err)
	}
	return out
}

func TestBridgeProduce(t *testing.T) {
	_, c := newBridgeConn(t)
	good := legacySet(t, 0, "a", "b")
	bad := bytes.Clone(good)
	bad[len(bad)-1] ^= 1 // the last message's CRC no longer matches
	req := kafkamsg.NewProduceRequest()
	req.Acks, req.TimeoutMs = 1, 1000
	req.TopicData = []kafkamsg.ProduceRequestTopicProduceData{{Name: "t", PartitionData: []kafkamsg.ProduceRequestPartitionProduceData{
		{Index: 0, Records: good}, {Index: 1, Records: bad}}}}
	req = roundTrip(t, req, 0, kafkamsg.NewProduceRequest())

	state, err := c.Request(req, 0, 3)
	require.NoError(t, err)
	sent := roundTrip(t, req, 3, kafkamsg.NewProduceRequest())
	require.Len(t, sent.TopicData[0].PartitionData, 1, "the corrupt partition is answered, not forwarded")
	var got []string
	require.NoError(t, records.Each(sent.TopicData[0].PartitionData[0].Records, nil, func(r *records.Record) error {
		got = append(got, string(r.Key)+"="+string(r.Value))
		assert.Equal(t, records.NoTimestamp, r.Timestamp, "magic 0 has no timestamp")
		return nil
	}))
	assert.Equal(t, []string{"ka=a", "kb=b"}, got)

	resp := kafkamsg.NewProduceResponse()
	resp.Responses = []kafkamsg.ProduceResponseTopicProduceResponse{{Name: "t", PartitionResponses: []kafkamsg.ProduceResponsePartitionProduceResponse{
		{Index: 0, BaseOffset: 7, LogAppendTimeMs: -1, LogStartOffset: 0, CurrentLeader: kafkamsg.ProduceResponseLeaderIDAndEpoch{LeaderID: -1, LeaderEpoch: -1}}}}}
	resp.ThrottleTimeMs = 5
	resp = roundTrip(t, resp, 3, kafkamsg.NewProduceResponse())
	require.NoError(t, c.Response(resp, 3, 0, state))
	back := roundTrip(t, resp, 0, kafkamsg.NewProduceResponse())
	parts := back.Responses[0].PartitionResponses
	require.Len(t, parts, 2)
	assert.Equal(t, int64(7), parts[0].BaseOffset)
	assert.Equal(t, int32(1), parts[1].Index)
	assert.Equal(t, kerrors.CorruptMessage.Code, parts[1].ErrorCode, "a bad CRC: CORRUPT_MESSAGE, as Kafka answered")

	t.Run("acks 0 closes the connection on a refusal", func(t *testing.T) {
		req := kafkamsg.NewProduceRequest()
		req.Acks = 0
		req.TopicData = []kafkamsg.ProduceRequestTopicProduceData{{Name: "t", PartitionData: []kafkamsg.ProduceRequestPartitionProduceData{{Index: 0, Records: bad}}}}
		_, err := c.Request(req, 0, 3)
		assert.ErrorContains(t, err, "closing the connection")
	})
}

// v2Blob is a stored v2 batch at base, with a header on each record.
func v2Blob(t *testing.T, base int64, c records.Compression, values ...string) []byte {
	t.Helper()
	b := records.NewBatchBuilder()
	b.Compression = c
	for _, v := range values {
		b.Append(1700000000000, []byte("k"+v), []byte(v), records.Header{Key: []byte("h"), Value: []byte("x")})
	}
	out, err := b.AppendTo(nil)
	require.NoError(t, err)
	var rb records.Batch
	require.NoError(t, records.ReadBatch(&rb, out, 0))
	rb.SetBaseOffset(base)
	return out
}

func fetchRequest(version int16, maxBytes int32, parts ...kafkamsg.FetchRequestFetchPartition) *kafkamsg.FetchRequest {
	req := kafkamsg.NewFetchRequest()
	req.MaxBytes = maxBytes
	req.Topics = []kafkamsg.FetchRequestFetchTopic{{Topic: "t", Partitions: parts}}
	return req
}

func fetchPart(p int32, offset int64, maxBytes int32) kafkamsg.FetchRequestFetchPartition {
	return kafkamsg.FetchRequestFetchPartition{Partition: p, FetchOffset: offset, PartitionMaxBytes: maxBytes, CurrentLeaderEpoch: -1, LastFetchedEpoch: -1, LogStartOffset: -1}
}

func fetchAnswer(parts ...kafkamsg.FetchResponsePartitionData) *kafkamsg.FetchResponse {
	resp := kafkamsg.NewFetchResponse()
	for i := range parts {
		parts[i].LastStableOffset, parts[i].LogStartOffset, parts[i].PreferredReadReplica = -1, -1, -1
		parts[i].DivergingEpoch = kafkamsg.FetchResponseEpochEndOffset{Epoch: -1, EndOffset: -1}
		parts[i].CurrentLeader = kafkamsg.FetchResponseLeaderIDAndEpoch{LeaderID: -1, LeaderEpoch: -1}
		parts[i].SnapshotID = kafkamsg.FetchResponseSnapshotID{EndOffset: -1, Epoch: -1}
	}
	resp.Responses = []kafkamsg.FetchResponseFetchableTopicResponse{{Topic: "t", Partitions: parts}}
	return resp
}

// messages reads a message set back as "offset:key=value" with its magic.
func messages(t *testing.T, blob []byte) (out []string, magics []int8) {
	t.Helper()
	var r records.Reader
	var rr records.RecordReader
	var rec records.Record
	var d records.Decompressor
	r.Reset(blob)
	for r.Next() {
		magics = append(magics, r.Batch().Magic)
		require.NoError(t, rr.Reset(r.Batch(), &d))
		for rr.Next(&rec) {
			out = append(out, string(rune('0'+rec.Offset))+":"+string(rec.Key)+"="+string(rec.Value))
		}
		require.NoError(t, rr.Err())
	}
	require.NoError(t, r.Err())
	return out, magics
}

func TestBridgeFetch(t *testing.T) {
	control := records.AppendEndTxnMarker(nil, records.EndTxnMarker{ProducerID: 1, Commit: true, Timestamp: 5})
	var rb records.Batch
	require.NoError(t, records.ReadBatch(&rb, control, 0))
	rb.SetBaseOffset(3)
	log := append(append(v2Blob(t, 0, records.CompressionNone, "a", "b", "c"), control...), v2Blob(t, 4, records.CompressionNone, "d")...)

	for _, tc := range []struct {
		name      string
		version   int16
		req       *kafkamsg.FetchRequest
		resp      *kafkamsg.FetchResponse
		want      [][]string // per partition
		wantMagic int8
		wantCode  []int16
	}{
		{"v1: magic 0 from the fetch offset, control batch skipped",
			1, fetchRequest(1, 0, fetchPart(0, 1, 1<<20)),
			fetchAnswer(kafkamsg.FetchResponsePartitionData{PartitionIndex: 0, HighWatermark: 5, Records: log}),
			[][]string{{"1:kb=b", "2:kc=c", "4:kd=d"}}, 0, []int16{0}},
		{"v3: magic 1; MaxBytes lets the first batch through and stops the next partition",
			3, fetchRequest(3, 10, fetchPart(0, 0, 1<<20), fetchPart(1, 0, 1<<20)),
			fetchAnswer(kafkamsg.FetchResponsePartitionData{PartitionIndex: 0, Records: v2Blob(t, 0, records.CompressionNone, "a")},
				kafkamsg.FetchResponsePartitionData{PartitionIndex: 1, Records: v2Blob(t, 0, records.CompressionNone, "z")}),
			[][]string{{"0:ka=a"}, nil}, 1, []int16{0, 0}},
		{"v2: a gzip batch re-compressed whole",
			2, fetchRequest(2, 0, fetchPart(0, 1, 1<<20)),
			fetchAnswer(kafkamsg.FetchResponsePartitionData{PartitionIndex: 0, Records: v2Blob(t, 0, records.CompressionGzip, "a", "b")}),
			[][]string{{"0:ka=a", "1:kb=b"}}, 1, []int16{0}},
		{"v3: zstd is UNSUPPORTED_COMPRESSION_TYPE",
			3, fetchRequest(3, 1<<20, fetchPart(0, 0, 1<<20)),
			fetchAnswer(kafkamsg.FetchResponsePartitionData{PartitionIndex: 0, Records: v2Blob(t, 0, records.CompressionZstd, "a")}),
			[][]string{nil}, 1, []int16{kerrors.UnsupportedCompressionType.Code}},
		{"v0: KAFKA_STORAGE_ERROR becomes NOT_LEADER_OR_FOLLOWER, null records empty",
			0, fetchRequest(0, 0, fetchPart(0, 0, 1<<20)),
			fetchAnswer(kafkamsg.FetchResponsePartitionData{PartitionIndex: 0, ErrorCode: kerrors.KafkaStorageError.Code}),
			[][]string{nil}, 0, []int16{kerrors.NotLeaderOrFollower.Code}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, c := newBridgeConn(t)
			req := roundTrip(t, tc.req, tc.version, kafkamsg.NewFetchRequest())
			state, err := c.Request(req, tc.version, 4)
			require.NoError(t, err)
			roundTrip(t, req, 4, kafkamsg.NewFetchRequest())
			resp := roundTrip(t, tc.resp, 4, kafkamsg.NewFetchResponse())
			require.NoError(t, c.Response(resp, 4, tc.version, state))
			back := roundTrip(t, resp, tc.version, kafkamsg.NewFetchResponse())
			for i, p := range back.Responses[0].Partitions {
				assert.Equal(t, tc.wantCode[i], p.ErrorCode, "partition %d", i)
				got, magics := messages(t, p.Records)
				assert.Equal(t, tc.want[i], got, "partition %d", i)
				for _, m := range magics {
					assert.Equal(t, tc.wantMagic, m)
				}
			}
		})
	}
}

func TestBridgeListOffsetsV0(t *testing.T) {
	for _, tc := range []struct {
		name          string
		timestamp     int64
		maxNumOffsets int32
		code          int16
		offset        int64
		want          []int64
	}{
		{"latest (-1), one offset: exact", -1, 1, 0, 42, []int64{42}},
		{"earliest (-2), one offset: exact", -2, 1, 0, 0, []int64{0}},
		{"MaxNumOffsets 0 asks for none", -1, 0, 0, 42, []int64{}},
		{"an error carries no offsets", -1, 1, kerrors.UnknownTopicOrPartition.Code, -1, []int64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, c := newBridgeConn(t)
			req := kafkamsg.NewListOffsetsRequest()
			req.Topics = []kafkamsg.ListOffsetsRequestListOffsetsTopic{{Name: "t", Partitions: []kafkamsg.ListOffsetsRequestListOffsetsPartition{
				{PartitionIndex: 0, Timestamp: tc.timestamp, MaxNumOffsets: tc.maxNumOffsets, CurrentLeaderEpoch: -1}}}}
			req = roundTrip(t, req, 0, kafkamsg.NewListOffsetsRequest())
			state, err := c.Request(req, 0, 1)
			require.NoError(t, err)
			sent := roundTrip(t, req, 1, kafkamsg.NewListOffsetsRequest())
			assert.Equal(t, tc.timestamp, sent.Topics[0].Partitions[0].Timestamp)

			resp := kafkamsg.NewListOffsetsResponse()
			resp.Topics = []kafkamsg.ListOffsetsResponseListOffsetsTopicResponse{{Name: "t", Partitions: []kafkamsg.ListOffsetsResponseListOffsetsPartitionResponse{
				{PartitionIndex: 0, ErrorCode: tc.code, Timestamp: -1, Offset: tc.offset, LeaderEpoch: -1}}}}
			resp = roundTrip(t, resp, 1, kafkamsg.NewListOffsetsResponse())
			require.NoError(t, c.Response(resp, 1, 0, state))
			back := roundTrip(t, resp, 0, kafkamsg.NewListOffsetsResponse())
			assert.Equal(t, tc.want, back.Topics[0].Partitions[0].OldStyleOffsets)
		})
	}
}

func TestBridgeOffsetCommitAndJoinGroup(t *testing.T) {
	_, c := newBridgeConn(t)
	oc := kafkamsg.NewOffsetCommitRequest()
	oc.GroupID, oc.GenerationIDOrMemberEpoch, oc.MemberID = "g", 3, "m"
	oc.Topics = []kafkamsg.OffsetCommitRequestTopic{{Name: "t", Partitions: []kafkamsg.OffsetCommitRequestPartition{{PartitionIndex: 0, CommittedOffset: 9, CommitTimestamp: 1700000000000, CommittedLeaderEpoch: -1}}}}
	oc = roundTrip(t, oc, 1, kafkamsg.NewOffsetCommitRequest())
	_, err := oc.AppendTo(nil, 2)
	require.ErrorIs(t, err, runtime.ErrNonDefault, "without the adapter v1's CommitTimestamp cannot go to v2")
	_, err = c.Request(oc, 1, 2)
	require.NoError(t, err)
	sent := roundTrip(t, oc, 2, kafkamsg.NewOffsetCommitRequest())
	assert.Equal(t, int64(9), sent.Topics[0].Partitions[0].CommittedOffset)
	assert.Equal(t, int32(3), sent.GenerationIDOrMemberEpoch)

	jg := kafkamsg.NewJoinGroupRequest()
	jg.GroupID, jg.SessionTimeoutMs, jg.ProtocolType = "g", 30000, "consumer"
	jg = roundTrip(t, jg, 0, kafkamsg.NewJoinGroupRequest())
	_, err = c.Request(jg, 0, 2)
	require.NoError(t, err)
	assert.Equal(t, int32(30000), roundTrip(t, jg, 2, kafkamsg.NewJoinGroupRequest()).RebalanceTimeoutMs, "v0 has no rebalance timeout: the session timeout, as Kafka used")
}

// TestBridgeGeneric: the apis whose old versions mean what the new do go
// through with the codec alone, default messages both ways.
func TestBridgeGeneric(t *testing.T) {
	_, c := newBridgeConn(t)
	for _, key := range []int16{kafkamsg.APIKeyOffsetFetch, kafkamsg.APIKeyCreateTopics, kafkamsg.APIKeyDeleteTopics, kafkamsg.APIKeyOffsetForLeaderEpoch, kafkamsg.APIKeyJoinGroup,
		kafkamsg.APIKeyDescribeACLs, kafkamsg.APIKeyCreateACLs, kafkamsg.APIKeyDeleteACLs, kafkamsg.APIKeyAlterReplicaLogDirs, kafkamsg.APIKeyDescribeLogDirs,
		kafkamsg.APIKeyCreateDelegationToken, kafkamsg.APIKeyRenewDelegationToken, kafkamsg.APIKeyExpireDelegationToken, kafkamsg.APIKeyDescribeDelegationToken} {
		translated := 0
		for v := kafkamsg.NewRequest(key).MinVersion(); ; v++ {
			to, ok := c.Target(key, v)
			if !ok {
				break
			}
			req := roundTrip(t, kafkamsg.NewRequest(key), v, kafkamsg.NewRequest(key))
			state, err := c.Request(req, v, to)
			require.NoError(t, err)
			roundTrip(t, req, to, kafkamsg.NewRequest(key))
			resp := roundTrip(t, kafkamsg.NewResponse(key), to, kafkamsg.NewResponse(key))
			require.NoError(t, c.Response(resp, to, v, state))
			roundTrip(t, resp, v, kafkamsg.NewResponse(key))
			translated++
		}
		assert.Positive(t, translated, "api key %d: no version translated", key)
	}
}

func TestBridgeDescribeConfigsV0(t *testing.T) {
	_, c := newBridgeConn(t)
	req := roundTrip(t, kafkamsg.NewDescribeConfigsRequest(), 0, kafkamsg.NewDescribeConfigsRequest())
	state, err := c.Request(req, 0, 1)
	require.NoError(t, err)
	roundTrip(t, req, 1, kafkamsg.NewDescribeConfigsRequest())

	for _, tc := range []struct {
		name      string
		source    int8
		isDefault bool
	}{
		{"DEFAULT_CONFIG (5) is the default", 5, true},
		{"DYNAMIC_TOPIC_CONFIG (1) is not", 1, false},
		{"STATIC_BROKER_CONFIG (4) is not", 4, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := kafkamsg.NewDescribeConfigsResponse()
			resp.Results = []kafkamsg.DescribeConfigsResponseDescribeConfigsResult{{ResourceType: 2, ResourceName: "t",
				Configs: []kafkamsg.DescribeConfigsResponseDescribeConfigsResourceResult{{Name: "retention.ms", Value: runtime.NewNullString("1"),
					ConfigSource: tc.source, Synonyms: []kafkamsg.DescribeConfigsResponseDescribeConfigsSynonym{{Name: "log.retention.ms", Source: 4}}}}}}
			resp = roundTrip(t, resp, 1, kafkamsg.NewDescribeConfigsResponse())
			require.NoError(t, c.Response(resp, 1, 0, state))
			back := roundTrip(t, resp, 0, kafkamsg.NewDescribeConfigsResponse())
			assert.Equal(t, tc.isDefault, back.Results[0].Configs[0].IsDefault)
		})
	}
}
