package runtime

import "fmt"

// For generated code: writing and sizing the unknown tagged fields of a
// struct's tag section.

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

// AppendUnknownTags writes the tag section of a struct that defines no
// tagged field (maxKnown -1, or its highest tag): the unknown tags t, after
// checking their order. With Classic lengths the version has no tag
// section, and any tag is an error (ErrTaggedFields).
func AppendUnknownTags(b []byte, t Tags, maxKnown int, l Lengths) ([]byte, error) {
	if l == Classic {
		if len(t) > 0 {
			return b, TaggedFieldsError()
		}
		return b, nil
	}
	return AppendTagSection(b, t, maxKnown)
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
