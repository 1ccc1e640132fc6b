package records

import (
	"errors"
	"strconv"
	"strings"
)

// Sentinel errors. Every error of this package is an *Error wrapping exactly
// one of these, so callers can test them with errors.Is.
var (
	// ErrTruncated: a length runs past the end of what holds it (a batch past
	// the end of a blob read with Reader.Complete, a record past the end of
	// its batch, an inner message past the end of its wrapper).
	ErrTruncated = errors.New("truncated")
	// ErrInvalidLength: a length or count is negative where it cannot be,
	// or smaller or larger than its format allows.
	ErrInvalidLength = errors.New("invalid length")
	// ErrChecksum: the stored CRC does not match the bytes.
	ErrChecksum = errors.New("checksum mismatch")
	// ErrRecordCount: a v2 batch's record count disagrees with its records.
	ErrRecordCount = errors.New("record count disagrees with the records")
	// ErrMagic: a magic byte other than 0, 1 or 2, or an inner message whose
	// magic differs from its wrapper's.
	ErrMagic = errors.New("unsupported magic")
	// ErrMalformedVarint: a varint longer than its type allows.
	ErrMalformedVarint = errors.New("malformed varint")
	// ErrCompression: a codec this format does not have, or none
	// configured for it.
	ErrCompression = errors.New("unsupported compression")
	// ErrCorrupt: compressed data the codec cannot decompress.
	ErrCorrupt = errors.New("corrupt compressed data")
	// ErrTooLarge: decompressing would exceed the Decompressor's limit.
	ErrTooLarge = errors.New("decompressed size over the limit")
	// ErrInvalidRecord: a record or batch field holds a value its format
	// forbids (a nested compressed message, a control record key that is
	// too short, a builder given no records).
	ErrInvalidRecord = errors.New("invalid record")
)

// Error says where in a records blob something is wrong and what. Pos and
// BaseOffset locate the batch (for a legacy message, BaseOffset is its
// offset field); Record and RecordPos locate the record within it.
type Error struct {
	Pos        int    // byte position of the batch in the blob, -1 when writing
	BaseOffset int64  // the batch's base offset, or -1 when not yet read
	Record     int    // index of the record in its batch, -1 for the batch itself
	RecordPos  int    // byte position of the record in the (decompressed) records, -1 for the batch itself
	Field      string // what was being read: "length", "crc", "key", ...
	Err        error  // one of the sentinels
	Detail     string // the numbers behind it
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("records: ")
	if e.Pos >= 0 {
		b.WriteString("batch at byte ")
		b.WriteString(strconv.Itoa(e.Pos))
	} else {
		b.WriteString("writing batch")
	}
	if e.BaseOffset >= 0 {
		b.WriteString(" (base offset ")
		b.WriteString(strconv.FormatInt(e.BaseOffset, 10))
		b.WriteString(")")
	}
	if e.Record >= 0 {
		b.WriteString(", record ")
		b.WriteString(strconv.Itoa(e.Record))
		if e.RecordPos >= 0 {
			b.WriteString(" at byte ")
			b.WriteString(strconv.Itoa(e.RecordPos))
			b.WriteString(" of the records")
		}
	}
	if e.Field != "" {
		b.WriteString(": ")
		b.WriteString(e.Field)
	}
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	return b.String()
}

// Unwrap returns the sentinel.
func (e *Error) Unwrap() error { return e.Err }

// batchError is the error of a batch-level problem.
func batchError(pos int, base int64, field string, err error, detail string) error {
	return &Error{Pos: pos, BaseOffset: base, Record: -1, RecordPos: -1, Field: field, Err: err, Detail: detail}
}

// writeError is the error of a builder.
func writeError(field string, err error, detail string) error {
	return &Error{Pos: -1, BaseOffset: -1, Record: -1, RecordPos: -1, Field: field, Err: err, Detail: detail}
}
