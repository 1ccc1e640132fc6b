package runtime

import "errors"

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
