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
// The zero value holds producer id 0 and the like; start from
// NewBatchBuilder, or call Reset, to get Kafka's "absent" values.
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
	// max timestamp (records keep their own timestamps, as in Java).
	LogAppendTime int64
	// DeleteHorizonMs, when not -1, sets the delete-horizon attribute and
	// becomes the base timestamp; set it before appending records.
	DeleteHorizonMs int64

	records   []byte // encoded records, uncompressed
	scratch   []byte // compressed records
	own       *Compressor
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
// keeping the Compressor and every buffer.
func (b *BatchBuilder) Reset() {
	*b = BatchBuilder{
		PartitionLeaderEpoch: NoPartitionLeaderEpoch,
		ProducerID:           NoProducerID,
		ProducerEpoch:        NoProducerEpoch,
		BaseSequence:         NoSequence,
		LogAppendTime:        NoTimestamp,
		DeleteHorizonMs:      NoTimestamp,
		Compressor:           b.Compressor,
		records:              b.records[:0],
		scratch:              b.scratch[:0],
		own:                  b.own,
	}
}

// NumRecords is the number of records appended since Reset.
func (b *BatchBuilder) NumRecords() int { return int(b.count) }

// Append adds a record at the next offset (delta 0 for the first). A nil
// key or value is null.
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

func (b *BatchBuilder) add(delta int32, ts int64, key, value []byte, headers []Header) {
	if b.count == 0 {
		b.baseTime, b.maxTime = ts, ts
		if b.DeleteHorizonMs != NoTimestamp {
			b.baseTime = b.DeleteHorizonMs
		}
	}
	b.maxTime = max(b.maxTime, ts)
	b.records = appendRecord(b.records, delta, ts-b.baseTime, key, value, headers)
	b.lastDelta = delta
	b.count++
}

// AppendTo appends the batch to dst. It does not reset the builder.
func (b *BatchBuilder) AppendTo(dst []byte) ([]byte, error) {
	if b.count == 0 {
		return dst, writeError("records", ErrInvalidRecord, "a batch needs at least one record")
	}
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
	h := batchHeader{
		baseOffset: b.BaseOffset, leaderEpoch: b.PartitionLeaderEpoch, attributes: attrs,
		lastOffsetDelta: b.lastDelta, baseTimestamp: b.baseTime, maxTimestamp: maxTime,
		producerID: b.ProducerID, producerEpoch: b.ProducerEpoch, baseSequence: b.BaseSequence, count: b.count,
	}
	body := b.records
	if b.Compression != CompressionNone {
		z := b.Compressor
		if z == nil {
			if b.own == nil {
				b.own = &Compressor{}
			}
			z = b.own
		}
		var err error
		if b.scratch, err = z.AppendCompressed(b.scratch[:0], b.Compression, MagicV2, b.records); err != nil {
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
	dst = grow(dst, v2HeaderSize)
	b := dst[len(dst) : len(dst)+v2HeaderSize]
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
	return dst[:len(dst)+v2HeaderSize]
}

// finishV2 fills the length and CRC of the whole batch in batch.
func finishV2(batch []byte) {
	binary.BigEndian.PutUint32(batch[v2LengthPos:], uint32(len(batch)-logOverhead))
	binary.BigEndian.PutUint32(batch[v2CRCPos:], CRC32C(batch[v2AttributesPos:]))
}

// appendRecord appends one v2 record.
func appendRecord(dst []byte, offsetDelta int32, timestampDelta int64, key, value []byte, headers []Header) []byte {
	body := 1 + sizeVarint(timestampDelta) + sizeVarint(int64(offsetDelta)) +
		sizeBytes(key) + sizeBytes(value) + sizeVarint(int64(len(headers)))
	for i := range headers {
		body += sizeBytes(headers[i].Key) + sizeBytes(headers[i].Value)
	}
	dst = grow(dst, sizeVarint(int64(body))+body)
	dst = appendVarint(dst, int64(body))
	dst = append(dst, 0) // attributes
	dst = appendVarint(dst, timestampDelta)
	dst = appendVarint(dst, int64(offsetDelta))
	dst = appendBytes(dst, key)
	dst = appendBytes(dst, value)
	dst = appendVarint(dst, int64(len(headers)))
	for i := range headers {
		dst = appendBytes(dst, headers[i].Key)
		dst = appendBytes(dst, headers[i].Value)
	}
	return dst
}

func sizeBytes(b []byte) int {
	if b == nil {
		return 1
	}
	return sizeVarint(int64(len(b))) + len(b)
}

func appendBytes(dst, b []byte) []byte {
	if b == nil {
		return append(dst, 1) // zigzag -1
	}
	return append(appendVarint(dst, int64(len(b))), b...)
}
