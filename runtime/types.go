package runtime

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
)

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

// Size is the encoded size of the tags (not counting the section's count).
func (t Tags) Size() int {
	n := 0
	for _, u := range t {
		n += SizeUvarint(u.Tag) + SizeUvarint(uint32(len(u.Data))) + len(u.Data)
	}
	return n
}

// Check reports ErrTagOrder unless the tags are strictly ascending and all
// above the highest tag the struct defines (-1 when none).
func (t Tags) Check(maxKnown int) error {
	prev := int64(maxKnown)
	for _, u := range t {
		if int64(u.Tag) <= prev {
			return EncodeError("", ErrTagOrder, fmt.Sprintf("tag %d comes after tag %d", u.Tag, prev))
		}
		prev = int64(u.Tag)
	}
	return nil
}

// SectionSize is the encoded size of a tag section holding only these tags.
func (t Tags) SectionSize() int { return SizeUvarint(uint32(len(t))) + t.Size() }

// AppendTagSection writes a tag section holding only these tags, after
// checking their order against the highest tag the struct defines.
func AppendTagSection(b []byte, t Tags, maxKnown int) ([]byte, error) {
	if err := t.Check(maxKnown); err != nil {
		return b, err
	}
	b = AppendUvarint(b, uint32(len(t)))
	return AppendTags(b, t), nil
}

// AppendTags writes the tags (not the section's count).
func AppendTags(b []byte, t Tags) []byte {
	for _, u := range t {
		b = AppendUvarint(b, u.Tag)
		b = AppendUvarint(b, uint32(len(u.Data)))
		b = append(b, u.Data...)
	}
	return b
}
