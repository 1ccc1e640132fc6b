package records

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readBack is our view of one batch in Java's terms.
type readBack struct {
	batch   Batch
	records []Record
}

// readAll reads every batch and record of blob, copying the records'
// slices so that the result outlives the Decompressor's buffer.
func readAll(t testing.TB, blob []byte) []readBack {
	t.Helper()
	var r Reader
	r.Complete = true
	r.Reset(blob)
	var d Decompressor
	var out []readBack
	for r.Next() {
		rb := readBack{batch: *r.Batch()}
		var rr RecordReader
		require.NoError(t, rr.Reset(r.Batch(), &d))
		var rec Record
		for rr.Next(&rec) {
			c := rec
			c.Key, c.Value = clone(rec.Key), clone(rec.Value)
			c.Headers = nil
			for _, h := range rec.Headers {
				c.Headers = append(c.Headers, Header{clone(h.Key), clone(h.Value)})
			}
			rb.records = append(rb.records, c)
		}
		require.NoError(t, rr.Err())
		out = append(out, rb)
	}
	require.NoError(t, r.Err())
	require.Nil(t, r.Tail())
	return out
}

func clone(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte{}, b...)
}

// TestJavaRecordSets reads each of Kafka's 100 Java-written record sets to
// exactly Java's view of every batch and record.
func TestJavaRecordSets(t *testing.T) {
	sets := loadJavaSets(t)
	require.Len(t, sets, 100)
	batches, records := 0, 0
	for _, s := range sets {
		t.Run(fmt.Sprint(s.ID), func(t *testing.T) {
			got := readAll(t, s.bytes(t))
			require.Len(t, got, len(s.Batches))
			for i, want := range s.Batches {
				assertJavaBatch(t, fmt.Sprintf("set %d batch %d", s.ID, i), want, got[i])
				batches++
				records += len(got[i].records)
			}
		})
	}
	t.Logf("java record sets: sets=%d batches=%d records=%d", len(sets), batches, records)
}

func assertJavaBatch(t *testing.T, where string, want javaBatch, got readBack) {
	b := &got.batch
	require.Len(t, got.records, len(want.Records), where)
	base := b.BaseOffset
	if b.Magic < MagicV2 && len(got.records) > 0 {
		base = got.records[0].Offset // Java: a wrapper's first inner offset
	}
	assert.Equal(t, want.Magic, b.Magic, where)
	assert.Equal(t, want.BaseOffset, base, where)
	assert.Equal(t, want.LastOffset, b.LastOffset(), where)
	assert.Equal(t, want.SizeInBytes, len(b.Raw), where)
	if want.CountOrNull != nil {
		assert.Equal(t, *want.CountOrNull, b.NumRecords, where)
	} else {
		assert.Less(t, b.Magic, MagicV2, where)
	}
	assert.Equal(t, want.PartitionLeaderEpoch, b.PartitionLeaderEpoch, where)
	assert.Equal(t, want.CRC, b.CRC, where)
	assert.True(t, want.IsValid, where)
	if want.BaseTimestamp != nil {
		assert.Equal(t, *want.BaseTimestamp, b.BaseTimestamp, where)
	}
	assert.Equal(t, want.Attributes, int(b.Attributes&0xff), where)
	assert.Equal(t, want.Compression, b.Compression().String(), where)
	assert.Equal(t, want.ProducerID, b.ProducerID, where)
	assert.Equal(t, want.ProducerEpoch, b.ProducerEpoch, where)
	assert.Equal(t, want.BaseSequence, b.BaseSequence, where)
	assert.Equal(t, want.LastSequence, b.LastSequence(), where)
	assert.Equal(t, want.IsTransactional, b.IsTransactional(), where)
	assert.Equal(t, want.IsControl, b.IsControl(), where)
	assert.Equal(t, want.TimestampType, b.TimestampType().String(), where)
	assert.Equal(t, want.MaxTimestamp, b.MaxTimestamp, where)
	if want.DeleteHorizonMs != nil {
		assert.Equal(t, *want.DeleteHorizonMs, b.DeleteHorizonMs(), where)
	} else {
		assert.Equal(t, NoTimestamp, b.DeleteHorizonMs(), where)
	}
	for j, wr := range want.Records {
		r := &got.records[j]
		w := fmt.Sprintf("%s record %d", where, j)
		assert.Equal(t, wr.Offset, r.Offset, w)
		assert.Equal(t, wr.Timestamp, r.Timestamp, w)
		assert.Equal(t, wr.Sequence, r.Sequence, w)
		assert.Equal(t, wr.SizeInBytes, r.Size, w)
		assert.Equal(t, nullableBase64(t, wr.Key), r.Key, w)
		assert.Equal(t, nullableBase64(t, wr.Value), r.Value, w)
		require.Len(t, r.Headers, len(wr.Headers), w)
		for k, wh := range wr.Headers {
			assert.Equal(t, wh.Key, string(r.Headers[k].Key), w)
			assert.Equal(t, nullableBase64(t, wh.Value), r.Headers[k].Value, w)
		}
		if wr.Control == nil {
			assert.False(t, b.IsControl(), w)
			continue
		}
		require.True(t, b.IsControl(), w)
		ct, err := r.ControlType()
		require.NoError(t, err, w)
		assert.Equal(t, wr.Control.TypeID, int16(ct), w)
		assert.Equal(t, wr.Control.Type, ct.String(), w)
		if wr.Control.CoordinatorEpoch != nil {
			epoch, err := ParseEndTxnMarker(r.Value)
			require.NoError(t, err, w)
			assert.Equal(t, *wr.Control.CoordinatorEpoch, epoch, w)
		}
	}
}
