package main

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

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
	check   recordCheck
	// conv converts the log's batches down for Fetch v0-3; converted
	// says it holds views of them until forget.
	conv      records.Converter
	converted bool
	// held is the largest buffer the decompressor or builder may now
	// keep: the connection drops its tools when it passes keepBufferBytes.
	held int
}

// decompressions lets one Produce at a time decompress: a batch may
// decompress to records.DefaultLimit (64 MiB), and 30 connections sending
// gzip bombs at once held 2.8 GiB (issue 18). Kafka decompresses as it
// reads records; records.RecordReader decompresses a batch whole.
var decompressions = make(chan struct{}, 1)

// incoming validates a Produce partition's records blob as Kafka does
// (validate.go) and returns the batch to append: a v2 batch as sent, or a
// legacy message set (magic 0 or 1, Produce v0-v2) converted into one v2
// batch, as Kafka converts on append. now is the broker's time in
// milliseconds, for the timestamp bounds. A refusal is a *rejection.
func (t *recordTools) incoming(blob []byte, version int16, lim produceLimits, now int64) (incomingBatch, error) {
	t.reader.Complete, t.reader.SkipCRC = false, true
	_, magic, err := t.checkFraming(blob, version, lim)
	if err != nil {
		return incomingBatch{}, err
	}
	legacy := magic < records.MagicV2
	var v2 incomingBatch
	converting := 0 // bytes of legacy records the builder holds
	inflating := false
	defer func() {
		if inflating {
			// The records are checked: a large output is dropped before the
			// next Produce may decompress, not when the connection idles.
			if t.held > keepBufferBytes {
				t.rr, t.rec = records.RecordReader{}, records.Record{}
				t.dec = newMeasuredDecompressor(&t.held)
			}
			<-decompressions
		}
	}()
	t.reader.SkipCRC = false
	t.reader.Reset(blob)
	for t.reader.Next() {
		rb := t.reader.Batch()
		if !legacy {
			if err := checkBatchHeader(rb); err != nil {
				return incomingBatch{}, err
			}
		} else if rb.Pos == 0 {
			t.builder.Reset()
			t.builder.Compressor = &t.comp
			t.builder.Compression = rb.Compression()
		}
		if !inflating && rb.Compression() != records.CompressionNone {
			decompressions <- struct{}{}
			inflating = true
		}
		if err := t.rr.Reset(rb, &t.dec); err != nil {
			return incomingBatch{}, reject(recordsErrorCode(err), "%v", err)
		}
		t.check.reset(rb, lim, now)
		for i := int32(0); t.rr.Next(&t.rec); i++ {
			t.check.record(i, &t.rec, rb.Magic)
			if legacy {
				t.builder.Append(t.rec.Timestamp, t.rec.Key, t.rec.Value)
				converting += len(t.rec.Key) + len(t.rec.Value)
				t.held = max(t.held, converting)
			}
		}
		if err := t.rr.Err(); err != nil {
			return incomingBatch{}, reject(recordsErrorCode(err), "%v", err)
		}
		if err := t.check.err(rb); err != nil {
			return incomingBatch{}, err
		}
		if !legacy {
			v2 = storable(rb, t.check.maxTimestamp)
		}
	}
	if err := t.reader.Err(); err != nil {
		return incomingBatch{}, reject(recordsErrorCode(err), "%v", err)
	}
	if legacy {
		return t.convertLegacy(lim)
	}
	return v2, nil
}

// storable copies a validated v2 batch out of the request for the log,
// with its max timestamp set to its records' largest, as Kafka sets it
// (and the checksum over it recomputed) when the producer's differs.
func storable(rb *records.Batch, maxTimestamp int64) incomingBatch {
	data := bytes.Clone(rb.Raw)
	meta := metaOf(rb)
	if rb.TimestampType() == records.CreateTime && maxTimestamp != rb.MaxTimestamp {
		binary.BigEndian.PutUint64(data[batchMaxTimestampPos:], uint64(maxTimestamp))
		binary.BigEndian.PutUint32(data[batchCRCPos:], records.CRC32C(data[batchAttributesPos:]))
		meta.MaxTimestamp = maxTimestamp
	}
	return incomingBatch{meta: meta, data: data}
}

// convertLegacy finishes the v2 batch the legacy messages were appended to,
// which must fit max.message.bytes too, as Kafka checks a converted batch.
func (t *recordTools) convertLegacy(lim produceLimits) (incomingBatch, error) {
	data, err := t.builder.AppendTo(nil)
	if err != nil {
		return incomingBatch{}, reject(kerrors.InvalidRecord.Code, "converting the message set to a v2 batch: %v", err)
	}
	if len(data) > lim.maxMessageBytes {
		return incomingBatch{}, reject(kerrors.MessageTooLarge.Code, "the message set converted to a v2 batch is %d bytes, over the limit of %d (max.message.bytes)", len(data), lim.maxMessageBytes)
	}
	var rb records.Batch
	if err := records.ReadBatch(&rb, data, 0); err != nil {
		return incomingBatch{}, reject(kerrors.CorruptMessage.Code, "reading the converted message set: %v", err)
	}
	return incomingBatch{meta: metaOf(&rb), data: data}, nil
}

// fetchRecords is the records blob of a partition's Fetch answer from the
// batches chosen for it: the v2 batches whole (Fetch v4+), or a message set
// of magic for older consumers, converted down as Kafka did
// (records.Converter.DownConvert; docs/protocol.md, "Down-conversion"),
// within maxBytes (the first batch's records whatever their size when
// takeFirst). A zstd batch cannot be converted: records.ErrZstdDownConvert.
func (t *recordTools) fetchRecords(batches []storedBatch, offset int64, maxBytes int, takeFirst bool, magic int8) ([]byte, error) {
	if magic == records.MagicV2 {
		return joinBatches(batches), nil
	}
	t.converted = true
	defer t.conv.Trim(keepBufferBytes)
	out := []byte{}
	for i := range batches {
		before := len(out)
		// One batch at a time, so that the limit is the broker's: the
		// Converter always takes the first batch of what it is given.
		converted, err := t.conv.DownConvert(out, batches[i].data, magic, offset, maxBytes-before)
		if err != nil {
			return []byte{}, err
		}
		if len(converted) > maxBytes && !(takeFirst && before == 0) {
			break
		}
		out = converted
	}
	return out, nil
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

// offsetForTime is the offset and timestamp of the first record of sb
// whose timestamp is at or after ts (ListOffsets by time), or -1, -1.
func (t *recordTools) offsetForTime(sb *storedBatch, ts int64) (int64, int64) {
	if t.readStored(sb) != nil {
		return -1, -1
	}
	for t.rr.Next(&t.rec) {
		if t.rec.Timestamp >= ts {
			return t.rec.Offset, t.rec.Timestamp
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
