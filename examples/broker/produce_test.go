package main

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// produceReq is a Produce of one partition's records.
func produceReq(topic string, partition int32, acks int16, blob []byte) *kafkamsg.ProduceRequest {
	req := kafkamsg.NewProduceRequest()
	req.Acks, req.TimeoutMs = acks, 5000
	req.TopicData = []kafkamsg.ProduceRequestTopicProduceData{{Name: topic,
		PartitionData: []kafkamsg.ProduceRequestPartitionProduceData{{Index: partition, Records: blob}}}}
	return req
}

// produce sends one partition's records and returns its answer.
func produce(t *testing.T, cl *wire.Client, version int16, topic string, partition int32, blob []byte) kafkamsg.ProduceResponsePartitionProduceResponse {
	t.Helper()
	resp := do(t, cl, produceReq(topic, partition, -1, blob), version, kafkamsg.NewProduceResponse())
	require.Len(t, resp.Responses, 1)
	require.Len(t, resp.Responses[0].PartitionResponses, 1)
	return resp.Responses[0].PartitionResponses[0]
}

// fetchReq is a Fetch of one partition from offset, by name before v13
// and by topic id from v13, returning at once.
func fetchReq(version int16, topic string, id runtime.UUID, partition int32, offset int64) *kafkamsg.FetchRequest {
	req := kafkamsg.NewFetchRequest()
	req.MaxWaitMs, req.MinBytes = 0, 0
	p := defaults[kafkamsg.FetchRequestFetchPartition]()
	p.Partition, p.FetchOffset, p.PartitionMaxBytes = partition, offset, 1<<20
	ft := kafkamsg.FetchRequestFetchTopic{Partitions: []kafkamsg.FetchRequestFetchPartition{p}}
	if version >= 13 {
		ft.TopicID = id
	} else {
		ft.Topic = topic
	}
	req.Topics = []kafkamsg.FetchRequestFetchTopic{ft}
	return req
}

// fetchOne sends a Fetch and returns its only partition.
func fetchOne(t *testing.T, cl *wire.Client, version int16, req *kafkamsg.FetchRequest) kafkamsg.FetchResponsePartitionData {
	t.Helper()
	resp := do(t, cl, req, version, kafkamsg.NewFetchResponse())
	require.Equal(t, codeNone, resp.ErrorCode)
	require.Len(t, resp.Responses, 1)
	require.Len(t, resp.Responses[0].Partitions, 1)
	return resp.Responses[0].Partitions[0]
}

// createTopic creates a topic through CreateTopics and returns its id.
func createTopic(t *testing.T, cl *wire.Client, name string, partitions int32) runtime.UUID {
	t.Helper()
	req := kafkamsg.NewCreateTopicsRequest()
	ct := defaults[kafkamsg.CreateTopicsRequestCreatableTopic]()
	ct.Name, ct.NumPartitions, ct.ReplicationFactor = name, partitions, 1
	req.Topics = append(req.Topics, ct)
	resp := do(t, cl, req, 7, kafkamsg.NewCreateTopicsResponse())
	require.Len(t, resp.Topics, 1)
	require.Equal(t, codeNone, resp.Topics[0].ErrorCode, "%v", resp.Topics[0].ErrorMessage)
	return resp.Topics[0].TopicID
}

func TestProduceFetchEveryVersion(t *testing.T) {
	tb := startBroker(t, Config{})
	cl := tb.client(t, "test")
	id := createTopic(t, cl, "events", 2)
	hdr := []records.Header{{Key: []byte("h"), Value: []byte("x")}}
	var want []testRecord
	next := int64(0)
	for produceVersion := int16(3); produceVersion <= 13; produceVersion++ {
		for _, codec := range []records.Compression{records.CompressionNone, records.CompressionGzip, records.CompressionSnappy, records.CompressionLZ4, records.CompressionZstd} {
			if codec == records.CompressionZstd && produceVersion < 7 {
				continue // zstd needs Produce v7
			}
			recs := []testRecord{
				{key: []byte(fmt.Sprintf("k%d", next)), value: []byte(fmt.Sprintf("v%d-%s", produceVersion, codec)), headers: hdr, timestamp: 1000 + next},
				{key: nil, value: []byte("second"), timestamp: 1001 + next},
			}
			req := produceReq("events", 1, -1, v2Batch(t, codec, recs...))
			req.TopicData[0].TopicID = id // written from v13, the name up to v12
			resp := do(t, cl, req, produceVersion, kafkamsg.NewProduceResponse())
			res := resp.Responses[0].PartitionResponses[0]
			require.Equal(t, codeNone, res.ErrorCode, "produce v%d %s: %v", produceVersion, codec, res.ErrorMessage)
			assert.Equal(t, next, res.BaseOffset, "produce v%d %s", produceVersion, codec)
			want = append(want, recs...)
			next += int64(len(recs))
		}
	}
	for fetchVersion := int16(4); fetchVersion <= 18; fetchVersion++ {
		p := fetchOne(t, cl, fetchVersion, fetchReq(fetchVersion, "events", id, 1, 0))
		require.Equal(t, codeNone, p.ErrorCode, "fetch v%d", fetchVersion)
		assert.Equal(t, next, p.HighWatermark)
		assert.Equal(t, next, p.LastStableOffset)
		got := readRecords(t, p.Records)
		require.Len(t, got, len(want), "fetch v%d", fetchVersion)
		for i, w := range want {
			assert.Equal(t, int64(i), got[i].Offset)
			assert.Equal(t, w.key, got[i].Key)
			assert.Equal(t, w.value, got[i].Value)
			assert.Equal(t, w.timestamp, got[i].Timestamp)
			assert.Len(t, got[i].Headers, len(w.headers))
		}
	}
	// The other partition is empty but exists.
	p := fetchOne(t, cl, 12, fetchReq(12, "events", id, 0, 0))
	assert.Equal(t, codeNone, p.ErrorCode)
	assert.Empty(t, p.Records)
	assert.Equal(t, int64(0), p.HighWatermark)
}

func TestProduceLegacyMessageSets(t *testing.T) {
	tb := startBroker(t, Config{AutoCreate: true})
	cl := tb.client(t, "old")
	message := func(magic int8, offset int64, key, value string) []byte {
		b, err := records.AppendMessage(nil, magic, offset, 5000+offset, 0, []byte(key), []byte(value))
		require.NoError(t, err)
		return b
	}
	wrapper := func(magic int8, codec records.Compression, values ...string) []byte {
		m := records.MessageSetBuilder{Magic: magic, Compression: codec, LogAppendTime: records.NoTimestamp}
		m.Reset()
		for i, v := range values {
			require.NoError(t, m.Append(int64(i), 6000, nil, []byte(v)))
		}
		out, err := m.AppendTo(nil)
		require.NoError(t, err)
		return out
	}
	sets := []struct {
		version int16
		blob    []byte
		values  []string
	}{
		{0, append(message(0, 0, "a", "m0-0"), message(0, 1, "b", "m0-1")...), []string{"m0-0", "m0-1"}},
		{1, wrapper(0, records.CompressionGzip, "gz-0", "gz-1", "gz-2"), []string{"gz-0", "gz-1", "gz-2"}},
		{2, message(1, 0, "c", "m1-0"), []string{"m1-0"}},
		{2, wrapper(1, records.CompressionSnappy, "sn-0", "sn-1"), []string{"sn-0", "sn-1"}},
		{2, wrapper(1, records.CompressionLZ4, "lz-0"), []string{"lz-0"}},
	}
	var want []string
	for _, s := range sets {
		res := produce(t, cl, s.version, "legacy", 0, s.blob)
		require.Equal(t, codeNone, res.ErrorCode, "produce v%d", s.version)
		assert.Equal(t, int64(len(want)), res.BaseOffset)
		want = append(want, s.values...)
	}
	for _, fetchVersion := range []int16{0, 1, 2, 3, 4, 11} {
		p := fetchOne(t, cl, fetchVersion, fetchReq(fetchVersion, "legacy", runtime.UUID{}, 0, 1))
		require.Equal(t, codeNone, p.ErrorCode)
		var r records.Reader
		r.Reset(p.Records)
		require.True(t, r.Next(), "fetch v%d", fetchVersion)
		assert.Equal(t, fetchMagic(fetchVersion), r.Batch().Magic, "fetch v%d converts to its format", fetchVersion)
		got := readRecords(t, p.Records)
		var values []string
		for _, rec := range got {
			if rec.Offset >= 1 { // v4+ returns whole batches from the one holding offset 1
				values = append(values, string(rec.Value))
			}
		}
		assert.Equal(t, want[1:], values, "fetch v%d", fetchVersion)
	}

	// Produce v3 and later take only v2 batches.
	res := produce(t, cl, 3, "legacy", 0, message(1, 0, "k", "v"))
	assert.Equal(t, kerrors.InvalidRecord.Code, res.ErrorCode)
}

func TestProduceRejects(t *testing.T) {
	tb := startBroker(t, Config{})
	cl := tb.client(t, "test")
	createTopic(t, cl, "t", 1)
	good := v2Batch(t, records.CompressionNone, testRecord{value: []byte("v")})
	badCRC := append([]byte{}, good...)
	badCRC[len(badCRC)-1] ^= 0xff
	zstd := v2Batch(t, records.CompressionZstd, testRecord{value: []byte("v")})
	tests := []struct {
		name      string
		version   int16
		topic     string
		partition int32
		acks      int16
		blob      []byte
		code      int16
	}{
		{"crc", 9, "t", 0, 1, badCRC, kerrors.CorruptMessage.Code},
		{"truncated", 9, "t", 0, 1, good[:len(good)-3], kerrors.InvalidRecord.Code}, // no whole batch, as Kafka answers
		{"empty", 9, "t", 0, 1, []byte{}, kerrors.InvalidRecord.Code},
		{"two batches", 9, "t", 0, 1, append(slices.Clone(good), good...), kerrors.InvalidRecord.Code},
		{"zstd before v7", 6, "t", 0, 1, zstd, kerrors.UnsupportedCompressionType.Code},
		{"acks", 9, "t", 0, 2, good, kerrors.InvalidRequiredAcks.Code},
		{"partition", 9, "t", 5, 1, good, kerrors.UnknownTopicOrPartition.Code},
		{"no auto-create", 9, "missing", 0, 1, good, kerrors.UnknownTopicOrPartition.Code},
		{"bad name", 9, "a/b", 0, 1, good, kerrors.UnknownTopicOrPartition.Code},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := do(t, cl, produceReq(tt.topic, tt.partition, tt.acks, tt.blob), tt.version, kafkamsg.NewProduceResponse())
			p := resp.Responses[0].PartitionResponses[0]
			assert.Equal(t, tt.code, p.ErrorCode)
			assert.Equal(t, int64(-1), p.BaseOffset)
			if tt.version >= 8 {
				assert.True(t, p.ErrorMessage.Valid, "v8+ answers carry a message")
			}
		})
	}
	p := fetchOne(t, cl, 12, fetchReq(12, "t", runtime.UUID{}, 0, 0))
	assert.Equal(t, int64(0), p.HighWatermark, "nothing was appended")

	res := do(t, cl, produceReq("t", 0, 1, zstd), 7, kafkamsg.NewProduceResponse()).Responses[0].PartitionResponses[0]
	assert.Equal(t, codeNone, res.ErrorCode, "zstd from produce v7 on")
}

func TestProduceAcksZero(t *testing.T) {
	tb := startBroker(t, Config{AutoCreate: true})
	cl := tb.client(t, "fire-and-forget")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req := produceReq("quiet", 0, 0, v2Batch(t, records.CompressionNone, testRecord{value: []byte("v")}))
	require.NoError(t, cl.Send(ctx, req, 9))
	// The connection answers the next request in order: no Produce response
	// came before it, or the client would fail on the correlation id.
	p := fetchOne(t, cl, 12, fetchReq(12, "quiet", runtime.UUID{}, 0, 0))
	assert.Equal(t, int64(1), p.HighWatermark)
}

// A failed Produce with acks 0 closes the connection, as Kafka does: the
// producer expects no answer, and a closed connection is how it learns to
// refresh its metadata.
func TestProduceAcksZeroFailureClosesConnection(t *testing.T) {
	tb := startBroker(t, Config{AutoCreate: false})
	cl := tb.client(t, "fire-and-forget")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req := produceReq("missing", 0, 0, v2Batch(t, records.CompressionNone, testRecord{value: []byte("v")}))
	require.NoError(t, cl.Send(ctx, req, 9))
	err := cl.Do(ctx, fetchReq(12, "missing", runtime.UUID{}, 0, 0), 12, kafkamsg.NewFetchResponse())
	// EOF, or a reset when the Fetch arrived before the close: either way
	// no answer came.
	require.True(t, errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET), "want the connection closed, got %v", err)
}

func TestIdempotentProducer(t *testing.T) {
	tb := startBroker(t, Config{AutoCreate: true})
	cl := tb.client(t, "idempotent")
	initReq := kafkamsg.NewInitProducerIDRequest()
	initReq.TransactionalID = runtime.Null
	init := do(t, cl, initReq, 4, kafkamsg.NewInitProducerIDResponse())
	require.Equal(t, codeNone, init.ErrorCode)
	batch := func(seq int32, values ...string) []byte {
		b := records.NewBatchBuilder()
		b.ProducerID, b.ProducerEpoch, b.BaseSequence = init.ProducerID, init.ProducerEpoch, seq
		for _, v := range values {
			b.Append(1, nil, []byte(v))
		}
		out, err := b.AppendTo(nil)
		require.NoError(t, err)
		return out
	}
	steps := []struct {
		name   string
		blob   []byte
		code   int16
		offset int64
	}{
		{"first", batch(0, "a", "b"), codeNone, 0},
		{"next", batch(2, "c"), codeNone, 2},
		{"retry of the first", batch(0, "a", "b"), codeNone, 0},
		{"retry of the last", batch(2, "c"), codeNone, 2},
		{"gap", batch(5, "x"), kerrors.OutOfOrderSequenceNumber.Code, -1},
		{"in order again", batch(3, "d"), codeNone, 3},
	}
	for _, s := range steps {
		res := produce(t, cl, 9, "idem", 0, s.blob)
		assert.Equal(t, s.code, res.ErrorCode, s.name)
		assert.Equal(t, s.offset, res.BaseOffset, s.name)
	}
	p := fetchOne(t, cl, 12, fetchReq(12, "idem", runtime.UUID{}, 0, 0))
	assert.Equal(t, int64(4), p.HighWatermark, "duplicates are not written twice")
}

// TestStoredBatchOffsets checks the broker rewrites the base offset (and
// leader epoch) of stored batches and that they still pass their CRC.
func TestStoredBatchOffsets(t *testing.T) {
	l := newPartitionLog()
	for i := 0; i < 3; i++ {
		var rb records.Batch
		blob := v2Batch(t, records.CompressionNone, testRecord{value: []byte("x")}, testRecord{value: []byte("y")})
		require.NoError(t, records.ReadBatch(&rb, blob, 0))
		base, _, err := l.appendBatch(metaOf(&rb), blob)
		require.NoError(t, err)
		assert.Equal(t, int64(2*i), base)
	}
	batches, size := l.batchesFor(3, l.next, 1<<20, true)
	data := joinBatches(batches)
	assert.Equal(t, len(data), size)
	assert.Equal(t, int64(5), batches[len(batches)-1].LastOffset)
	var r records.Reader
	r.Reset(data)
	var bases []int64
	for r.Next() {
		bases = append(bases, r.Batch().BaseOffset)
		assert.Equal(t, int64(0), int64(binary.BigEndian.Uint32(r.Batch().Raw[batchLeaderEpochPos:])))
	}
	require.NoError(t, r.Err(), "CRCs still hold")
	assert.Equal(t, []int64{2, 4}, bases)
}

// Produce bodies are decoded aliased, into the connection's frame buffer,
// which the next request overwrites: a topic Produce creates keeps its own
// copy of the name.
func TestProduceCreatedTopicKeepsItsName(t *testing.T) {
	tb := startBroker(t, Config{AutoCreate: true, Partitions: 1})
	cl := tb.client(t, "aliased")
	blob := v2Batch(t, records.CompressionNone, testRecord{value: []byte("v")})
	for _, name := range []string{"made-by-produce", "zzzzzzzzzzzzzzz"} {
		require.Equal(t, codeNone, produce(t, cl, 9, name, 0, blob).ErrorCode, name)
	}
	all := kafkamsg.NewMetadataRequest()
	all.Topics = nil
	resp := do(t, cl, all, 12, kafkamsg.NewMetadataResponse())
	var names []string
	for _, topic := range resp.Topics {
		names = append(names, topic.Name.Value)
	}
	assert.ElementsMatch(t, []string{"made-by-produce", "zzzzzzzzzzzzzzz"}, names)
}
