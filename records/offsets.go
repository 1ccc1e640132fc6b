package records

import (
	"encoding/binary"
	"strconv"
)

// SetBaseOffset rewrites the batch's offset in b.Raw (and b.BaseOffset):
// magic 2's base offset, which the CRC does not cover, or a legacy
// message's offset field, which its CRC does not cover either. For a magic 1
// compressed wrapper pass the offset its last inner message gets (inner
// offsets are relative to it). A magic 0 wrapper holds absolute inner
// offsets that this cannot change: AssignOffsets rewrites those.
func (b *Batch) SetBaseOffset(offset int64) {
	binary.BigEndian.PutUint64(b.Raw[v2BaseOffsetPos:], uint64(offset))
	b.BaseOffset = offset
}

// SetPartitionLeaderEpoch rewrites a v2 batch's partition leader epoch in
// place (outside the CRC), as a leader does on append. Legacy messages have
// none; it does nothing to them.
func (b *Batch) SetPartitionLeaderEpoch(epoch int32) {
	if b.Magic < MagicV2 {
		return
	}
	binary.BigEndian.PutUint32(b.Raw[v2LeaderEpochPos:], uint32(epoch))
	b.PartitionLeaderEpoch = epoch
}

// SetLogAppendTime makes the batch LogAppendTime with timestamp ts in
// place, as a broker does for topics with message.timestamp.type
// LogAppendTime: magic 2 sets the attribute and the max timestamp, magic 1
// the attribute and the wrapper's or message's timestamp; the CRC is
// recomputed. Magic 0 has no timestamps; it does nothing to it.
func (b *Batch) SetLogAppendTime(ts int64) {
	switch b.Magic {
	case MagicV2:
		b.Attributes |= AttrLogAppendTime
		binary.BigEndian.PutUint16(b.Raw[v2AttributesPos:], uint16(b.Attributes))
		binary.BigEndian.PutUint64(b.Raw[v2MaxTimestampPos:], uint64(ts))
		b.MaxTimestamp = ts
		b.CRC = CRC32C(b.Raw[v2AttributesPos:])
		binary.BigEndian.PutUint32(b.Raw[v2CRCPos:], b.CRC)
	case MagicV1:
		b.Attributes |= AttrLogAppendTime
		b.Raw[legacyAttributesPos] = byte(b.Attributes)
		binary.BigEndian.PutUint64(b.Raw[legacyTimestampPos:], uint64(ts))
		b.BaseTimestamp, b.MaxTimestamp = ts, ts
		b.CRC = CRC32IEEE(b.Raw[legacyMagicPos:])
		binary.BigEndian.PutUint32(b.Raw[legacyCRCPos:], b.CRC)
	}
}

// AssignOffsets appends the batches of blob to dst with offsets assigned
// from next on, as a broker does when it appends a produced blob to its
// log, and returns the offset after the last record. A partial batch is an
// error (Produce carries whole batches).
//
// Magic 2 batches and uncompressed legacy messages are copied and their
// offset field set. A magic 1 wrapper whose inner offsets run 0, 1, ...
// is copied with its offset set to its last record's; other legacy
// wrappers (every magic 0 one: its inner offsets are absolute) are
// decompressed with d and written again with z, offsets rewritten, as
// Kafka's broker does. d and z may be nil when blob holds no such wrapper.
func AssignOffsets(dst, blob []byte, next int64, d *Decompressor, z *Compressor) ([]byte, int64, error) {
	r := Reader{Complete: true}
	r.Reset(blob)
	var rr RecordReader
	var rec Record
	for r.Next() {
		b := r.Batch()
		if b.Magic == MagicV2 || b.Compression() == CompressionNone {
			at := len(dst)
			dst = append(dst, b.Raw...)
			binary.BigEndian.PutUint64(dst[at:], uint64(next))
			next += int64(b.LastOffsetDelta) + 1
			continue
		}
		if err := rr.Reset(b, d); err != nil {
			return dst, next, err
		}
		count, inPlace := int64(0), b.Magic == MagicV1
		for rr.Next(&rec) {
			inPlace = inPlace && rec.Offset-rr.innerBase == count
			count++
		}
		if err := rr.Err(); err != nil {
			return dst, next, err
		}
		if inPlace {
			at := len(dst)
			dst = append(dst, b.Raw...)
			binary.BigEndian.PutUint64(dst[at:], uint64(next+count-1))
			next += count
			continue
		}
		var err error
		if dst, err = rewriteWrapper(dst, b, next, d, z); err != nil {
			return dst, next, err
		}
		next += count
	}
	return dst, next, r.Err()
}

// rewriteWrapper writes a legacy wrapper again with its inner messages at
// offsets from next on, keeping their timestamps and the wrapper's
// timestamp type.
func rewriteWrapper(dst []byte, b *Batch, next int64, d *Decompressor, z *Compressor) ([]byte, error) {
	if z == nil {
		z = &Compressor{}
	}
	m := NewMessageSetBuilder(b.Magic, b.Compression())
	m.Compressor = z
	if b.TimestampType() == LogAppendTime {
		m.LogAppendTime = b.MaxTimestamp
	}
	var rr RecordReader
	var rec Record
	if err := rr.Reset(b, d); err != nil {
		return dst, err
	}
	for i := int64(0); rr.Next(&rec); i++ {
		if err := m.append(next+i, rec.Timestamp, rec.Key, rec.Value); err != nil {
			return dst, err
		}
	}
	if err := rr.Err(); err != nil {
		return dst, err
	}
	out, err := m.appendTo(dst)
	if err != nil {
		return dst, batchError(b.Pos, b.BaseOffset, "rewrite", ErrInvalidRecord, "writing the wrapper again: "+err.Error()+" ("+strconv.Itoa(len(b.Raw))+" bytes)")
	}
	return out, nil
}
