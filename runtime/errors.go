package runtime

import (
	"errors"
	"fmt"
	"strings"
)

// For users: the sentinel errors and the Error that generated code returns.

// Sentinel errors. Errors returned by generated code wrap exactly one of
// these, so callers can test them with errors.Is.
var (
	// ErrShortBuffer: the input ended before the message did.
	ErrShortBuffer = errors.New("short buffer")
	// ErrInvalidLength: a length or count is out of range, such as a string
	// over 32767 bytes or an array count larger than the remaining input.
	ErrInvalidLength = errors.New("invalid length")
	// ErrMalformedVarint: an unsigned varint runs past five bytes.
	ErrMalformedVarint = errors.New("malformed varint")
	// ErrNull: null in a field that is not nullable at this version.
	ErrNull = errors.New("null in a non-nullable field")
	// ErrUnsupportedVersion: the version is outside the message's valid versions.
	ErrUnsupportedVersion = errors.New("unsupported version")
	// ErrNonDefault: a field that the version cannot carry, and that is not
	// ignorable, holds a non-default value (Java: "Attempted to write a
	// non-default X at version V").
	ErrNonDefault = errors.New("non-default value in a field absent from this version")
	// ErrStringTooLong: a string longer than 32767 bytes on write.
	ErrStringTooLong = errors.New("string longer than 32767 bytes")
	// ErrTaggedFields: unknown tagged fields are set, but the version is not
	// flexible.
	ErrTaggedFields = errors.New("tagged fields set at a version that does not support them")
	// ErrInvalidTag: a known tag read at a version where the field is not tagged.
	ErrInvalidTag = errors.New("tag not valid for this version")
	// ErrTagOrder: unknown tagged fields are not in strictly ascending order,
	// or one uses a tag the struct defines.
	ErrTagOrder = errors.New("invalid unknown tagged field list")
)

// Error is the error generated code returns: which message and field failed,
// at which version and (for decoding) at which byte offset.
type Error struct {
	Op      string // "encode" or "decode"
	Message string // the spec name, such as "FetchRequest"
	Field   string // dotted path of spec field names, "" for the message itself
	Version int16
	Offset  int // byte offset in the input when decoding, -1 when encoding
	Detail  string
	Err     error // one of the sentinels
}

// Error renders the error in one line: "kafka decode FetchRequest.Topics[0].Partitions
// v12 at byte 37: short buffer: need 4 bytes, have 1".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("kafka ")
	b.WriteString(e.Op)
	b.WriteString(" ")
	b.WriteString(e.Message)
	if e.Field != "" {
		b.WriteString(".")
		b.WriteString(e.Field)
	}
	fmt.Fprintf(&b, " v%d", e.Version)
	if e.Offset >= 0 {
		fmt.Fprintf(&b, " at byte %d", e.Offset)
	}
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	return b.String()
}

// Unwrap returns the sentinel, for errors.Is.
func (e *Error) Unwrap() error { return e.Err }
