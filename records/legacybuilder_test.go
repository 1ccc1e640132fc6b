package records

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMessageSetBuilderTimestamps: a builder from NewMessageSetBuilder
// writes CreateTime wrappers stamped with their messages' latest
// timestamp, or LogAppendTime ones when given the time; a magic 1 builder
// made as a composite literal, whose LogAppendTime is 0, is refused rather
// than stamping its wrappers 1970-01-01.
func TestMessageSetBuilderTimestamps(t *testing.T) {
	build := func(m *MessageSetBuilder) (Batch, error) {
		for i, ts := range []int64{1700000000005, 1700000000001} {
			if err := m.Append(int64(10+i), ts, nil, []byte("v")); err != nil {
				return Batch{}, err
			}
		}
		blob, err := m.AppendTo(nil)
		if err != nil {
			return Batch{}, err
		}
		got := readAll(t, blob)
		require.Len(t, got, 1)
		return got[0].batch, nil
	}

	b, err := build(NewMessageSetBuilder(MagicV1, CompressionGzip))
	require.NoError(t, err)
	assert.Equal(t, CreateTime, b.TimestampType())
	assert.Equal(t, int64(1700000000005), b.MaxTimestamp)

	m := NewMessageSetBuilder(MagicV1, CompressionLZ4)
	m.LogAppendTime = 1700000009999
	b, err = build(m)
	require.NoError(t, err)
	assert.Equal(t, LogAppendTime, b.TimestampType())
	assert.Equal(t, int64(1700000009999), b.MaxTimestamp)

	b, err = build(&MessageSetBuilder{Magic: MagicV0, Compression: CompressionGzip})
	require.NoError(t, err, "magic 0 has no timestamps: the zero LogAppendTime means nothing")
	assert.Equal(t, NoTimestampType, b.TimestampType())

	zero := &MessageSetBuilder{Magic: MagicV1, Compression: CompressionGzip}
	_, err = build(zero)
	require.ErrorIs(t, err, ErrInvalidRecord)
	assert.EqualError(t, err, "records: writing batch: LogAppendTime: invalid record: 0 would stamp the wrapper 1970-01-01: "+
		"start from NewMessageSetBuilder (CreateTime), or set -1 or the broker's append time")
	_, err = zero.AppendTo(nil)
	assert.ErrorIs(t, err, ErrInvalidRecord, "AppendTo refuses it too")
}

// TestAssignOffsetsKeepsLogAppendTimeZero: a wrapper that arrives stamped
// LogAppendTime 0 is rewritten as it came (only builders refuse 0).
func TestAssignOffsetsKeepsLogAppendTimeZero(t *testing.T) {
	m := NewMessageSetBuilder(MagicV1, CompressionGzip)
	m.LogAppendTime = 0
	require.NoError(t, m.append(0, 5, nil, []byte("v")))
	blob, err := m.appendTo(nil)
	require.NoError(t, err)

	out, next, err := AssignOffsets(nil, blob, 40, &Decompressor{}, nil)
	require.NoError(t, err)
	assert.Equal(t, int64(41), next)
	got := readAll(t, out)
	require.Len(t, got, 1)
	assert.Equal(t, LogAppendTime, got[0].batch.TimestampType())
	assert.Equal(t, int64(0), got[0].batch.MaxTimestamp)
	assert.Equal(t, int64(40), got[0].batch.BaseOffset)
}
