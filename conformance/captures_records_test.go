//go:build corpus

package conformance

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/kafkagen/kafkagen/records"
	"github.com/stretchr/testify/require"
)

// recordBatchHeaderSize is the fixed part of a v2 record batch before its
// records (Kafka's RECORD_BATCH_OVERHEAD).
const recordBatchHeaderSize = 61

// readBatch is one batch and its records, copied out of the reader's
// buffers.
type readBatch struct {
	batch   records.Batch
	records []records.Record
}

// readBatches reads every batch of a records blob, which must hold whole
// batches only (a Produce request, or the inner set of a legacy wrapper).
func readBatches(t *testing.T, where string, blob []byte) []readBatch {
	t.Helper()
	var (
		r   = records.Reader{Complete: true}
		rr  records.RecordReader
		d   records.Decompressor
		rec records.Record
		out []readBatch
	)
	r.Reset(blob)
	for r.Next() {
		rb := readBatch{batch: *r.Batch()}
		require.NoError(t, rr.Reset(r.Batch(), &d), "%s: batch at byte %d", where, r.Batch().Pos)
		for rr.Next(&rec) {
			c := rec
			c.Key, c.Value, c.Headers = bytes.Clone(rec.Key), bytes.Clone(rec.Value), nil
			for _, h := range rec.Headers {
				c.Headers = append(c.Headers, records.Header{Key: bytes.Clone(h.Key), Value: bytes.Clone(h.Value)})
			}
			rb.records = append(rb.records, c)
		}
		require.NoError(t, rr.Err(), "%s: records of the batch at byte %d", where, r.Batch().Pos)
		out = append(out, rb)
	}
	require.NoError(t, r.Err(), "%s: batches", where)
	return out
}

// replayRecords writes every batch of blob again from what was read of it.
// Uncompressed batches must come out byte for byte. A compressed batch is
// checked in three ways: its records, uncompressed, are re-written byte for
// byte (for a legacy wrapper, also its framing around the compressed value
// as it arrived); and re-compressed with the same codec it reads back to the
// same header and records (the compressed bytes themselves depend on each
// client's compression library). It returns the number of batches of each
// kind.
func replayRecords(t *testing.T, where string, blob []byte) (uncompressed, compressed int) {
	t.Helper()
	batches := readBatches(t, where, blob)
	require.NotEmpty(t, batches, "%s: a Produce request without a batch", where)
	for i, rb := range batches {
		b := &rb.batch
		at := fmt.Sprintf("%s, batch %d (byte %d, magic %d, %s)", where, i, b.Pos, b.Magic, b.Compression())
		codec := b.Compression()
		switch {
		case codec == records.CompressionNone && b.Magic >= records.MagicV2:
			require.Equal(t, b.Raw, rebuildV2(t, at, rb, codec), "%s: re-written batch", at)
			uncompressed++
			continue
		case codec == records.CompressionNone:
			require.Len(t, rb.records, 1, "%s: an uncompressed legacy message holds one record", at)
			r := rb.records[0]
			again, err := records.AppendMessage(nil, b.Magic, b.BaseOffset, r.Timestamp, r.Attributes, r.Key, r.Value)
			require.NoError(t, err, at)
			require.Equal(t, b.Raw, again, "%s: re-written message", at)
			uncompressed++
			continue
		}
		var d records.Decompressor
		inner, err := d.Decompress(codec, b.Magic, b.Records)
		require.NoError(t, err, at)
		inner = bytes.Clone(inner)
		var again []byte
		if b.Magic >= records.MagicV2 {
			plain := rebuildV2(t, at, rb, records.CompressionNone)
			require.Equal(t, inner, plain[recordBatchHeaderSize:], "%s: re-written records, uncompressed", at)
			again = rebuildV2(t, at, rb, codec)
		} else {
			reframed, err := records.AppendMessage(nil, b.Magic, b.BaseOffset, b.BaseTimestamp, int8(b.Attributes), nil, b.Records)
			require.NoError(t, err, at)
			require.Equal(t, b.Raw, reframed, "%s: wrapper re-framed around the compressed value as it arrived", at)
			again = rebuildWrapper(t, at, rb, inner)
		}
		back := readBatches(t, at+", re-written", again)
		require.Len(t, back, 1, "%s: re-written batch", at)
		want, got := rb.batch, back[0].batch
		for _, x := range []*records.Batch{&want, &got} {
			x.Raw, x.Records, x.Length, x.CRC = nil, nil, 0, 0
		}
		require.Equal(t, want, got, "%s: re-written batch header", at)
		require.Equal(t, rb.records, back[0].records, "%s: re-written records", at)
		compressed++
	}
	return uncompressed, compressed
}

// rebuildV2 writes a v2 batch again from its header fields and records,
// compressed with codec.
func rebuildV2(t *testing.T, where string, rb readBatch, codec records.Compression) []byte {
	t.Helper()
	b := &rb.batch
	bb := records.NewBatchBuilder()
	bb.BaseOffset, bb.PartitionLeaderEpoch = b.BaseOffset, b.PartitionLeaderEpoch
	bb.ProducerID, bb.ProducerEpoch, bb.BaseSequence = b.ProducerID, b.ProducerEpoch, b.BaseSequence
	bb.Transactional, bb.Control, bb.Compression = b.IsTransactional(), b.IsControl(), codec
	bb.DeleteHorizonMs = b.DeleteHorizonMs()
	if b.TimestampType() == records.LogAppendTime {
		bb.LogAppendTime = b.MaxTimestamp
	}
	for _, r := range rb.records {
		// The timestamp as written: the base plus the record's delta.
		require.NoError(t, bb.AppendAt(r.OffsetDelta, b.BaseTimestamp+r.TimestampDelta, r.Key, r.Value, r.Headers...), where)
	}
	out, err := bb.AppendTo(nil)
	require.NoError(t, err, where)
	return out
}

// rebuildWrapper checks that the inner message set of a legacy wrapper
// (inner, decompressed) re-writes byte for byte from its messages as read
// (their offsets as the client stored them: sarama leaves them all 0 in
// magic 0), then compresses it again and frames it as the wrapper was.
func rebuildWrapper(t *testing.T, where string, rb readBatch, inner []byte) []byte {
	t.Helper()
	b := &rb.batch
	var set []byte
	for _, m := range readBatches(t, where+", inner set", inner) {
		require.Len(t, m.records, 1, "%s: inner message at byte %d", where, m.batch.Pos)
		r := m.records[0]
		var err error
		set, err = records.AppendMessage(set, m.batch.Magic, m.batch.BaseOffset, r.Timestamp, r.Attributes, r.Key, r.Value)
		require.NoError(t, err, where)
	}
	require.Equal(t, inner, set, "%s: re-written inner message set", where)
	var z records.Compressor
	packed, err := z.AppendCompressed(nil, b.Compression(), b.Magic, set)
	require.NoError(t, err, where)
	out, err := records.AppendMessage(nil, b.Magic, b.BaseOffset, b.BaseTimestamp, int8(b.Attributes), nil, packed)
	require.NoError(t, err, where)
	return out
}
