package main

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/wire"
)

// What Kafka's ProduceRequest.validateRecords refuses in a partition's
// records, before reading them further.
var (
	// errNeedsV2: a legacy message set in Produce v3 or later (INVALID_RECORD).
	errNeedsV2 = errors.New("produce v3 and later carry only record batches v2")
	// errOneBatch: Produce v3 and later carry exactly one batch per
	// partition (INVALID_RECORD).
	errOneBatch = errors.New("produce v3 and later carry exactly one record batch per partition")
	// errZstdBeforeV7: zstd needs Produce v7 (UNSUPPORTED_COMPRESSION_TYPE).
	errZstdBeforeV7 = errors.New("zstd compression needs produce v7 or later")
)

// produceErrorCode is the error code Kafka answers for a partition whose
// records incoming refused.
func produceErrorCode(err error) int16 {
	switch {
	case errors.Is(err, errNeedsV2), errors.Is(err, errOneBatch):
		return wire.InvalidRecord.Code
	case errors.Is(err, errZstdBeforeV7):
		return wire.UnsupportedCompressionType.Code
	}
	return wire.CorruptMessage.Code
}

// recordTools are one connection's reusable record readers, decompressor
// and builders (none of which is safe for concurrent use).
type recordTools struct {
	reader  records.Reader
	stored  records.Reader // over the log's own batches: CRCs already checked
	rr      records.RecordReader
	rec     records.Record
	dec     records.Decompressor
	comp    records.Compressor
	builder records.BatchBuilder
}

// incoming reads a Produce request's records blob: every batch must be
// whole and pass its CRC, and its records must read. v2 batches are kept as
// they are; a legacy message set (magic 0 or 1, Produce v0-v2) is converted
// into one v2 batch, as Kafka does on append.
func (t *recordTools) incoming(blob []byte, version int16) ([]incomingBatch, error) {
	var out []incomingBatch
	legacy := false
	t.reader.Complete = true
	t.reader.Reset(blob)
	for t.reader.Next() {
		rb := t.reader.Batch()
		switch {
		case rb.Magic < records.MagicV2 && version >= 3:
			return nil, fmt.Errorf("batch at byte %d has magic %d: %w", rb.Pos, rb.Magic, errNeedsV2)
		case version >= 3 && rb.Pos > 0:
			return nil, fmt.Errorf("a second batch at byte %d: %w", rb.Pos, errOneBatch)
		case rb.Compression() == records.CompressionZstd && version < 7:
			return nil, fmt.Errorf("batch at byte %d, produce v%d: %w", rb.Pos, version, errZstdBeforeV7)
		}
		if err := t.rr.Reset(rb, &t.dec); err != nil {
			return nil, err
		}
		if rb.Magic == records.MagicV2 {
			for t.rr.Next(&t.rec) {
			}
		} else {
			if !legacy {
				t.builder.Reset()
				t.builder.Compressor = &t.comp
				t.builder.Compression = rb.Compression()
				legacy = true
			}
			for t.rr.Next(&t.rec) {
				t.builder.Append(t.rec.Timestamp, t.rec.Key, t.rec.Value)
			}
		}
		if err := t.rr.Err(); err != nil {
			return nil, err
		}
		if rb.Magic == records.MagicV2 {
			out = append(out, incomingBatch{meta: metaOf(rb), data: bytes.Clone(rb.Raw)})
		}
	}
	if err := t.reader.Err(); err != nil {
		return nil, err
	}
	if legacy {
		data, err := t.builder.AppendTo(nil)
		if err != nil {
			return nil, fmt.Errorf("converting the message set to a v2 batch: %w", err)
		}
		var rb records.Batch
		if err := records.ReadBatch(&rb, data, 0); err != nil {
			return nil, fmt.Errorf("reading the converted message set: %w", err)
		}
		out = append(out, incomingBatch{meta: metaOf(&rb), data: data})
	}
	return out, nil
}

// fetchRecords returns the records a Fetch gets from a log: whole v2
// batches from the one holding offset (Fetch v4+), or their records as a
// legacy message set of the given magic for older consumers, uncompressed
// and without control batches, as Kafka converts them down. It also returns
// the last offset returned.
func (t *recordTools) fetchRecords(log *partitionLog, offset, upTo int64, maxBytes int, takeFirst bool, magic int8) ([]byte, int64) {
	if magic == records.MagicV2 {
		return log.read(nil, offset, upTo, maxBytes, takeFirst)
	}
	out := []byte{}
	last := int64(-1)
	for i := log.find(offset); i < len(log.batches); i++ {
		sb := &log.batches[i]
		if sb.LastOffset >= upTo {
			break
		}
		if sb.Control {
			continue
		}
		before := len(out)
		converted, err := t.downConvert(out, sb, offset, magic)
		if err != nil { // the log holds only batches it read back: unreachable
			break
		}
		if len(converted) > maxBytes && !(takeFirst && before == 0) {
			break
		}
		out, last = converted, sb.LastOffset
	}
	return out, last
}

// downConvert appends a stored batch's records from offset on as legacy
// messages of magic 0 or 1.
func (t *recordTools) downConvert(dst []byte, sb *storedBatch, from int64, magic int8) ([]byte, error) {
	if err := t.readStored(sb); err != nil {
		return dst, err
	}
	for t.rr.Next(&t.rec) {
		if t.rec.Offset < from {
			continue
		}
		var err error
		if dst, err = records.AppendMessage(dst, magic, t.rec.Offset, t.rec.Timestamp, 0, t.rec.Key, t.rec.Value); err != nil {
			return dst, err
		}
	}
	return dst, t.rr.Err()
}

// readStored starts reading the records of a batch of the log.
func (t *recordTools) readStored(sb *storedBatch) error {
	t.stored.SkipCRC = true
	t.stored.Reset(sb.data)
	if !t.stored.Next() {
		if err := t.stored.Err(); err != nil {
			return err
		}
		return fmt.Errorf("stored batch at offset %d is incomplete", sb.BaseOffset)
	}
	return t.rr.Reset(t.stored.Batch(), &t.dec)
}

// offsetForTime is the offset and timestamp of the first record whose
// timestamp is at or after ts (ListOffsets by time), or -1, -1.
func (t *recordTools) offsetForTime(log *partitionLog, ts int64) (int64, int64) {
	for i := range log.batches {
		sb := &log.batches[i]
		if sb.Control || sb.MaxTimestamp < ts {
			continue
		}
		if t.readStored(sb) != nil {
			continue
		}
		for t.rr.Next(&t.rec) {
			if t.rec.Timestamp >= ts {
				return t.rec.Offset, t.rec.Timestamp
			}
		}
	}
	return -1, -1
}

// controlBatch is a transaction marker batch, its offset to be assigned.
func controlBatch(producerID int64, epoch int16, commit bool, timestamp int64) []byte {
	return records.AppendEndTxnMarker(nil, records.EndTxnMarker{
		ProducerID: producerID, ProducerEpoch: epoch, Commit: commit, Timestamp: timestamp,
		PartitionLeaderEpoch: 0,
	})
}
