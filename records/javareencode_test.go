package records

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// rebuildV2 writes b again from what was read of it, compressed with the
// same codec.
func rebuildV2(t testing.TB, bb *BatchBuilder, dst []byte, rb readBack) []byte {
	t.Helper()
	b := &rb.batch
	bb.Reset()
	bb.BaseOffset = b.BaseOffset
	bb.PartitionLeaderEpoch = b.PartitionLeaderEpoch
	bb.ProducerID, bb.ProducerEpoch, bb.BaseSequence = b.ProducerID, b.ProducerEpoch, b.BaseSequence
	bb.Transactional, bb.Control = b.IsTransactional(), b.IsControl()
	bb.Compression = b.Compression()
	bb.DeleteHorizonMs = b.DeleteHorizonMs()
	if b.TimestampType() == LogAppendTime {
		bb.LogAppendTime = b.MaxTimestamp
	}
	for _, r := range rb.records {
		// The timestamp as written: LogAppendTime batches report the
		// append time for every record but keep the producer's deltas.
		require.NoError(t, bb.AppendAt(r.OffsetDelta, b.BaseTimestamp+r.TimestampDelta, r.Key, r.Value, r.Headers...))
	}
	out, err := bb.AppendTo(dst)
	require.NoError(t, err)
	return out
}

// TestJavaReencode writes every Java record set again from what was read:
// uncompressed sets come out byte for byte; compressed ones (whose bytes
// depend on the compression library) read back to the same batches and
// records.
func TestJavaReencode(t *testing.T) {
	sets := loadJavaSets(t)
	bb := NewBatchBuilder()
	exact, equivalent := 0, 0
	for _, s := range sets {
		t.Run(fmt.Sprint(s.ID), func(t *testing.T) {
			blob := s.bytes(t)
			got := readAll(t, blob)
			var out []byte
			compressed := false
			for _, rb := range got {
				compressed = compressed || rb.batch.Compression() != CompressionNone
				if rb.batch.Magic == MagicV2 {
					out = rebuildV2(t, bb, out, rb)
				} else {
					out = rebuildLegacy(t, out, rb)
				}
			}
			if !compressed {
				require.Equal(t, blob, out)
				exact++
				return
			}
			again := readAll(t, out)
			require.Len(t, again, len(got))
			for i := range got {
				assertSameBatch(t, fmt.Sprintf("batch %d", i), got[i], again[i])
			}
			equivalent++
		})
	}
	t.Logf("java re-encode: byte-for-byte=%d read-back-equal=%d", exact, equivalent)
}

// assertSameBatch compares two reads of a batch, leaving out what depends
// on the compressed bytes (length, CRC, record sizes stay: they are
// uncompressed sizes).
func assertSameBatch(t *testing.T, where string, want, got readBack) {
	w, g := want.batch, got.batch
	for _, b := range []*Batch{&w, &g} {
		b.Raw, b.Records, b.Length, b.CRC, b.Pos = nil, nil, 0, 0, 0
	}
	require.Equal(t, w, g, where)
	require.Equal(t, want.records, got.records, where)
}
