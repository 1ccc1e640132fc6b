package records

import (
	"encoding/binary"
	"strconv"
)

// Batch is one batch of a records blob, as Reader found it: a v2 record
// batch, or a legacy message (magic 0 or 1), which is either one record or
// a compressed wrapper holding an inner message set. Raw and Records alias
// the blob.
//
// Legacy messages fill the fields they have and hold the v2 "absent"
// values in the rest: PartitionLeaderEpoch, ProducerID, ProducerEpoch and
// BaseSequence are -1, LastOffsetDelta is 0, and BaseTimestamp and
// MaxTimestamp are the message's timestamp (-1 in magic 0).
type Batch struct {
	// Pos is the batch's byte position in the blob.
	Pos int
	// Raw is the whole batch, from its base offset to its last byte.
	Raw []byte
	// Records is the records section: in magic 2 everything after the
	// 61-byte header (compressed or not); in an uncompressed legacy message
	// its key and value (lengths included); in a compressed legacy wrapper
	// the wrapper's value, the compressed inner message set.
	Records []byte

	// BaseOffset is the offset of the batch's first record in magic 2. In a
	// legacy message it is the message's offset field: the record's offset,
	// or for a compressed wrapper the offset of its last inner message
	// (Kafka's convention), which is also LastOffset.
	//
	// So for a compressed wrapper it is not what Java's baseOffset() returns:
	// Java decompresses the wrapper and gives its first inner message's
	// offset. Reading in place, Batch cannot know that; the first Record a
	// RecordReader returns for the batch has it.
	BaseOffset int64
	// Length is the length field: the bytes after it (len(Raw)-12).
	Length               int32
	PartitionLeaderEpoch int32
	Magic                int8
	// CRC is the stored checksum: CRC-32C in magic 2, CRC-32 (IEEE) in
	// legacy messages. Reader has checked it against the bytes.
	CRC             uint32
	Attributes      Attributes
	LastOffsetDelta int32
	// BaseTimestamp is the first record's timestamp, or the delete horizon
	// when Attributes.HasDeleteHorizon (see DeleteHorizonMs).
	BaseTimestamp int64
	MaxTimestamp  int64
	ProducerID    int64
	ProducerEpoch int16
	BaseSequence  int32
	// NumRecords is the record count in magic 2; 1 for an uncompressed
	// legacy message and -1 (unknown until decompressed) for a compressed
	// legacy wrapper.
	NumRecords int32
}

// Compression is the codec the records are compressed with.
func (b *Batch) Compression() Compression { return b.Attributes.Compression() }

// IsTransactional reports whether the batch is part of a transaction.
func (b *Batch) IsTransactional() bool { return b.Magic >= MagicV2 && b.Attributes.IsTransactional() }

// IsControl reports whether the batch holds control records (transaction
// markers, KRaft control records).
func (b *Batch) IsControl() bool { return b.Magic >= MagicV2 && b.Attributes.IsControl() }

// TimestampType is NoTimestampType in magic 0, else the attributes' type.
func (b *Batch) TimestampType() TimestampType {
	if b.Magic == MagicV0 {
		return NoTimestampType
	}
	if b.Attributes&AttrLogAppendTime != 0 {
		return LogAppendTime
	}
	return CreateTime
}

// DeleteHorizonMs is the delete horizon of a batch compaction has
// processed (KIP-534), or -1 when the batch has none.
func (b *Batch) DeleteHorizonMs() int64 {
	if b.Magic >= MagicV2 && b.Attributes.HasDeleteHorizon() {
		return b.BaseTimestamp
	}
	return NoTimestamp
}

// LastOffset is the offset of the batch's last record.
func (b *Batch) LastOffset() int64 { return b.BaseOffset + int64(b.LastOffsetDelta) }

// NextOffset is LastOffset plus one: where the next batch starts.
func (b *Batch) NextOffset() int64 { return b.LastOffset() + 1 }

// LastSequence is the sequence number of the last record, wrapping past
// MaxInt32 to 0 as Kafka does, or -1 without a base sequence.
func (b *Batch) LastSequence() int32 {
	if b.BaseSequence == NoSequence {
		return NoSequence
	}
	return addSequence(b.BaseSequence, b.LastOffsetDelta)
}

// addSequence is Kafka's DefaultRecordBatch.incrementSequence.
func addSequence(seq, delta int32) int32 {
	const maxInt32 = 1<<31 - 1
	if seq > maxInt32-delta {
		return delta - (maxInt32 - seq) - 1
	}
	return seq + delta
}

// readResult says how parsing the start of a blob went.
type readResult int8

const (
	readOK      readResult = iota
	readPartial            // fewer bytes than the batch needs: a partial tail
	readError
)

// parse reads the batch at the start of src, which sits at byte pos of the
// blob, checking its CRC when verify is set. It allocates nothing.
func (b *Batch) parse(src []byte, pos int, verify bool) (readResult, error) {
	if len(src) < magicEnd {
		return readPartial, nil
	}
	base := int64(binary.BigEndian.Uint64(src[v2BaseOffsetPos:]))
	length := int32(binary.BigEndian.Uint32(src[v2LengthPos:]))
	if length < legacyMinSizeV0 {
		return readError, batchError(pos, base, "length", ErrInvalidLength,
			strconv.Itoa(int(length))+" is less than the minimum record overhead 14")
	}
	total := logOverhead + int(length)
	if len(src) < total {
		return readPartial, nil
	}
	raw := src[:total:total]
	switch magic := int8(src[v2MagicPos]); magic {
	case MagicV2:
		return b.parseV2(raw, pos, base, verify)
	case MagicV0, MagicV1:
		return b.parseLegacy(raw, pos, base, magic, verify)
	default:
		return readError, batchError(pos, base, "magic", ErrMagic, strconv.Itoa(int(magic)))
	}
}

func (b *Batch) parseV2(raw []byte, pos int, base int64, verify bool) (readResult, error) {
	if len(raw) < v2HeaderSize {
		return readError, batchError(pos, base, "length", ErrInvalidLength,
			strconv.Itoa(len(raw)-logOverhead)+" is less than the v2 batch header's 49")
	}
	crc := binary.BigEndian.Uint32(raw[v2CRCPos:])
	if verify {
		if sum := CRC32C(raw[v2AttributesPos:]); sum != crc {
			return readError, batchError(pos, base, "crc", ErrChecksum, crcDetail(crc, sum))
		}
	}
	attrs := Attributes(int16(binary.BigEndian.Uint16(raw[v2AttributesPos:])))
	if c := attrs.Compression(); c >= numCompressions {
		return readError, batchError(pos, base, "attributes", ErrCompression, "codec "+strconv.Itoa(int(c)))
	}
	count := int32(binary.BigEndian.Uint32(raw[v2CountPos:]))
	if count < 0 {
		return readError, batchError(pos, base, "record count", ErrInvalidLength, strconv.Itoa(int(count)))
	}
	*b = Batch{
		Pos:                  pos,
		Raw:                  raw,
		Records:              raw[v2HeaderSize:],
		BaseOffset:           base,
		Length:               int32(len(raw) - logOverhead),
		PartitionLeaderEpoch: int32(binary.BigEndian.Uint32(raw[v2LeaderEpochPos:])),
		Magic:                MagicV2,
		CRC:                  crc,
		Attributes:           attrs,
		LastOffsetDelta:      int32(binary.BigEndian.Uint32(raw[v2LastOffsetDeltaPos:])),
		BaseTimestamp:        int64(binary.BigEndian.Uint64(raw[v2BaseTimestampPos:])),
		MaxTimestamp:         int64(binary.BigEndian.Uint64(raw[v2MaxTimestampPos:])),
		ProducerID:           int64(binary.BigEndian.Uint64(raw[v2ProducerIDPos:])),
		ProducerEpoch:        int16(binary.BigEndian.Uint16(raw[v2ProducerEpochPos:])),
		BaseSequence:         int32(binary.BigEndian.Uint32(raw[v2BaseSequencePos:])),
		NumRecords:           count,
	}
	return readOK, nil
}

func (b *Batch) parseLegacy(raw []byte, pos int, base int64, magic int8, verify bool) (readResult, error) {
	header, minSize := legacyHeaderV0, legacyMinSizeV0
	if magic == MagicV1 {
		header, minSize = legacyHeaderV1, legacyMinSizeV1
	}
	if len(raw)-logOverhead < minSize {
		return readError, batchError(pos, base, "length", ErrInvalidLength,
			strconv.Itoa(len(raw)-logOverhead)+" is less than the magic "+strconv.Itoa(int(magic))+" minimum "+strconv.Itoa(minSize))
	}
	crc := binary.BigEndian.Uint32(raw[legacyCRCPos:])
	if verify {
		if sum := CRC32IEEE(raw[legacyMagicPos:]); sum != crc {
			return readError, batchError(pos, base, "crc", ErrChecksum, crcDetail(crc, sum))
		}
	}
	attrs := Attributes(raw[legacyAttributesPos])
	codec := attrs.Compression()
	if codec >= CompressionZstd {
		return readError, batchError(pos, base, "attributes", ErrCompression,
			"codec "+strconv.Itoa(int(codec))+" in a magic "+strconv.Itoa(int(magic))+" message")
	}
	ts := NoTimestamp
	if magic == MagicV1 {
		ts = int64(binary.BigEndian.Uint64(raw[legacyTimestampPos:]))
	}
	kv := raw[header:]
	key, value, err := splitKeyValue(kv)
	if err != nil {
		return readError, batchError(pos, base, err.field, err.err, err.detail)
	}
	records, count := kv, int32(1)
	if codec != CompressionNone {
		if value == nil {
			return readError, batchError(pos, base, "value", ErrInvalidRecord, "a compressed wrapper with a null value")
		}
		records, count = value, -1
	}
	_ = key
	*b = Batch{
		Pos:                  pos,
		Raw:                  raw,
		Records:              records,
		BaseOffset:           base,
		Length:               int32(len(raw) - logOverhead),
		PartitionLeaderEpoch: NoPartitionLeaderEpoch,
		Magic:                magic,
		CRC:                  crc,
		Attributes:           attrs,
		BaseTimestamp:        ts,
		MaxTimestamp:         ts,
		ProducerID:           NoProducerID,
		ProducerEpoch:        NoProducerEpoch,
		BaseSequence:         NoSequence,
		NumRecords:           count,
	}
	return readOK, nil
}

// fieldError is a problem found below the batch level, before the caller
// adds where the batch is.
type fieldError struct {
	field, detail string
	err           error
}

// splitKeyValue reads a legacy message's key and value (int32 lengths, -1
// for null), which must fill kv exactly.
func splitKeyValue(kv []byte) (key, value []byte, fe *fieldError) {
	key, rest, fe := legacyBytes(kv, "key")
	if fe != nil {
		return nil, nil, fe
	}
	value, rest, fe = legacyBytes(rest, "value")
	if fe != nil {
		return nil, nil, fe
	}
	if len(rest) != 0 {
		return nil, nil, &fieldError{"value", strconv.Itoa(len(rest)) + " bytes after the value", ErrInvalidLength}
	}
	return key, value, nil
}

// legacyBytes reads an int32-length byte string, nil for null.
func legacyBytes(b []byte, field string) (v, rest []byte, fe *fieldError) {
	if len(b) < 4 {
		return nil, nil, &fieldError{field, "no room for the length", ErrTruncated}
	}
	n := int32(binary.BigEndian.Uint32(b))
	b = b[4:]
	switch {
	case n == -1:
		return nil, b, nil
	case n < -1:
		return nil, nil, &fieldError{field, "length " + strconv.Itoa(int(n)), ErrInvalidLength}
	case int(n) > len(b):
		return nil, nil, &fieldError{field, "length " + strconv.Itoa(int(n)) + " past the end (" + strconv.Itoa(len(b)) + " bytes left)", ErrTruncated}
	}
	return b[:n:n], b[n:], nil
}

func crcDetail(stored, computed uint32) string {
	return "stored 0x" + strconv.FormatUint(uint64(stored), 16) + ", computed 0x" + strconv.FormatUint(uint64(computed), 16)
}

// ReadBatch reads the one batch that starts src (pos is its byte position
// in the blob, for errors), checking its CRC. A src shorter than the batch
// it starts is an ErrTruncated error; use Reader to treat it as a partial
// tail instead.
func ReadBatch(b *Batch, src []byte, pos int) error {
	switch res, err := b.parse(src, pos, true); res {
	case readOK:
		return nil
	case readPartial:
		return partialError(src, pos)
	default:
		return err
	}
}

// partialError describes a partial batch as an error.
func partialError(src []byte, pos int) error {
	base := int64(-1)
	if len(src) >= 8 {
		base = int64(binary.BigEndian.Uint64(src))
	}
	if len(src) < magicEnd {
		return batchError(pos, base, "length", ErrTruncated, strconv.Itoa(len(src))+" bytes, fewer than the 17 up to the magic byte")
	}
	n := int32(binary.BigEndian.Uint32(src[v2LengthPos:]))
	return batchError(pos, base, "length", ErrTruncated,
		"length "+strconv.Itoa(int(n))+" past the end ("+strconv.Itoa(len(src)-logOverhead)+" bytes left)")
}
