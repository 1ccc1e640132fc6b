package codec

import (
	"fmt"

	"github.com/kafkagen/kafkagen/runtime"
)

// For generated code: the JSON of unknown tagged fields and the errors of
// generated JSON methods.

// FinishJSON fills in the operation, message and version of an error from a
// generated appendJSON method.
func FinishJSON(err error, message string, version int16) error {
	if e, ok := err.(*runtime.Error); ok {
		e.Op = "marshal JSON"
		e.Message = message
		e.Version = version
	}
	return err
}

// NullError is the error for null in a field that is not nullable at the
// version being written.
func NullError(field string, version int16) error {
	return EncodeError(field, runtime.ErrNull, fmt.Sprintf("not nullable in version %d", version))
}

// AppendJSONUnknownTags appends unknown tagged fields as the JSON array
// [{"tag":N,"data":"<base64>"},...].
func AppendJSONUnknownTags(b []byte, tags runtime.Tags) []byte {
	b = append(b, '[')
	for i, t := range tags {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"tag":`...)
		b = AppendJSONUint(b, uint64(t.Tag))
		b = append(b, `,"data":`...)
		b = AppendJSONBytes(b, t.Data)
		b = append(b, '}')
	}
	return append(b, ']')
}

// UnknownTags reads the array AppendJSONUnknownTags writes into tags'
// capacity. The tags must ascend strictly from above maxKnown, the highest
// tag the struct defines (ErrTagOrder).
func (r *JSONReader) UnknownTags(tags runtime.Tags, maxKnown int) runtime.Tags {
	tags = tags[:0]
	if !r.ArrayStart(NullRefused) {
		return tags
	}
	prev := int64(maxKnown)
	for i := 0; r.NextElem(); i++ {
		r.Index(i)
		start := r.off
		var t runtime.UnknownTag
		if i < cap(tags) {
			t.Data = tags[:i+1][i].Data
		}
		var seenTag, seenData bool
		if !r.ObjectStart() {
			break
		}
		for r.NextKey() {
			switch string(r.key) {
			case "tag":
				if r.Field(&seenTag, "tag") {
					t.Tag = r.Uint32()
				}
			case "data":
				if r.Field(&seenData, "data") {
					t.Data = r.Bytes(t.Data)
				}
			default:
				r.UnknownKey()
			}
			r.Pop()
		}
		r.Require(seenTag, "tag")
		r.Require(seenData, "data")
		if r.err == nil && int64(t.Tag) <= prev {
			r.failAt(start, runtime.ErrTagOrder, fmt.Sprintf("tag %d comes after tag %d", t.Tag, prev))
		}
		prev = int64(t.Tag)
		tags = append(tags, t)
	}
	return tags
}
