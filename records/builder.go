package records

import (
	"encoding/binary"
	"strconv"
)

// BatchBuilder builds v2 record batches. Set its header fields, append
// records, then AppendTo writes the batch, computing the last offset
// delta, the timestamps, the length and the CRC. Reset it to build the next
// one: its buffers are kept, so building allocates nothing in steady state
// (compressing too, once its Compressor's codecs exist).
//
// Start and Finish build a batch straight into the caller's buffer
// instead, sparing AppendTo's copy of the records: Start(dst) begins the
// batch at the end of dst, Append encodes each record in place, and Finish
// fills in the header and returns dst with the batch.
//
// Start from NewBatchBuilder, or call Reset, to get Kafka's "absent"
// values: the zero value holds producer id 0 and the like, and its
// LogAppendTime, 0, would stamp the batch LogAppendTime 1970-01-01, so
// AppendTo and Finish refuse it.
type BatchBuilder struct {
	BaseOffset           int64
	PartitionLeaderEpoch int32
	ProducerID           int64
	ProducerEpoch        int16
	BaseSequence         int32
	Transactional        bool
	// Control marks a batch of control records (see AppendControl).
	Control     bool
	Compression Compression
	// Compressor compresses the records when Compression is set; nil uses
	// one the builder creates on first need and keeps.
	Compressor *Compressor
	// LogAppendTime, when not -1, makes the batch LogAppendTime with this
	// max timestamp (records keep their own timestamps, as in Java); 0 is
	// refused.
	LogAppendTime int64
	// DeleteHorizonMs, when not -1, sets the delete-horizon attribute and
	// becomes the base timestamp; set it before appending records.
	DeleteHorizonMs int64

	// buf holds the encoded records, uncompressed, from start on: the
	// builder's own buffer, or between Start and Finish the caller's, with
	// room for the header before start.
	buf       []byte
	start     int
	direct    bool   // buf is the caller's (Start)
	own       []byte // the builder's buffer while buf is the caller's
	scratch   []byte // compressed records
	ownComp   *Compressor
	count     int32
	lastDelta int32
	baseTime  int64
	maxTime   int64
}

// NewBatchBuilder returns a builder with Kafka's absent values: no
// producer id, epoch or sequence, no leader epoch, CreateTime, no delete
// horizon, no compression.
func NewBatchBuilder() *BatchBuilder {
	b := &BatchBuilder{}
	b.Reset()
	return b
}

// Reset drops the records and restores NewBatchBuilder's header fields,
// keeping the Compressor and every buffer. A batch begun with Start is
// abandoned: dst keeps what it held before Start, and the builder forgets
// it.
func (b *BatchBuilder) Reset() {
	own := b.buf[:0]
	if b.direct {
		own = b.own[:0]
	}
	*b = BatchBuilder{
		PartitionLeaderEpoch: NoPartitionLeaderEpoch,
		ProducerID:           NoProducerID,
		ProducerEpoch:        NoProducerEpoch,
		BaseSequence:         NoSequence,
		LogAppendTime:        NoTimestamp,
		DeleteHorizonMs:      NoTimestamp,
		Compressor:           b.Compressor,
		buf:                  own,
		scratch:              b.scratch[:0],
		ownComp:              b.ownComp,
	}
}

// Start resets the builder (as Reset does) and begins a batch at the end
// of dst: records appended from now on are encoded straight into dst, after
// room for the header, and Finish completes the batch. Leave dst alone
// until Finish returns it, grown as append grows a slice when its capacity
// runs out (each record reserves a little more than it takes while it is
// written).
func (b *BatchBuilder) Start(dst []byte) {
	b.Reset()
	at := len(dst)
	dst = grow(dst, v2HeaderSize)
	b.own, b.buf, b.start, b.direct = b.buf, dst[:at+v2HeaderSize], at+v2HeaderSize, true
}

// Finish completes the batch Start began (header, compression, length and
// CRC), returns dst with it, and resets the builder, which no longer refers
// to dst. On an error (no records, a codec failing, no Start) the returned
// slice is dst as it was before Start.
func (b *BatchBuilder) Finish() ([]byte, error) {
	if !b.direct {
		return nil, writeError("records", ErrInvalidRecord, "Finish without Start")
	}
	dst, at := b.buf, b.start-v2HeaderSize
	defer b.Reset()
	if err := b.check(); err != nil {
		return dst[:at], err
	}
	if b.Compression != CompressionNone {
		z, err := b.compressor()
		if err == nil {
			b.scratch, err = z.AppendCompressed(b.scratch[:0], b.Compression, MagicV2, dst[b.start:])
		}
		if err != nil {
			return dst[:at], err
		}
		dst = append(dst[:b.start], b.scratch...)
	}
	h := b.header()
	h.put(dst[at:])
	finishV2(dst[at:])
	return dst, nil
}

// NumRecords is the number of records appended since Reset.
func (b *BatchBuilder) NumRecords() int { return int(b.count) }

// Append adds a record at the next offset (delta 0 for the first). A nil
// key or value is null. The key, value and headers are copied: the caller
// may reuse them as soon as Append returns.
func (b *BatchBuilder) Append(timestamp int64, key, value []byte, headers ...Header) {
	delta := int32(0)
	if b.count > 0 {
		delta = b.lastDelta + 1
	}
	b.add(delta, timestamp, key, value, headers)
}

// AppendAt adds a record at an explicit offset delta, which must be above
// the previous record's: compacted batches have gaps.
func (b *BatchBuilder) AppendAt(offsetDelta int32, timestamp int64, key, value []byte, headers ...Header) error {
	if offsetDelta < 0 || (b.count > 0 && offsetDelta <= b.lastDelta) {
		return writeError("offset delta", ErrInvalidRecord,
			strconv.Itoa(int(offsetDelta))+" after "+strconv.Itoa(int(b.lastDelta)))
	}
	b.add(offsetDelta, timestamp, key, value, headers)
	return nil
}

// AppendControl adds a control record of type t with the given value
// (AppendEndTxnMarkerValue builds a commit or abort marker's). Set Control
// (and usually Transactional) for the batch.
func (b *BatchBuilder) AppendControl(timestamp int64, t ControlType, value []byte) {
	var key [4]byte
	b.Append(timestamp, AppendControlKey(key[:0], t), value)
}

// AppendTo appends the batch to dst. It does not reset the builder. A
// batch begun with Start is completed by Finish instead.
func (b *BatchBuilder) AppendTo(dst []byte) ([]byte, error) {
	if b.direct {
		return dst, writeError("records", ErrInvalidRecord, "AppendTo after Start: use Finish")
	}
	if err := b.check(); err != nil {
		return dst, err
	}
	h := b.header()
	body := b.buf[b.start:]
	if b.Compression != CompressionNone {
		z, err := b.compressor()
		if err == nil {
			b.scratch, err = z.AppendCompressed(b.scratch[:0], b.Compression, MagicV2, body)
		}
		if err != nil {
			return dst, err
		}
		body = b.scratch
	}
	at := len(dst)
	dst = grow(dst, v2HeaderSize+len(body))
	dst = h.append(dst)
	dst = append(dst, body...)
	finishV2(dst[at:])
	return dst, nil
}

// check refuses a batch without records, and the LogAppendTime of a
// builder that did not come from NewBatchBuilder and was not given one.
func (b *BatchBuilder) check() error {
	if b.count == 0 {
		return writeError("records", ErrInvalidRecord, "a batch needs at least one record")
	}
	if b.LogAppendTime == 0 {
		return writeError("LogAppendTime", ErrInvalidRecord,
			"0 would stamp the batch 1970-01-01: start from NewBatchBuilder (CreateTime), or set -1 or the broker's append time")
	}
	return nil
}

// compressor is the Compressor to use: the caller's, or the builder's own.
func (b *BatchBuilder) compressor() (*Compressor, error) {
	if b.Compressor != nil {
		return b.Compressor, nil
	}
	if b.ownComp == nil {
		b.ownComp = &Compressor{}
	}
	return b.ownComp, nil
}

// header is the batch's header from the builder's fields and records.
func (b *BatchBuilder) header() batchHeader {
	attrs := Attributes(b.Compression)
	if b.Transactional {
		attrs |= AttrTransactional
	}
	if b.Control {
		attrs |= AttrControl
	}
	maxTime := b.maxTime
	if b.LogAppendTime != NoTimestamp {
		attrs |= AttrLogAppendTime
		maxTime = b.LogAppendTime
	}
	if b.DeleteHorizonMs != NoTimestamp {
		attrs |= AttrDeleteHorizon
	}
	return batchHeader{
		baseOffset: b.BaseOffset, leaderEpoch: b.PartitionLeaderEpoch, attributes: attrs,
		lastOffsetDelta: b.lastDelta, baseTimestamp: b.baseTime, maxTimestamp: maxTime,
		producerID: b.ProducerID, producerEpoch: b.ProducerEpoch, baseSequence: b.BaseSequence, count: b.count,
	}
}

// batchHeader is what a v2 header holds besides its length and CRC.
type batchHeader struct {
	baseOffset      int64
	leaderEpoch     int32
	attributes      Attributes
	lastOffsetDelta int32
	baseTimestamp   int64
	maxTimestamp    int64
	producerID      int64
	producerEpoch   int16
	baseSequence    int32
	count           int32
}

// append appends the 61-byte header with its length and CRC zero.
func (h *batchHeader) append(dst []byte) []byte {
	at := len(dst)
	dst = grow(dst, v2HeaderSize)[:at+v2HeaderSize]
	h.put(dst[at:])
	return dst
}

// put writes the 61-byte header at the start of b, its length and CRC zero.
func (h *batchHeader) put(b []byte) {
	b = b[:v2HeaderSize]
	binary.BigEndian.PutUint64(b[v2BaseOffsetPos:], uint64(h.baseOffset))
	binary.BigEndian.PutUint32(b[v2LengthPos:], 0)
	binary.BigEndian.PutUint32(b[v2LeaderEpochPos:], uint32(h.leaderEpoch))
	b[v2MagicPos] = byte(MagicV2)
	binary.BigEndian.PutUint32(b[v2CRCPos:], 0)
	binary.BigEndian.PutUint16(b[v2AttributesPos:], uint16(h.attributes))
	binary.BigEndian.PutUint32(b[v2LastOffsetDeltaPos:], uint32(h.lastOffsetDelta))
	binary.BigEndian.PutUint64(b[v2BaseTimestampPos:], uint64(h.baseTimestamp))
	binary.BigEndian.PutUint64(b[v2MaxTimestampPos:], uint64(h.maxTimestamp))
	binary.BigEndian.PutUint64(b[v2ProducerIDPos:], uint64(h.producerID))
	binary.BigEndian.PutUint16(b[v2ProducerEpochPos:], uint16(h.producerEpoch))
	binary.BigEndian.PutUint32(b[v2BaseSequencePos:], uint32(h.baseSequence))
	binary.BigEndian.PutUint32(b[v2CountPos:], uint32(h.count))
}

// finishV2 fills the length and CRC of the whole batch in batch.
func finishV2(batch []byte) {
	binary.BigEndian.PutUint32(batch[v2LengthPos:], uint32(len(batch)-logOverhead))
	binary.BigEndian.PutUint32(batch[v2CRCPos:], CRC32C(batch[v2AttributesPos:]))
}
