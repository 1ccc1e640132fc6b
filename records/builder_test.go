package records

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// builderSetups are header settings a batch can have, each applied after
// Reset or Start.
var builderSetups = []struct {
	name  string
	apply func(*BatchBuilder)
}{
	{"plain", func(*BatchBuilder) {}},
	{"idempotent", func(b *BatchBuilder) { b.ProducerID, b.ProducerEpoch, b.BaseSequence = 7, 2, 100 }},
	{"transactional", func(b *BatchBuilder) { b.ProducerID, b.BaseSequence, b.Transactional = 7, 0, true }},
	{"log append time", func(b *BatchBuilder) { b.LogAppendTime = 1700000009999 }},
	{"delete horizon", func(b *BatchBuilder) { b.DeleteHorizonMs = 1700000005000 }},
	{"leader epoch and offset", func(b *BatchBuilder) { b.PartitionLeaderEpoch, b.BaseOffset = 9, 1<<40 }},
}

// fillBuilder appends records of varied shapes.
func fillBuilder(b *BatchBuilder) {
	for i, s := range recordShapes()[:6] {
		b.Append(1700000000000+int64(i*7), s.key, s.value, s.headers...)
	}
}

// TestStartFinishMatchesAppendTo: a batch built straight into dst is the
// batch AppendTo writes, for every setup and codec, after what dst held.
func TestStartFinishMatchesAppendTo(t *testing.T) {
	for _, c := range append([]Compression{CompressionNone}, allCodecs...) {
		for _, setup := range builderSetups {
			t.Run(fmt.Sprintf("%s/%s", c, setup.name), func(t *testing.T) {
				bb := NewBatchBuilder()
				setup.apply(bb)
				bb.Compression = c
				fillBuilder(bb)
				want, err := bb.AppendTo([]byte("before"))
				require.NoError(t, err)

				bb.Start([]byte("before"))
				setup.apply(bb)
				bb.Compression = c
				fillBuilder(bb)
				got, err := bb.Finish()
				require.NoError(t, err)
				assert.Equal(t, want, got)
				assert.Zero(t, bb.NumRecords(), "Finish resets the builder")

				// The builder goes back to its own buffer afterwards.
				fillBuilder(bb)
				again, err := bb.AppendTo(nil)
				require.NoError(t, err)
				assert.Len(t, readAll(t, again)[0].records, 6)
			})
		}
	}
}

// TestStartFinishMisuse: Finish without Start, Finish with no records,
// AppendTo between Start and Finish, and Reset abandoning a started batch
// are refused or harmless, and never change what dst held.
func TestStartFinishMisuse(t *testing.T) {
	bb := NewBatchBuilder()
	_, err := bb.Finish()
	assert.ErrorIs(t, err, ErrInvalidRecord, "Finish without Start")

	dst := []byte("kept")
	bb.Start(dst)
	out, err := bb.Finish()
	assert.ErrorIs(t, err, ErrInvalidRecord, "no records")
	assert.Equal(t, "kept", string(out))

	bb.Start(dst)
	bb.Append(1, nil, []byte("v"))
	_, err = bb.AppendTo(nil)
	assert.ErrorIs(t, err, ErrInvalidRecord, "AppendTo after Start")

	bb.Reset() // abandons the started batch
	assert.Equal(t, "kept", string(dst))
	bb.Append(1, nil, []byte("v"))
	blob, err := bb.AppendTo(nil)
	require.NoError(t, err)
	assert.Equal(t, "v", string(readAll(t, blob)[0].records[0].Value))
	_, err = bb.Finish()
	assert.ErrorIs(t, err, ErrInvalidRecord, "no Start since the Reset")
}

// TestStartFinishGrows: dst without room grows as append would, the batch
// landing after its bytes.
func TestStartFinishGrows(t *testing.T) {
	bb := NewBatchBuilder()
	dst := make([]byte, 2, 2)
	dst[0], dst[1] = 'a', 'b'
	bb.Start(dst)
	bb.Append(5, []byte("key"), payload(100<<10, 1))
	out, err := bb.Finish()
	require.NoError(t, err)
	assert.Equal(t, "ab", string(out[:2]))
	got := readAll(t, out[2:])
	require.Len(t, got, 1)
	assert.Equal(t, payload(100<<10, 1), got[0].records[0].Value)
}

// The zero value's LogAppendTime, 0, would stamp the batch 1970-01-01:
// AppendTo and Finish refuse it and name the field; NewBatchBuilder's
// CreateTime and a real append time are written.
func TestBatchBuilderZeroValueRefused(t *testing.T) {
	var zero BatchBuilder
	zero.Append(1, nil, []byte("v"))
	_, err := zero.AppendTo(nil)
	require.ErrorIs(t, err, ErrInvalidRecord)
	assert.Contains(t, err.Error(), "LogAppendTime")
	assert.Contains(t, err.Error(), "NewBatchBuilder")

	var started BatchBuilder
	dst := []byte("prefix")
	started.Start(dst) // Start resets the header fields: only an explicit 0 is left to refuse
	started.LogAppendTime = 0
	started.Append(1, nil, []byte("v"))
	got, err := started.Finish()
	require.ErrorIs(t, err, ErrInvalidRecord)
	assert.Equal(t, "prefix", string(got), "dst as it was before Start")

	for _, logAppendTime := range []int64{NoTimestamp, 1700000009999} {
		b := NewBatchBuilder()
		b.LogAppendTime = logAppendTime
		b.Append(1, nil, []byte("v"))
		batch, err := b.AppendTo(nil)
		require.NoError(t, err)
		var r Reader
		r.Reset(batch)
		require.True(t, r.Next(), "%v", r.Err())
		assert.Equal(t, logAppendTime != NoTimestamp, r.Batch().TimestampType() == LogAppendTime)
	}
}
