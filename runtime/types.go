package runtime

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
)

// For users: the value types of generated structs (nullable strings, UUIDs,
// unknown tagged fields).

// MaxStringLen is the longest string Kafka reads or writes, in bytes of UTF-8.
const MaxStringLen = 0x7fff

// NullString is a nullable string: Valid is false for null.
type NullString struct {
	Value string
	Valid bool
}

// NewNullString returns a valid (non-null) string.
func NewNullString(s string) NullString { return NullString{Value: s, Valid: true} }

// Null is the null NullString.
var Null = NullString{}

// String returns the value, or "<null>" for null.
func (n NullString) String() string {
	if !n.Valid {
		return "<null>"
	}
	return n.Value
}

// UUID is a Kafka uuid: 16 bytes, the most significant 8 first.
type UUID [16]byte

// String renders the UUID as Kafka does: base64url without padding.
func (u UUID) String() string { return base64.RawURLEncoding.EncodeToString(u[:]) }

// ParseUUID parses Kafka's base64url text form.
func ParseUUID(s string) (UUID, error) {
	var u UUID
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) != 16 {
		return u, fmt.Errorf("invalid uuid %q", s)
	}
	copy(u[:], b)
	return u, nil
}

// UUIDFromInts builds a UUID from its two halves, as Java's Uuid(msb, lsb).
func UUIDFromInts(msb, lsb uint64) UUID {
	var u UUID
	binary.BigEndian.PutUint64(u[:8], msb)
	binary.BigEndian.PutUint64(u[8:], lsb)
	return u
}

// UnknownTag is a tagged field the decoder did not know, kept so that a
// message re-encodes to the same bytes.
type UnknownTag struct {
	Tag  uint32
	Data []byte
}

// Tags holds a struct's unknown tagged fields in the order they were read.
type Tags []UnknownTag

// Clone returns a copy of t sharing no memory with it (nil for nil).
func (t Tags) Clone() Tags {
	if t == nil {
		return nil
	}
	c := make(Tags, len(t))
	for i, tag := range t {
		c[i] = UnknownTag{Tag: tag.Tag, Data: bytes.Clone(tag.Data)}
	}
	return c
}
