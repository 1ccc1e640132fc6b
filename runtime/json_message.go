package runtime

import (
	"errors"
	"fmt"
)

// JSON errors. Errors of generated JSON code are *Error values (Op
// "marshal JSON" or "unmarshal JSON") wrapping one of these, or ErrNull,
// ErrNonDefault, ErrStringTooLong or ErrTagOrder.
var (
	// ErrJSONSyntax: the input is not JSON.
	ErrJSONSyntax = errors.New("invalid JSON")
	// ErrJSONType: a value of the wrong JSON type for its field, or one out
	// of the field's range (300 for an int8, a uuid of the wrong length).
	ErrJSONType = errors.New("wrong JSON value for the field")
	// ErrUnknownField: a key the struct does not define.
	ErrUnknownField = errors.New("unknown field")
	// ErrFieldVersion: a field the version being read does not have (Java:
	// "field 'x' is not supported in version V").
	ErrFieldVersion = errors.New("field not present at this version")
	// ErrMissingField: a field that is mandatory at the version (present
	// and not tagged) is absent.
	ErrMissingField = errors.New("missing field")
	// ErrDuplicateField: a key given twice in one object.
	ErrDuplicateField = errors.New("duplicate field")
)

// UnknownTagsKey is the JSON key under which unknown tagged fields are
// written, as [{"tag":N,"data":"<base64>"},...]. A spec field name starts
// with a letter, so the key never clashes with one; Kafka's own reader
// ignores it.
const UnknownTagsKey = "_unknownTaggedFields"

// JSONOptions choose between the lossless form, the default, and the parts
// of Kafka's request-log form that lose data.
type JSONOptions struct {
	// RecordsSize writes a records field as Kafka's request log does
	// (JsonConverter.write with serializeRecords false): the key
	// "<field>SizeInBytes" holding the length, instead of "<field>" holding
	// the bytes in base64. JSON written so cannot be read back.
	RecordsSize bool
	// OmitUnknownTags leaves unknown tagged fields out, as Kafka's converter
	// does. By default they are written under UnknownTagsKey, so that the
	// JSON reads back to a message that encodes to the same bytes.
	OmitUnknownTags bool
}

// JSONRequestLog is Kafka's request-log form: what RequestConvertToJson
// logs (records by size, unknown tags left out).
var JSONRequestLog = JSONOptions{RecordsSize: true, OmitUnknownTags: true}

// JSONMessage is implemented by messages generated with kafkagen -json.
type JSONMessage interface {
	Message
	Versioned
	// AppendJSON appends the message as Kafka's generated JsonConverter
	// writes it at version: fields present at version, tagged ones only
	// when they differ from their default. It fails where Java's converter
	// does (a non-ignorable field absent at version holding a non-default
	// value) and on null in a field not nullable at version.
	AppendJSON(dst []byte, version int16, opts JSONOptions) ([]byte, error)
	// DecodeJSON resets the message and reads it from JSON written at
	// version: every key must be a field present at version, and every
	// field present and not tagged at version must be given.
	DecodeJSON(data []byte, version int16) error
}

// VersionedJSON adapts a JSONMessage to encoding/json at any version:
// json.Marshal(runtime.VersionedJSON{Message: m, Version: 12}).
// (A generated message's own MarshalJSON and UnmarshalJSON use its
// MaxVersion.)
type VersionedJSON struct {
	Message JSONMessage
	Version int16
	Options JSONOptions
}

// MarshalJSON implements json.Marshaler.
func (v VersionedJSON) MarshalJSON() ([]byte, error) {
	return v.Message.AppendJSON(nil, v.Version, v.Options)
}

// UnmarshalJSON implements json.Unmarshaler.
func (v VersionedJSON) UnmarshalJSON(data []byte) error {
	return v.Message.DecodeJSON(data, v.Version)
}

// FinishJSON fills in the operation, message and version of an error from a
// generated appendJSON method.
func FinishJSON(err error, message string, version int16) error {
	if e, ok := err.(*Error); ok {
		e.Op = "marshal JSON"
		e.Message = message
		e.Version = version
	}
	return err
}

// NullError is the error for null in a field that is not nullable at the
// version being written.
func NullError(field string, version int16) error {
	return EncodeError(field, ErrNull, fmt.Sprintf("not nullable in version %d", version))
}

// AppendJSONUnknownTags appends unknown tagged fields as the JSON array
// [{"tag":N,"data":"<base64>"},...].
func AppendJSONUnknownTags(b []byte, tags Tags) []byte {
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
func (r *JSONReader) UnknownTags(tags Tags, maxKnown int) Tags {
	tags = tags[:0]
	if !r.ArrayStart(NullRefused) {
		return tags
	}
	prev := int64(maxKnown)
	for i := 0; r.NextElem(); i++ {
		r.Index(i)
		start := r.off
		var t UnknownTag
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
			r.failAt(start, ErrTagOrder, fmt.Sprintf("tag %d comes after tag %d", t.Tag, prev))
		}
		prev = int64(t.Tag)
		tags = append(tags, t)
	}
	return tags
}
