package recordsdiff

import (
	"fmt"

	"github.com/kafkagen/kafkagen/records"
)

// batchView is what a batch means, in terms every library can produce:
// the test writes a view with one library and reads it back with another.
// Legacy messages use the v2 "absent" values for producer fields and
// leader epoch; a legacy view's BaseOffset is its first record's offset.
type batchView struct {
	Magic           int8
	BaseOffset      int64
	LastOffsetDelta int32
	LeaderEpoch     int32
	Codec           records.Compression
	LogAppendTime   bool
	Transactional   bool
	BaseTimestamp   int64
	MaxTimestamp    int64
	ProducerID      int64
	ProducerEpoch   int16
	BaseSequence    int32
	Records         []recordView
}

// recordView holds absolute offsets and the timestamp as written (base
// plus delta, before LogAppendTime replaces it).
type recordView struct {
	Offset    int64
	Timestamp int64
	Key       []byte
	Value     []byte
	Headers   []headerView
}

type headerView struct {
	Key   string
	Value []byte
}

func clone(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte{}, b...)
}

// readOurs reads a blob with the records package.
func readOurs(blob []byte) ([]batchView, error) {
	var r records.Reader
	r.Complete = true
	r.Reset(blob)
	var rr records.RecordReader
	var rec records.Record
	var d records.Decompressor
	var out []batchView
	for r.Next() {
		b := r.Batch()
		v := batchView{
			Magic: b.Magic, BaseOffset: b.BaseOffset, LastOffsetDelta: b.LastOffsetDelta, LeaderEpoch: b.PartitionLeaderEpoch,
			Codec: b.Compression(), LogAppendTime: b.TimestampType() == records.LogAppendTime, Transactional: b.IsTransactional(),
			BaseTimestamp: b.BaseTimestamp, MaxTimestamp: b.MaxTimestamp,
			ProducerID: b.ProducerID, ProducerEpoch: b.ProducerEpoch, BaseSequence: b.BaseSequence,
		}
		if err := rr.Reset(b, &d); err != nil {
			return nil, err
		}
		for rr.Next(&rec) {
			ts := rec.Timestamp
			if b.Magic == records.MagicV2 {
				ts = b.BaseTimestamp + rec.TimestampDelta
				reported := ts
				if v.LogAppendTime {
					reported = b.MaxTimestamp
				}
				if rec.Timestamp != reported || rec.Offset != b.BaseOffset+int64(rec.OffsetDelta) {
					return nil, fmt.Errorf("batch at %d: record timestamp %d / offset %d disagree with the deltas", b.Pos, rec.Timestamp, rec.Offset)
				}
			}
			rv := recordView{Offset: rec.Offset, Timestamp: ts, Key: clone(rec.Key), Value: clone(rec.Value)}
			for _, h := range rec.Headers {
				rv.Headers = append(rv.Headers, headerView{string(h.Key), clone(h.Value)})
			}
			v.Records = append(v.Records, rv)
		}
		if err := rr.Err(); err != nil {
			return nil, err
		}
		if b.Magic < records.MagicV2 {
			v.BaseOffset = v.Records[0].Offset
			v.LastOffsetDelta = int32(b.LastOffset() - v.BaseOffset)
		}
		out = append(out, v)
	}
	return out, r.Err()
}

// writeOurs writes views with the records package.
func writeOurs(views []batchView) ([]byte, error) {
	var blob []byte
	var err error
	bb := records.NewBatchBuilder()
	for _, v := range views {
		if v.Magic < records.MagicV2 {
			if blob, err = writeOursLegacy(blob, v); err != nil {
				return nil, err
			}
			continue
		}
		bb.Reset()
		bb.BaseOffset, bb.PartitionLeaderEpoch = v.BaseOffset, v.LeaderEpoch
		bb.ProducerID, bb.ProducerEpoch, bb.BaseSequence = v.ProducerID, v.ProducerEpoch, v.BaseSequence
		bb.Transactional, bb.Compression = v.Transactional, v.Codec
		if v.LogAppendTime {
			bb.LogAppendTime = v.MaxTimestamp
		}
		for _, r := range v.Records {
			var hs []records.Header
			for _, h := range r.Headers {
				hs = append(hs, records.Header{Key: []byte(h.Key), Value: h.Value})
			}
			if err := bb.AppendAt(int32(r.Offset-v.BaseOffset), r.Timestamp, r.Key, r.Value, hs...); err != nil {
				return nil, err
			}
		}
		if blob, err = bb.AppendTo(blob); err != nil {
			return nil, err
		}
	}
	return blob, nil
}

func writeOursLegacy(blob []byte, v batchView) ([]byte, error) {
	if v.Codec == records.CompressionNone {
		r := v.Records[0]
		return records.AppendMessage(blob, v.Magic, r.Offset, r.Timestamp, 0, r.Key, r.Value)
	}
	m := records.NewMessageSetBuilder(v.Magic, v.Codec)
	for _, r := range v.Records {
		if err := m.Append(r.Offset, r.Timestamp, r.Key, r.Value); err != nil {
			return nil, err
		}
	}
	return m.AppendTo(blob)
}
