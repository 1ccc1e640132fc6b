package main

import (
	"errors"
	"fmt"
	"math"

	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// Kafka's defaults for the limits a Produce partition's records are held to.
const (
	// defaultMaxMessageBytes is Kafka's max.message.bytes: 1 MiB plus the
	// 12-byte log overhead (base offset and length) of a batch.
	defaultMaxMessageBytes = 1<<20 + 12
	// defaultTimestampAfterMaxMs is Kafka 4.0's
	// message.timestamp.after.max.ms: a record may be an hour ahead of the
	// broker's clock. message.timestamp.before.max.ms stays unbounded.
	defaultTimestampAfterMaxMs = 3600 * 1000
	// maxListedRecordErrors bounds the per-record errors one answer lists
	// (Kafka lists them all; a batch of 100,000 bad records would make an
	// answer of megabytes).
	maxListedRecordErrors = 100
)

// produceLimits are the limits a Produce partition's records are held to,
// named after Kafka's topic configs.
type produceLimits struct {
	maxMessageBytes      int   // max.message.bytes: the largest batch, log overhead included
	timestampBeforeMaxMs int64 // message.timestamp.before.max.ms
	timestampAfterMaxMs  int64 // message.timestamp.after.max.ms
}

// rejection is why a partition's records were refused: Kafka's error code,
// a message naming the batch (and record) at fault, and for the problems
// Kafka finds record by record (its RecordValidationException) the records
// at fault, which Produce v8+ answers list.
type rejection struct {
	code    int16
	message string
	records []recordError
}

// recordError is one record Kafka's per-record validation refused: its
// index in the batch and why.
type recordError struct {
	index   int32
	message string
}

func (r *rejection) Error() string { return r.message }

func reject(code int16, format string, args ...any) *rejection {
	return &rejection{code: code, message: fmt.Sprintf(format, args...)}
}

// produceErrorCode is the error code Kafka answers for a partition whose
// records incoming refused.
func produceErrorCode(err error) int16 {
	var r *rejection
	if errors.As(err, &r) {
		return r.code
	}
	return recordsErrorCode(err)
}

// recordsErrorCode is the error code Kafka answers for a records error of a
// Produce: CORRUPT_MESSAGE where the bytes cannot be trusted (a batch's
// length or magic, a checksum, data its codec cannot decompress), and
// INVALID_RECORD where a trusted batch's contents break the format (the
// record count, a record's lengths and varints, a legacy wrapper's inner
// messages), as Kafka's CorruptRecordException and InvalidRecordException
// divide them. (Kafka answers UNKNOWN_SERVER_ERROR for a codec's failure, a
// KafkaException it does not map; CORRUPT_MESSAGE says more.)
func recordsErrorCode(err error) int16 {
	var e *records.Error
	switch {
	case !errors.As(err, &e),
		errors.Is(err, records.ErrChecksum),
		errors.Is(err, records.ErrCorrupt),
		errors.Is(err, records.ErrTooLarge),
		errors.Is(err, records.ErrCompression),
		e.Record < 0 && (e.Field == "length" || e.Field == "magic"):
		return kerrors.CorruptMessage.Code
	}
	return kerrors.InvalidRecord.Code
}

// checkFraming is the first look at a partition's records, before any
// checksum is computed or anything decompressed, in the order Kafka looks:
// Produce v3+ carries exactly one batch, of magic 2, zstd only from v7
// (ProduceRequest.validateRecords); a client's v2 batch starts at offset 0
// and no batch is larger than max.message.bytes (UnifiedLog's
// analyzeAndValidateRecords); all batches have the first one's magic, and a
// v2 or compressed first batch is the only one (LogValidator). It returns
// the batches' count and first magic. The reader must have SkipCRC set.
func (t *recordTools) checkFraming(blob []byte, version int16, lim produceLimits) (count int, magic int8, err error) {
	compressed := false
	t.reader.Reset(blob)
	for ; t.reader.Next(); count++ {
		rb := t.reader.Batch()
		if count == 0 {
			magic = rb.Magic
		}
		compressed = compressed || rb.Compression() != records.CompressionNone
		switch {
		case version >= 3 && rb.Magic != records.MagicV2:
			return 0, 0, reject(kerrors.InvalidRecord.Code, "batch at byte %d has magic %d: produce v3 and later carry only record batches v2", rb.Pos, rb.Magic)
		case version >= 3 && count > 0:
			return 0, 0, reject(kerrors.InvalidRecord.Code, "a second batch at byte %d: produce v3 and later carry exactly one record batch per partition", rb.Pos)
		case version < 7 && rb.Compression() == records.CompressionZstd:
			return 0, 0, reject(kerrors.UnsupportedCompressionType.Code, "batch at byte %d is zstd-compressed: zstd needs produce v7 or later", rb.Pos)
		case rb.Magic == records.MagicV2 && rb.BaseOffset != 0:
			return 0, 0, reject(kerrors.InvalidRecord.Code, "batch at byte %d has base offset %d: a producer's batch starts at 0", rb.Pos, rb.BaseOffset)
		case len(rb.Raw) > lim.maxMessageBytes:
			return 0, 0, reject(kerrors.MessageTooLarge.Code, "batch at byte %d is %d bytes, over the limit of %d (max.message.bytes)", rb.Pos, len(rb.Raw), lim.maxMessageBytes)
		case rb.Magic != magic:
			return 0, 0, reject(kerrors.InvalidRecord.Code, "batch at byte %d has magic %d, the first batch magic %d: one magic per partition's records", rb.Pos, rb.Magic, magic)
		}
	}
	if err := t.reader.Err(); err != nil {
		return 0, 0, reject(recordsErrorCode(err), "%v", err)
	}
	switch tail := t.reader.Tail(); {
	case tail != nil:
		return 0, 0, reject(kerrors.InvalidRecord.Code, "%d bytes at byte %d are a batch cut short", len(tail), len(blob)-len(tail))
	case count == 0:
		return 0, 0, reject(kerrors.InvalidRecord.Code, "no record batches")
	case count > 1 && (magic == records.MagicV2 || compressed):
		return 0, 0, reject(kerrors.InvalidRecord.Code, "%d batches: records of magic 2, or compressed ones, come in exactly one batch", count)
	}
	return count, magic, nil
}

// checkBatchHeader is Kafka's LogValidator.validateBatch for a client's v2
// batch, read (and its checksum checked) but its records not yet: the
// offset range lastOffsetDelta+1 is positive and equals a positive record
// count, the batch is no control batch (only the transaction coordinator
// writes those), and a producer id comes with a sequence.
func checkBatchHeader(rb *records.Batch) error {
	span := int64(rb.LastOffsetDelta) + 1
	switch {
	case span <= 0:
		return reject(kerrors.InvalidRecord.Code, "batch at byte %d has lastOffsetDelta %d: its offset range is empty", rb.Pos, rb.LastOffsetDelta)
	case rb.NumRecords <= 0:
		return reject(kerrors.InvalidRecord.Code, "batch at byte %d declares %d records", rb.Pos, rb.NumRecords)
	case span != int64(rb.NumRecords):
		return reject(kerrors.InvalidRecord.Code, "batch at byte %d has lastOffsetDelta %d for %d records: it must be the count minus one", rb.Pos, rb.LastOffsetDelta, rb.NumRecords)
	case rb.IsControl():
		return reject(kerrors.InvalidRecord.Code, "batch at byte %d is a control batch: clients may not write control records", rb.Pos)
	case rb.ProducerID >= 0 && rb.BaseSequence < 0:
		return reject(kerrors.InvalidRecord.Code, "batch at byte %d has producer id %d and base sequence %d: an idempotent batch needs a sequence", rb.Pos, rb.ProducerID, rb.BaseSequence)
	}
	return nil
}

// recordCheck collects the problems Kafka finds record by record in one
// batch (LogValidator.validateRecord): timestamps out of bounds, and here
// also offset deltas out of order. Kafka rebuilds a compressed batch whose
// deltas are not 0, 1, 2... and stores an uncompressed one as sent; this
// broker stores batches as sent and so refuses both.
type recordCheck struct {
	lim           produceLimits
	now           int64
	logAppendTime bool
	errs          []recordError
	total         int
	timestamps    bool // a timestamp was out of bounds
	maxTimestamp  int64
}

func (c *recordCheck) reset(rb *records.Batch, lim produceLimits, now int64) {
	*c = recordCheck{lim: lim, now: now, logAppendTime: rb.TimestampType() == records.LogAppendTime,
		errs: c.errs[:0], maxTimestamp: records.NoTimestamp}
}

func (c *recordCheck) add(index int32, format string, args ...any) {
	c.total++
	if len(c.errs) < maxListedRecordErrors {
		c.errs = append(c.errs, recordError{index: index, message: fmt.Sprintf(format, args...)})
	}
}

// record checks the index-th record of a batch of magic.
func (c *recordCheck) record(index int32, rec *records.Record, magic int8) {
	if magic == records.MagicV2 && rec.OffsetDelta != index {
		c.add(index, "record %d has offset delta %d: a batch's records have deltas 0, 1, 2...", index, rec.OffsetDelta)
	}
	c.maxTimestamp = max(c.maxTimestamp, rec.Timestamp)
	ts := rec.Timestamp
	if ts == records.NoTimestamp {
		if c.logAppendTime {
			c.timestamps = true
			c.add(index, "record %d: a producer may not set the LogAppendTime timestamp type", index)
		}
		return
	}
	lo := c.now - c.lim.timestampBeforeMaxMs // no overflow: both are >= 0
	hi := int64(math.MaxInt64)
	if c.lim.timestampAfterMaxMs < math.MaxInt64-c.now {
		hi = c.now + c.lim.timestampAfterMaxMs
	}
	if ts < lo || ts > hi {
		c.timestamps = true
		c.add(index, "record %d has timestamp %d, outside [%d, %d] (the broker's time %d minus message.timestamp.before.max.ms, plus message.timestamp.after.max.ms)",
			index, ts, lo, hi, c.now)
	}
}

// err is the batch's rejection, nil when every record passed: Kafka's
// INVALID_TIMESTAMP when a timestamp was at fault, else INVALID_RECORD,
// with the records listed.
func (c *recordCheck) err(rb *records.Batch) error {
	if c.total == 0 {
		return nil
	}
	code := kerrors.InvalidRecord.Code
	if c.timestamps {
		code = kerrors.InvalidTimestamp.Code
	}
	msg := fmt.Sprintf("batch at byte %d: %d of its records refused; the first: %s", rb.Pos, c.total, c.errs[0].message)
	return &rejection{code: code, message: msg, records: append([]recordError(nil), c.errs...)}
}
