package records

import (
	"errors"
	"strconv"
)

// ErrZstdDownConvert: a zstd batch cannot become a legacy message set,
// whose formats have no zstd; Kafka answered such a Fetch below v10 with
// UNSUPPORTED_COMPRESSION_TYPE.
var ErrZstdDownConvert = errors.New("zstd batch cannot be converted to a message set")

// Converter converts between legacy message sets (magic 0 and 1) and v2
// record batches, as a broker or proxy does for clients older than the
// v2 format (docs/protocol.md, "Kafka 4 and old clients"). Its readers,
// codecs and builders are reused from call to call: steady-state
// conversion allocates nothing per record. Not safe for concurrent use.
type Converter struct {
	// Decompressor bounds what one compressed wrapper or batch may
	// decompress to (its Limit, DefaultLimit when 0).
	Decompressor Decompressor
	Compressor   Compressor

	reader  Reader
	rr      RecordReader
	rec     Record
	builder BatchBuilder
	set     MessageSetBuilder
}

// UpConvert appends to dst one v2 batch holding every record of the
// legacy message set blob, as Kafka converted a Produce v0-2 on append:
// each message's CRC32 checked, compressed wrappers unpacked (bounded by
// the Decompressor's limit), timestamps as the messages have them (-1 in
// magic 0), CreateTime (a producer's LogAppendTime bit is cleared), the
// first wrapper's codec for the batch. A blob holding a v2 batch, a
// partial message or nothing is an error (an *Error wrapping ErrChecksum,
// ErrTruncated, ErrTooLarge... for the broken ones).
func (c *Converter) UpConvert(dst, blob []byte) ([]byte, error) {
	c.reader.Complete, c.reader.SkipCRC = true, false
	c.reader.Reset(blob)
	c.builder.Reset()
	c.builder.Compressor = &c.Compressor
	first := true
	for c.reader.Next() {
		b := c.reader.Batch()
		if b.Magic >= MagicV2 {
			return dst, batchError(b.Pos, b.BaseOffset, "magic", ErrMagic, "a v2 batch where a message set of magic 0 or 1 was expected")
		}
		if first {
			c.builder.Compression = b.Compression()
			first = false
		}
		if err := c.rr.Reset(b, &c.Decompressor); err != nil {
			return dst, err
		}
		for c.rr.Next(&c.rec) {
			ts := c.rec.Timestamp
			if b.Magic == MagicV0 {
				ts = NoTimestamp
			}
			c.builder.Append(ts, c.rec.Key, c.rec.Value)
		}
		if err := c.rr.Err(); err != nil {
			return dst, err
		}
	}
	if err := c.reader.Err(); err != nil {
		return dst, err
	}
	if first {
		return dst, writeError("records", ErrInvalidRecord, "an empty message set: nothing to convert")
	}
	return c.builder.AppendTo(dst)
}

// DownConvert appends to dst the records of the v2 batches of blob from
// offset fetchOffset on as a message set of magic (0 or 1), the way Kafka
// down-converted a Fetch for clients older than the v2 format: control
// batches skipped, headers dropped, records before fetchOffset left out of
// uncompressed batches, a compressed batch converted whole into one
// wrapper of the same codec (zstd: ErrZstdDownConvert), a partial batch at
// the end of blob left out. It stops before the message set would pass
// maxBytes, but always converts the first batch that has records to send,
// so that a consumer makes progress. Legacy messages in blob (a broker
// that kept them) are copied as they are when their magic is not above
// magic.
func (c *Converter) DownConvert(dst, blob []byte, magic int8, fetchOffset int64, maxBytes int) ([]byte, error) {
	if magic != MagicV0 && magic != MagicV1 {
		return dst, writeError("magic", ErrMagic, "message sets have magic 0 or 1, not "+strconv.Itoa(int(magic)))
	}
	start := len(dst)
	c.reader.Complete, c.reader.SkipCRC = false, false
	c.reader.Reset(blob)
	for c.reader.Next() {
		b := c.reader.Batch()
		if b.IsControl() || b.NextOffset() <= fetchOffset {
			continue
		}
		before := len(dst)
		var err error
		switch {
		case b.Magic <= magic:
			dst = append(dst, b.Raw...)
		case b.Compression() == CompressionZstd:
			return dst[:start], batchError(b.Pos, b.BaseOffset, "attributes", ErrZstdDownConvert, "zstd has no message set codec")
		case b.Compression() != CompressionNone:
			dst, err = c.wrap(dst, b, magic)
		default:
			dst, err = c.messages(dst, b, magic, fetchOffset)
		}
		if err != nil {
			return dst[:start], err
		}
		if len(dst)-start > maxBytes && before > start {
			return dst[:before], nil
		}
	}
	if err := c.reader.Err(); err != nil {
		return dst[:start], err
	}
	return dst, nil
}

// messages appends an uncompressed batch's records from fetchOffset on.
func (c *Converter) messages(dst []byte, b *Batch, magic int8, fetchOffset int64) ([]byte, error) {
	if err := c.rr.Reset(b, &c.Decompressor); err != nil {
		return dst, err
	}
	attrs := legacyTimestampAttr(b, magic)
	for c.rr.Next(&c.rec) {
		if c.rec.Offset < fetchOffset {
			continue
		}
		var err error
		if dst, err = AppendMessage(dst, magic, c.rec.Offset, c.rec.Timestamp, attrs, c.rec.Key, c.rec.Value); err != nil {
			return dst, err
		}
	}
	return dst, c.rr.Err()
}

// wrap appends a compressed batch as one wrapper message of its codec.
func (c *Converter) wrap(dst []byte, b *Batch, magic int8) ([]byte, error) {
	if err := c.rr.Reset(b, &c.Decompressor); err != nil {
		return dst, err
	}
	c.set.Magic, c.set.Compression, c.set.Compressor = magic, b.Compression(), &c.Compressor
	c.set.LogAppendTime = NoTimestamp
	if magic == MagicV1 && b.TimestampType() == LogAppendTime {
		c.set.LogAppendTime = b.MaxTimestamp
	}
	c.set.Reset()
	for c.rr.Next(&c.rec) {
		// append, not Append: a LogAppendTime of 0 is the broker's, kept.
		if err := c.set.append(c.rec.Offset, c.rec.Timestamp, c.rec.Key, c.rec.Value); err != nil {
			return dst, err
		}
	}
	if err := c.rr.Err(); err != nil {
		return dst, err
	}
	return c.set.appendTo(dst)
}

// legacyTimestampAttr is the attribute of a magic 1 message of a
// LogAppendTime batch.
func legacyTimestampAttr(b *Batch, magic int8) int8 {
	if magic == MagicV1 && b.TimestampType() == LogAppendTime {
		return int8(AttrLogAppendTime)
	}
	return 0
}

// Trim drops the buffers the Converter keeps (decompressed data, records
// being built, compressed output) that have grown past keep bytes, so that
// one large or hostile conversion does not stay held by an idle
// connection.
func (c *Converter) Trim(keep int) {
	if cap(c.Decompressor.buf) > keep {
		c.Decompressor.buf = nil
	}
	if cap(c.builder.own) > keep || cap(c.builder.buf) > keep || cap(c.builder.scratch) > keep {
		c.builder = BatchBuilder{}
	}
	if cap(c.set.inner) > keep || cap(c.set.scratch) > keep {
		c.set = MessageSetBuilder{}
	}
}
