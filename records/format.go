package records

import "strconv"

// Magic values: the record format of a batch (byte 16 of every batch and
// legacy message).
const (
	MagicV0 int8 = 0 // legacy message set, no timestamps
	MagicV1 int8 = 1 // legacy message set with timestamps (KIP-32)
	MagicV2 int8 = 2 // record batch (KIP-98)
)

// Values a record batch uses for absent producer state and leader epoch.
const (
	NoProducerID           int64 = -1
	NoProducerEpoch        int16 = -1
	NoSequence             int32 = -1
	NoPartitionLeaderEpoch int32 = -1
	NoTimestamp            int64 = -1
)

// Compression is the codec a batch's records are compressed with: the low
// three bits of its attributes.
type Compression int8

// The compression codecs of Kafka's record formats. Zstd exists only in
// magic 2.
const (
	CompressionNone   Compression = 0
	CompressionGzip   Compression = 1
	CompressionSnappy Compression = 2
	CompressionLZ4    Compression = 3
	CompressionZstd   Compression = 4
)

// numCompressions bounds the codec tables of Compressor and Decompressor.
const numCompressions = 5

// String returns Kafka's name for c ("none", "gzip", ...).
func (c Compression) String() string {
	switch c {
	case CompressionNone:
		return "none"
	case CompressionGzip:
		return "gzip"
	case CompressionSnappy:
		return "snappy"
	case CompressionLZ4:
		return "lz4"
	case CompressionZstd:
		return "zstd"
	}
	return "unknown(" + itoa(int64(c)) + ")"
}

// TimestampType says what a batch's timestamps mean.
type TimestampType int8

// Kafka's timestamp types. Magic 0 has none.
const (
	NoTimestampType TimestampType = -1
	CreateTime      TimestampType = 0
	LogAppendTime   TimestampType = 1
)

// String returns Java's name for t ("CreateTime", ...).
func (t TimestampType) String() string {
	switch t {
	case NoTimestampType:
		return "NoTimestampType"
	case CreateTime:
		return "CreateTime"
	case LogAppendTime:
		return "LogAppendTime"
	}
	return "unknown(" + itoa(int64(t)) + ")"
}

// Attributes are a batch's attribute bits: 16 in magic 2, 8 in a legacy
// message (where only compression and, in magic 1, the timestamp type are
// defined).
type Attributes int16

// Attribute bits above the compression codec.
const (
	AttrLogAppendTime Attributes = 0x08 // timestamp type: LogAppendTime
	AttrTransactional Attributes = 0x10 // magic 2: part of a transaction
	AttrControl       Attributes = 0x20 // magic 2: holds control records
	AttrDeleteHorizon Attributes = 0x40 // magic 2: baseTimestamp is the delete horizon (KIP-534)
	attrCompression   Attributes = 0x07
)

// Compression is the codec bits.
func (a Attributes) Compression() Compression { return Compression(a & attrCompression) }

// IsTransactional reports the transactional bit (magic 2).
func (a Attributes) IsTransactional() bool { return a&AttrTransactional != 0 }

// IsControl reports the control bit (magic 2).
func (a Attributes) IsControl() bool { return a&AttrControl != 0 }

// HasDeleteHorizon reports the delete-horizon bit (magic 2).
func (a Attributes) HasDeleteHorizon() bool { return a&AttrDeleteHorizon != 0 }

// v2 record batch header: field positions (Kafka's DefaultRecordBatch).
const (
	v2BaseOffsetPos      = 0
	v2LengthPos          = 8
	v2LeaderEpochPos     = 12
	v2MagicPos           = 16
	v2CRCPos             = 17
	v2AttributesPos      = 21 // the CRC covers from here to the end
	v2LastOffsetDeltaPos = 23
	v2BaseTimestampPos   = 27
	v2MaxTimestampPos    = 35
	v2ProducerIDPos      = 43
	v2ProducerEpochPos   = 51
	v2BaseSequencePos    = 53
	v2CountPos           = 57
	v2HeaderSize         = 61 // RECORD_BATCH_OVERHEAD

	logOverhead = 12 // offset and length, before every batch or message
	// magicEnd is how much of a batch or message must be present to read
	// its magic byte (Java's HEADER_SIZE_UP_TO_MAGIC).
	magicEnd = 17
)

// Legacy message (magic 0 and 1) positions, from the start of the log entry.
const (
	legacyOffsetPos     = 0
	legacyLengthPos     = 8
	legacyCRCPos        = 12
	legacyMagicPos      = 16 // the CRC covers from here to the end
	legacyAttributesPos = 17
	legacyTimestampPos  = 18 // magic 1 only

	legacyHeaderV0 = 18 // log overhead, crc, magic, attributes
	legacyHeaderV1 = 26 // plus the timestamp
	// minimum message sizes (the length field), Java's RECORD_OVERHEAD_V0/V1:
	// crc, magic, attributes, [timestamp,] key length, value length.
	legacyMinSizeV0 = 14
	legacyMinSizeV1 = 22
)

// itoa formats v for errors and String.
func itoa(v int64) string { return strconv.FormatInt(v, 10) }
