package records

import (
	"encoding/binary"
	"strconv"
)

// AppendMessage appends one legacy message (magic 0 or 1) with its log
// overhead: the offset, then the length, CRC-32, magic, attributes, the
// timestamp in magic 1, and the key and value (nil is null).
func AppendMessage(dst []byte, magic int8, offset int64, timestamp int64, attributes int8, key, value []byte) ([]byte, error) {
	header := legacyHeaderV0
	switch magic {
	case MagicV0:
	case MagicV1:
		header = legacyHeaderV1
	default:
		return dst, writeError("magic", ErrMagic, "message sets have magic 0 or 1, not "+strconv.Itoa(int(magic)))
	}
	size := header + 8 + len(key) + len(value)
	dst = grow(dst, size)
	at := len(dst)
	dst = binary.BigEndian.AppendUint64(dst, uint64(offset))
	dst = binary.BigEndian.AppendUint32(dst, uint32(size-logOverhead))
	dst = append(dst, 0, 0, 0, 0, byte(magic), byte(attributes))
	if magic == MagicV1 {
		dst = binary.BigEndian.AppendUint64(dst, uint64(timestamp))
	}
	dst = appendLegacyBytes(dst, key)
	dst = appendLegacyBytes(dst, value)
	binary.BigEndian.PutUint32(dst[at+legacyCRCPos:], CRC32IEEE(dst[at+legacyMagicPos:]))
	return dst, nil
}

func appendLegacyBytes(dst, b []byte) []byte {
	if b == nil {
		return binary.BigEndian.AppendUint32(dst, 0xFFFFFFFF)
	}
	return append(binary.BigEndian.AppendUint32(dst, uint32(len(b))), b...)
}

// MessageSetBuilder builds a compressed legacy wrapper message: the inner
// message set, compressed, as the value of one message whose offset is the
// last inner offset. Magic 1 writes inner offsets relative to the first
// (0, 1, ...), magic 0 absolute, as Java's MemoryRecordsBuilder does.
// Uncompressed message sets need no builder: AppendMessage each message.
// Reset it to build the next wrapper; its buffers are kept.
//
// Start from NewMessageSetBuilder: in magic 1 the zero value's
// LogAppendTime, 0, would stamp every wrapper LogAppendTime 1970-01-01, so
// Append and AppendTo refuse it.
type MessageSetBuilder struct {
	Magic       int8
	Compression Compression
	// Compressor compresses the inner set; nil uses one the builder
	// creates on first need and keeps.
	Compressor *Compressor
	// LogAppendTime, when not -1 (magic 1), makes the wrapper LogAppendTime
	// with this timestamp, which a broker sets to its clock; 0 is refused.
	LogAppendTime int64

	inner      []byte
	scratch    []byte
	own        *Compressor
	first      int64
	last       int64
	maxTime    int64
	count      int
	innerAttrs int8
}

// NewMessageSetBuilder returns a builder of wrappers of magic 0 or 1
// compressed with c, CreateTime (LogAppendTime -1).
func NewMessageSetBuilder(magic int8, c Compression) *MessageSetBuilder {
	return &MessageSetBuilder{Magic: magic, Compression: c, LogAppendTime: NoTimestamp}
}

// checkLogAppendTime refuses the LogAppendTime of a builder that did not
// come from NewMessageSetBuilder and was not given one.
func (m *MessageSetBuilder) checkLogAppendTime() error {
	if m.Magic == MagicV1 && m.LogAppendTime == 0 {
		return writeError("LogAppendTime", ErrInvalidRecord,
			"0 would stamp the wrapper 1970-01-01: start from NewMessageSetBuilder (CreateTime), or set -1 or the broker's append time")
	}
	return nil
}

// Reset drops the messages, keeping Magic, Compression, Compressor and
// LogAppendTime.
func (m *MessageSetBuilder) Reset() {
	m.inner, m.count, m.maxTime = m.inner[:0], 0, NoTimestamp
}

// Append adds an inner message at an absolute offset (above the previous).
func (m *MessageSetBuilder) Append(offset, timestamp int64, key, value []byte) error {
	if err := m.checkLogAppendTime(); err != nil {
		return err
	}
	return m.append(offset, timestamp, key, value)
}

// append is Append for any LogAppendTime: rewriteWrapper keeps a
// wrapper's, 0 included.
func (m *MessageSetBuilder) append(offset, timestamp int64, key, value []byte) error {
	if m.count > 0 && offset <= m.last {
		return writeError("offset", ErrInvalidRecord, strconv.FormatInt(offset, 10)+" after "+strconv.FormatInt(m.last, 10))
	}
	if m.count == 0 {
		m.first, m.maxTime = offset, timestamp
	}
	stored := offset
	if m.Magic == MagicV1 {
		stored = offset - m.first
	}
	var attrs int8
	if m.Magic == MagicV1 && m.LogAppendTime != NoTimestamp {
		attrs = int8(AttrLogAppendTime)
	}
	var err error
	if m.inner, err = AppendMessage(m.inner, m.Magic, stored, timestamp, attrs, key, value); err != nil {
		return err
	}
	m.last, m.maxTime = offset, max(m.maxTime, timestamp)
	m.count++
	return nil
}

// AppendTo appends the wrapper message to dst.
func (m *MessageSetBuilder) AppendTo(dst []byte) ([]byte, error) {
	if err := m.checkLogAppendTime(); err != nil {
		return dst, err
	}
	return m.appendTo(dst)
}

// appendTo is AppendTo for any LogAppendTime.
func (m *MessageSetBuilder) appendTo(dst []byte) ([]byte, error) {
	if m.count == 0 {
		return dst, writeError("records", ErrInvalidRecord, "a wrapper needs at least one message")
	}
	if m.Compression == CompressionNone {
		return dst, writeError("attributes", ErrCompression, "a wrapper is compressed: append uncompressed messages with AppendMessage")
	}
	z := m.Compressor
	if z == nil {
		if m.own == nil {
			m.own = &Compressor{}
		}
		z = m.own
	}
	var err error
	if m.scratch, err = z.AppendCompressed(m.scratch[:0], m.Compression, m.Magic, m.inner); err != nil {
		return dst, err
	}
	attrs := int8(m.Compression)
	ts := m.maxTime
	if m.Magic == MagicV1 && m.LogAppendTime != NoTimestamp {
		attrs |= int8(AttrLogAppendTime)
		ts = m.LogAppendTime
	}
	return AppendMessage(dst, m.Magic, m.last, ts, attrs, nil, m.scratch)
}
