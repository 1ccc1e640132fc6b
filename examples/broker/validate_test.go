package main

import (
	"encoding/binary"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// v2 header positions the tests patch besides those log.go names.
const (
	testLastOffsetDeltaPos = 23
	testProducerIDPos      = 43
	testCountPos           = 57
	testRecordsPos         = 61
)

// resealed returns batch with patch applied and its CRC recomputed, so that
// only the patched fields are wrong.
func resealed(batch []byte, patch func(b []byte)) []byte {
	b := append([]byte{}, batch...)
	patch(b)
	binary.BigEndian.PutUint32(b[batchCRCPos:], records.CRC32C(b[batchAttributesPos:]))
	return b
}

func putInt32(pos int, v int32) func([]byte) {
	return func(b []byte) { binary.BigEndian.PutUint32(b[pos:], uint32(v)) }
}

// recordsOf builds an uncompressed v2 batch of n one-byte values, all with
// the timestamp ts (so every timestamp delta is the one byte 0).
func recordsOf(t *testing.T, n int, ts int64) []byte {
	recs := make([]testRecord, n)
	for i := range recs {
		recs[i] = testRecord{value: []byte{byte('a' + i)}, timestamp: ts}
	}
	return v2Batch(t, records.CompressionNone, recs...)
}

// zeroOffsetDeltas sets every record's offset delta to 0 in a batch from
// recordsOf: each record is its length, attributes, timestamp delta and
// offset delta, one byte each, then the rest.
func zeroOffsetDeltas(b []byte) {
	for p := testRecordsPos; p < len(b); {
		length := int(b[p]) >> 1 // a small zigzag varint
		b[p+3] = 0
		p += 1 + length
	}
}

// compressed re-encodes an uncompressed v2 batch's records with codec,
// keeping the header's fields.
func compressed(t *testing.T, batch []byte, codec records.Compression) []byte {
	var z records.Compressor
	out := append([]byte{}, batch[:testRecordsPos]...)
	out, err := z.AppendCompressed(out, codec, records.MagicV2, batch[testRecordsPos:])
	require.NoError(t, err)
	binary.BigEndian.PutUint32(out[8:], uint32(len(out)-12))
	return resealed(out, func(b []byte) { b[batchAttributesPos+1] |= byte(codec) })
}

func legacyMessage(t *testing.T, magic int8, value string) []byte {
	out, err := records.AppendMessage(nil, magic, 0, time.Now().UnixMilli(), 0, nil, []byte(value))
	require.NoError(t, err)
	return out
}

func legacyWrapper(t *testing.T, magic int8, values ...string) []byte {
	m := records.MessageSetBuilder{Magic: magic, Compression: records.CompressionGzip, LogAppendTime: records.NoTimestamp}
	m.Reset()
	for i, v := range values {
		require.NoError(t, m.Append(int64(i), time.Now().UnixMilli(), nil, []byte(v)))
	}
	out, err := m.AppendTo(nil)
	require.NoError(t, err)
	return out
}

// clientControlBatch is a commit marker as only the transaction
// coordinator may write one, for a client to send.
func clientControlBatch(t *testing.T, now int64) []byte {
	control := records.NewBatchBuilder()
	control.ProducerID, control.ProducerEpoch, control.Transactional, control.Control = 7, 0, true, true
	control.AppendControl(now, records.ControlCommit, records.AppendEndTxnMarkerValue(nil, 0))
	out, err := control.AppendTo(nil)
	require.NoError(t, err)
	return out
}

func concat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// TestProduceValidation sends every batch Kafka's LogValidator (and the
// checks before it) refuses: each must get Kafka's error code, and the
// partition's log end offset and a Fetch of it must not change.
func TestProduceValidation(t *testing.T) {
	const maxMessageBytes = 4096
	tb := startBroker(t, Config{MaxMessageBytes: maxMessageBytes})
	cl := tb.client(t, "validation")
	createTopic(t, cl, "v", 1)
	now := time.Now().UnixMilli()
	require.Equal(t, codeNone, produce(t, cl, 9, "v", 0, v2Batch(t, records.CompressionNone, testRecord{value: []byte("good"), timestamp: now})).ErrorCode)

	controlBatch := clientControlBatch(t, now)

	// Records that cannot decompress, in a batch over the limit with a valid
	// CRC: MESSAGE_TOO_LARGE, not CORRUPT_MESSAGE, shows the size is checked
	// before anything is decompressed.
	oversized := concat(recordsOf(t, 1, now)[:testRecordsPos], make([]byte, maxMessageBytes))
	binary.BigEndian.PutUint32(oversized[8:], uint32(len(oversized)-12))
	oversized = resealed(oversized, func(b []byte) { b[batchAttributesPos+1] |= byte(records.CompressionGzip) })

	twoHoursAhead := v2Batch(t, records.CompressionNone,
		testRecord{value: []byte("now"), timestamp: now}, testRecord{value: []byte("later"), timestamp: now + 2*3600*1000})

	tests := []struct {
		name    string
		version int16
		blob    []byte
		code    int16
		records []int32 // the record indices listed in RecordErrors (v8+)
	}{
		{"lastOffsetDelta -100", 9, resealed(recordsOf(t, 1, now), putInt32(testLastOffsetDeltaPos, -100)), kerrors.InvalidRecord.Code, nil},
		{"lastOffsetDelta 0 with 10 records", 9, resealed(recordsOf(t, 10, now), putInt32(testLastOffsetDeltaPos, 0)), kerrors.InvalidRecord.Code, nil},
		{"lastOffsetDelta 2^31-1", 9, resealed(recordsOf(t, 3, now), putInt32(testLastOffsetDeltaPos, math.MaxInt32)), kerrors.InvalidRecord.Code, nil},
		{"lastOffsetDelta -1 with 0 records", 9, resealed(recordsOf(t, 1, now), func(b []byte) {
			putInt32(testLastOffsetDeltaPos, -1)(b)
			putInt32(testCountPos, 0)(b)
		}), kerrors.InvalidRecord.Code, nil},
		{"offset deltas 0,0,0", 9, resealed(recordsOf(t, 3, now), zeroOffsetDeltas), kerrors.InvalidRecord.Code, []int32{1, 2}},
		{"offset deltas 0,0,0 gzip", 9, compressed(t, resealed(recordsOf(t, 3, now), zeroOffsetDeltas), records.CompressionGzip), kerrors.InvalidRecord.Code, []int32{1, 2}},
		{"count 3 with 2 records", 9, resealed(recordsOf(t, 2, now), func(b []byte) {
			putInt32(testLastOffsetDeltaPos, 2)(b)
			putInt32(testCountPos, 3)(b)
		}), kerrors.InvalidRecord.Code, nil},
		{"a client's control batch", 9, controlBatch, kerrors.InvalidRecord.Code, nil},
		{"base offset 5", 9, func() []byte { b := recordsOf(t, 1, now); binary.BigEndian.PutUint64(b, 5); return b }(), kerrors.InvalidRecord.Code, nil},
		{"producer id without a sequence", 9, resealed(recordsOf(t, 1, now), func(b []byte) { binary.BigEndian.PutUint64(b[testProducerIDPos:], 7) }), kerrors.InvalidRecord.Code, nil},
		{"a timestamp two hours ahead", 9, twoHoursAhead, kerrors.InvalidTimestamp.Code, []int32{1}},
		{"LogAppendTime set by the producer", 9, resealed(recordsOf(t, 2, records.NoTimestamp), func(b []byte) {
			b[batchAttributesPos+1] |= byte(records.AttrLogAppendTime)
			binary.BigEndian.PutUint64(b[batchMaxTimestampPos:], math.MaxUint64) // -1
		}), kerrors.InvalidTimestamp.Code, []int32{0, 1}},
		{"over max.message.bytes, never decompressed", 9, oversized, kerrors.MessageTooLarge.Code, nil},
		{"magic 0, 1 and 2 mixed in produce v2", 2, concat(legacyMessage(t, 0, "m0"), legacyMessage(t, 1, "m1"), recordsOf(t, 1, now)), kerrors.InvalidRecord.Code, nil},
		{"magic 1 then 2 in produce v2", 2, concat(legacyMessage(t, 1, "m1"), recordsOf(t, 1, now)), kerrors.InvalidRecord.Code, nil},
		{"magic 0 then 1 in produce v1", 1, concat(legacyMessage(t, 0, "m0"), legacyMessage(t, 1, "m1")), kerrors.InvalidRecord.Code, nil},
		{"two v2 batches in produce v2", 2, concat(recordsOf(t, 1, now), recordsOf(t, 1, now)), kerrors.InvalidRecord.Code, nil},
		{"a compressed wrapper and another message", 2, concat(legacyWrapper(t, 1, "w0", "w1"), legacyMessage(t, 1, "m1")), kerrors.InvalidRecord.Code, nil},
		{"a whole batch then a cut one", 9, concat(recordsOf(t, 1, now), recordsOf(t, 1, now)[:20]), kerrors.InvalidRecord.Code, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := do(t, cl, produceReq("v", 0, -1, tt.blob), tt.version, kafkamsg.NewProduceResponse())
			p := resp.Responses[0].PartitionResponses[0]
			assert.Equal(t, tt.code, p.ErrorCode, "%v", p.ErrorMessage)
			assert.Equal(t, int64(-1), p.BaseOffset)
			if tt.version >= 8 {
				assert.True(t, p.ErrorMessage.Valid, "v8+ answers carry a message")
				var listed []int32
				for _, e := range p.RecordErrors {
					listed = append(listed, e.BatchIndex)
					assert.True(t, e.BatchIndexErrorMessage.Valid)
				}
				assert.Equal(t, tt.records, listed)
			}
			f := fetchOne(t, cl, 12, fetchReq(12, "v", runtime.UUID{}, 0, 0))
			assert.Equal(t, int64(1), f.HighWatermark, "the log end offset did not move")
			got := readRecords(t, f.Records)
			require.Len(t, got, 1, "nothing was stored")
			assert.Equal(t, "good", string(got[0].Value))
		})
	}
}

// TestProduceValidationAccepts checks what Kafka lets through: a v2 batch
// alone in Produce v2 (the version does not fix the magic before v3), old
// timestamps (before.max.ms is unbounded), a timestamp within the hour
// ahead; and that a batch whose max timestamp lies is stored with its
// records' largest, its CRC still valid, as Kafka rewrites it.
func TestProduceValidationAccepts(t *testing.T) {
	tb := startBroker(t, Config{})
	cl := tb.client(t, "validation")
	createTopic(t, cl, "ok", 1)
	now := time.Now().UnixMilli()
	lying := resealed(recordsOf(t, 2, now), func(b []byte) { binary.BigEndian.PutUint64(b[batchMaxTimestampPos:], uint64(now+1<<40)) })
	tests := []struct {
		name    string
		version int16
		blob    []byte
	}{
		{"magic 2 in produce v2", 2, recordsOf(t, 1, now)},
		{"a timestamp of 1970", 9, recordsOf(t, 1, 1000)},
		{"a timestamp half an hour ahead", 9, recordsOf(t, 1, now+1800*1000)},
		{"a max timestamp ahead of its records", 9, lying},
	}
	for i, tt := range tests {
		res := produce(t, cl, tt.version, "ok", 0, tt.blob)
		require.Equal(t, codeNone, res.ErrorCode, "%s: %v", tt.name, res.ErrorMessage)
		assert.Equal(t, int64(i), res.BaseOffset, tt.name)
	}
	f := fetchOne(t, cl, 12, fetchReq(12, "ok", runtime.UUID{}, 0, 0))
	require.Len(t, readRecords(t, f.Records), 5, "the CRCs of the stored batches hold")
	var r records.Reader
	r.Reset(f.Records)
	var maxTimestamps []int64
	for r.Next() {
		maxTimestamps = append(maxTimestamps, r.Batch().MaxTimestamp)
	}
	assert.Equal(t, []int64{now, 1000, now + 1800*1000, now}, maxTimestamps)
}
