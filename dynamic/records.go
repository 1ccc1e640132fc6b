package dynamic

import (
	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/runtime/codec"
)

// RecordsWriter writes the value of a records field as the batches and
// records it holds (Options.Records), with the keys of Kafka's own view of
// them (the Java batch and record accessors): every batch's header fields,
// then its records with offsets and timestamps resolved, keys, values and
// header values in base64, and control records named. Reuse one: its
// decompression buffer is kept.
type RecordsWriter struct {
	dec records.Decompressor
	r   records.Reader
	rr  records.RecordReader
	rec records.Record
}

// Append writes blob as
//
//	{"batches":[{batch..., "records":[...]}, ...]}
//
// with "partialTail" (base64) after a batch cut short at the end, as brokers
// cut Fetch responses, and, when a batch or record cannot be read,
// "error" and "unread" (the base64 of the bytes from that batch on), so
// that nothing is lost.
func (w *RecordsWriter) Append(b, blob []byte) []byte {
	b = append(b, `{"batches":[`...)
	w.r.Reset(blob)
	var failure error
	unread := 0
	for n := 0; w.r.Next(); n++ {
		batch := w.r.Batch()
		mark := len(b)
		if n > 0 {
			b = append(b, ',')
		}
		err := w.rr.Reset(batch, &w.dec)
		if err == nil {
			b = w.appendBatch(b, batch)
			err = w.rr.Err()
		}
		if err != nil {
			b = b[:mark]
			failure, unread = err, batch.Pos
			break
		}
	}
	if failure == nil && w.r.Err() != nil {
		failure = w.r.Err()
		unread = errorPos(failure, len(blob))
	}
	b = append(b, ']')
	if tail := w.r.Tail(); tail != nil {
		b = append(b, `,"partialTail":`...)
		b = codec.AppendJSONBytes(b, tail)
	}
	if failure != nil {
		b = append(b, `,"error":`...)
		b = codec.AppendJSONString(b, failure.Error())
		b = append(b, `,"unread":`...)
		b = codec.AppendJSONBytes(b, blob[unread:])
	}
	return append(b, '}')
}

// errorPos is the batch position a records error names, or the end.
func errorPos(err error, end int) int {
	if e, ok := err.(*records.Error); ok && e.Pos >= 0 && e.Pos <= end {
		return e.Pos
	}
	return end
}

func (w *RecordsWriter) appendBatch(b []byte, bt *records.Batch) []byte {
	v2 := bt.Magic >= records.MagicV2
	field := func(key string) { b = append(b, `,"`+key+`":`...) }
	num := func(key string, v int64) { field(key); b = codec.AppendJSONInt(b, v) }
	flag := func(key string, v bool) { field(key); b = codec.AppendJSONBool(b, v) }
	str := func(key, v string) { field(key); b = codec.AppendJSONString(b, v) }

	// Java reports a legacy wrapper's base offset as its first inner
	// record's; the wrapper's own offset field is its last.
	base := bt.BaseOffset
	var recs []byte
	count := 0
	for w.rr.Next(&w.rec) {
		if count == 0 && !v2 {
			base = w.rec.Offset
		}
		if count > 0 {
			recs = append(recs, ',')
		}
		recs = appendRecord(recs, &w.rec, bt.IsControl())
		count++
	}
	b = append(b, `{"magic":`...)
	b = codec.AppendJSONInt(b, int64(bt.Magic))
	num("baseOffset", base)
	num("lastOffset", bt.LastOffset())
	num("sizeInBytes", int64(len(bt.Raw)))
	field("countOrNull")
	if v2 {
		b = codec.AppendJSONInt(b, int64(bt.NumRecords))
	} else {
		b = append(b, "null"...)
	}
	num("partitionLeaderEpoch", int64(bt.PartitionLeaderEpoch))
	num("crc", int64(bt.CRC))
	if v2 {
		num("baseTimestamp", bt.BaseTimestamp)
	}
	num("attributes", int64(bt.Attributes&0xff))
	str("compression", bt.Compression().String())
	num("producerId", bt.ProducerID)
	num("producerEpoch", int64(bt.ProducerEpoch))
	num("baseSequence", int64(bt.BaseSequence))
	num("lastSequence", int64(bt.LastSequence()))
	flag("isTransactional", bt.IsTransactional())
	flag("isControl", bt.IsControl())
	str("timestampType", bt.TimestampType().String())
	num("maxTimestamp", bt.MaxTimestamp)
	field("deleteHorizonMs")
	if h := bt.DeleteHorizonMs(); h != records.NoTimestamp {
		b = codec.AppendJSONInt(b, h)
	} else {
		b = append(b, "null"...)
	}
	field("records")
	b = append(b, '[')
	b = append(b, recs...)
	return append(b, "]}"...)
}

// appendRecord writes one record; control records get "control" with the
// type and, for transaction markers, the coordinator epoch.
func appendRecord(b []byte, r *records.Record, control bool) []byte {
	b = append(b, `{"offset":`...)
	b = codec.AppendJSONInt(b, r.Offset)
	b = append(b, `,"timestamp":`...)
	b = codec.AppendJSONInt(b, r.Timestamp)
	b = append(b, `,"sequence":`...)
	b = codec.AppendJSONInt(b, int64(r.Sequence))
	b = append(b, `,"sizeInBytes":`...)
	b = codec.AppendJSONInt(b, int64(r.Size))
	b = append(b, `,"key":`...)
	b = appendNullBytes(b, r.Key)
	b = append(b, `,"value":`...)
	b = appendNullBytes(b, r.Value)
	b = append(b, `,"headers":[`...)
	for i, h := range r.Headers {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"key":`...)
		b = codec.AppendJSONString(b, string(h.Key))
		b = append(b, `,"value":`...)
		b = appendNullBytes(b, h.Value)
		b = append(b, '}')
	}
	b = append(b, ']')
	if control {
		if t, err := r.ControlType(); err == nil {
			b = append(b, `,"control":{"type":`...)
			b = codec.AppendJSONString(b, t.String())
			b = append(b, `,"typeId":`...)
			b = codec.AppendJSONInt(b, int64(t))
			if t == records.ControlAbort || t == records.ControlCommit {
				if epoch, err := records.ParseEndTxnMarker(r.Value); err == nil {
					b = append(b, `,"coordinatorEpoch":`...)
					b = codec.AppendJSONInt(b, int64(epoch))
				}
			}
			b = append(b, '}')
		}
	}
	return append(b, '}')
}

func appendNullBytes(b, v []byte) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	return codec.AppendJSONBytes(b, v)
}
