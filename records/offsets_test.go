package records

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// producedBlob is what an old or new client might put in one Produce
// partition: of the given magic and codec, three records per batch or
// wrapper, two of those.
func producedBlob(t *testing.T, magic int8, c Compression) []byte {
	var blob []byte
	var err error
	for i := 0; i < 2; i++ {
		switch {
		case magic == MagicV2:
			bb := NewBatchBuilder()
			bb.Compression = c
			for j := 0; j < 3; j++ {
				bb.Append(int64(100+j), []byte{byte('a' + j)}, []byte("value"))
			}
			blob, err = bb.AppendTo(blob)
		case c == CompressionNone:
			for j := 0; j < 3; j++ {
				blob, err = AppendMessage(blob, magic, int64(j), int64(100+j), 0, []byte{byte('a' + j)}, []byte("value"))
			}
		default:
			m := NewMessageSetBuilder(magic, c)
			m.Reset()
			for j := 0; j < 3; j++ {
				require.NoError(t, m.Append(int64(j), int64(100+j), []byte{byte('a' + j)}, []byte("value")))
			}
			blob, err = m.AppendTo(blob)
		}
		require.NoError(t, err)
	}
	return blob
}

// TestAssignOffsets: every format and codec gets offsets 500... on
// append, with keys, values and timestamps kept.
func TestAssignOffsets(t *testing.T) {
	for _, magic := range []int8{MagicV0, MagicV1, MagicV2} {
		for _, c := range append([]Compression{CompressionNone}, allCodecs...) {
			if c == CompressionZstd && magic < MagicV2 {
				continue
			}
			t.Run(fmt.Sprintf("v%d-%s", magic, c), func(t *testing.T) {
				blob := producedBlob(t, magic, c)
				before := append([]byte{}, blob...)
				out, next, err := AssignOffsets([]byte("log"), blob, 500, &Decompressor{}, &Compressor{})
				require.NoError(t, err)
				assert.Equal(t, int64(506), next)
				assert.Equal(t, before, blob, "the produced blob is not modified")
				require.Equal(t, "log", string(out[:3]))
				got := readAll(t, out[3:])
				var offsets []int64
				for _, rb := range got {
					for _, r := range rb.records {
						i := len(offsets) % 3
						offsets = append(offsets, r.Offset)
						assert.Equal(t, string(rune('a'+i)), string(r.Key))
						assert.Equal(t, "value", string(r.Value))
						if magic > MagicV0 {
							assert.Equal(t, int64(100+i), r.Timestamp)
						}
					}
				}
				assert.Equal(t, []int64{500, 501, 502, 503, 504, 505}, offsets)
				if magic == MagicV1 && c != CompressionNone {
					assert.Equal(t, len(blob), len(out)-3, "magic 1 wrappers are copied, not rewritten")
				}
			})
		}
	}
}

func TestAssignOffsetsRejectsPartial(t *testing.T) {
	blob := producedBlob(t, MagicV2, CompressionNone)
	_, _, err := AssignOffsets(nil, blob[:len(blob)-1], 0, nil, nil)
	assert.ErrorIs(t, err, ErrTruncated)
}

func TestInPlaceEdits(t *testing.T) {
	blob := producedBlob(t, MagicV2, CompressionLZ4)
	var r Reader
	r.Reset(blob)
	require.True(t, r.Next())
	b := r.Batch()
	b.SetBaseOffset(1000)
	b.SetPartitionLeaderEpoch(9)
	b.SetLogAppendTime(1234)
	got := readAll(t, blob) // CRC still valid
	first := got[0]
	assert.Equal(t, int64(1000), first.batch.BaseOffset)
	assert.Equal(t, int32(9), first.batch.PartitionLeaderEpoch)
	assert.Equal(t, LogAppendTime, first.batch.TimestampType())
	for i, rec := range first.records {
		assert.Equal(t, int64(1000+i), rec.Offset)
		assert.Equal(t, int64(1234), rec.Timestamp)
	}

	legacy := producedBlob(t, MagicV1, CompressionNone)
	r.Reset(legacy)
	require.True(t, r.Next())
	r.Batch().SetLogAppendTime(77)
	r.Batch().SetBaseOffset(42)
	got = readAll(t, legacy)
	assert.Equal(t, int64(77), got[0].records[0].Timestamp)
	assert.Equal(t, int64(42), got[0].records[0].Offset)
}

func TestBuilderRules(t *testing.T) {
	bb := NewBatchBuilder()
	_, err := bb.AppendTo(nil)
	assert.ErrorIs(t, err, ErrInvalidRecord)
	require.NoError(t, bb.AppendAt(3, 10, nil, nil))
	assert.ErrorIs(t, bb.AppendAt(3, 10, nil, nil), ErrInvalidRecord)
	require.NoError(t, bb.AppendAt(7, 5, nil, nil))
	bb.Append(20, nil, nil) // delta 8
	out, err := bb.AppendTo(nil)
	require.NoError(t, err)
	got := readAll(t, out)
	b := got[0].batch
	assert.Equal(t, int32(8), b.LastOffsetDelta)
	assert.Equal(t, int64(10), b.BaseTimestamp, "the first record's timestamp")
	assert.Equal(t, int64(20), b.MaxTimestamp)
	assert.Equal(t, []int64{3, 7, 8}, []int64{got[0].records[0].Offset, got[0].records[1].Offset, got[0].records[2].Offset})
	assert.Equal(t, []int64{10, 5, 20}, []int64{got[0].records[0].Timestamp, got[0].records[1].Timestamp, got[0].records[2].Timestamp})

	m := NewMessageSetBuilder(MagicV1, CompressionNone)
	require.NoError(t, m.Append(1, 1, nil, nil))
	_, err = m.AppendTo(nil)
	assert.ErrorIs(t, err, ErrCompression)
	_, err = AppendMessage(nil, MagicV2, 0, 0, 0, nil, nil)
	assert.ErrorIs(t, err, ErrMagic)
}

func TestLastSequenceWraps(t *testing.T) {
	b := Batch{Magic: MagicV2, BaseSequence: 1<<31 - 2, LastOffsetDelta: 3}
	assert.Equal(t, int32(1), b.LastSequence(), "MaxInt32-1 +3 wraps to 1 (Kafka's incrementSequence)")
	b.BaseSequence = NoSequence
	assert.Equal(t, NoSequence, b.LastSequence())
}

func TestControlBatchBuilder(t *testing.T) {
	bb := NewBatchBuilder()
	bb.Control, bb.Transactional = true, true
	bb.ProducerID, bb.ProducerEpoch = 5, 1
	bb.AppendControl(99, ControlAbort, AppendEndTxnMarkerValue(nil, 12))
	viaBuilder, err := bb.AppendTo(nil)
	require.NoError(t, err)
	direct := AppendEndTxnMarker(nil, EndTxnMarker{ProducerID: 5, ProducerEpoch: 1, CoordinatorEpoch: 12, Timestamp: 99,
		PartitionLeaderEpoch: NoPartitionLeaderEpoch})
	assert.Equal(t, direct, viaBuilder)
	_, err = ParseControlKey([]byte{0, 0, 1})
	assert.ErrorIs(t, err, ErrInvalidRecord)
	ct, err := ParseControlKey([]byte{0, 0, 0, 42})
	require.NoError(t, err)
	assert.Equal(t, ControlUnknown, ct)
	_, err = ParseEndTxnMarker([]byte{0, 0, 1})
	assert.ErrorIs(t, err, ErrInvalidRecord)
}
