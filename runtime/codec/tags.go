package codec

import (
	"encoding/binary"
	"fmt"

	"github.com/kafkagen/kafkagen/runtime"
)

// Writing and sizing the unknown tagged fields of a struct's tag section.

// TagsSize is the encoded size of the tags t (not counting the section's
// count).
func TagsSize(t runtime.Tags) int {
	n := 0
	for _, u := range t {
		n += SizeUvarint(uint64(u.Tag)) + SizeUvarint(uint64(len(u.Data))) + len(u.Data)
	}
	return n
}

// CheckTags reports ErrTagOrder unless the tags t are strictly ascending
// and all above the highest tag the struct defines (-1 when none).
func CheckTags(t runtime.Tags, maxKnown int) error {
	prev := int64(maxKnown)
	for _, u := range t {
		if int64(u.Tag) <= prev {
			return EncodeError("", runtime.ErrTagOrder, fmt.Sprintf("tag %d comes after tag %d", u.Tag, prev))
		}
		prev = int64(u.Tag)
	}
	return nil
}

// AppendTagSection writes a tag section holding only the tags t, after
// checking their order against the highest tag the struct defines.
func AppendTagSection(b []byte, t runtime.Tags, maxKnown int) ([]byte, error) {
	if err := CheckTags(t, maxKnown); err != nil {
		return b, err
	}
	b = binary.AppendUvarint(b, uint64(len(t)))
	return AppendTags(b, t), nil
}

// AppendUnknownTags writes the tag section of a struct that defines no
// tagged field (maxKnown -1, or its highest tag): the unknown tags t, after
// checking their order. With Classic lengths the version has no tag
// section, and any tag is an error (ErrTaggedFields).
func AppendUnknownTags(b []byte, t runtime.Tags, maxKnown int, l Lengths) ([]byte, error) {
	if l == Classic {
		if len(t) > 0 {
			return b, TaggedFieldsError()
		}
		return b, nil
	}
	return AppendTagSection(b, t, maxKnown)
}

// AppendTags writes the tags t (not the section's count).
func AppendTags(b []byte, t runtime.Tags) []byte {
	for _, u := range t {
		b = binary.AppendUvarint(b, uint64(u.Tag))
		b = binary.AppendUvarint(b, uint64(len(u.Data)))
		b = append(b, u.Data...)
	}
	return b
}
