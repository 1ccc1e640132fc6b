// Package runtime is what code using a kafkagen-generated package calls.
// It imports only the standard library.
//
//   - The interfaces every generated message implements (message.go):
//     [Message] (Size, AppendTo, Decode, DecodeAliased, Reset), [Versioned]
//     (spec name, API key, version range, flexibility) and [APIMessage] for
//     requests and responses (header version, request or response).
//   - Errors (errors.go): every error generated code returns is an [*Error]
//     naming the message, the field path, the version and, when decoding,
//     the byte offset; it wraps one sentinel to test with errors.Is:
//     [ErrShortBuffer], [ErrInvalidLength], [ErrMalformedVarint], [ErrNull],
//     [ErrUnsupportedVersion], [ErrNonDefault], [ErrStringTooLong],
//     [ErrTaggedFields], [ErrInvalidTag], [ErrTagOrder], and for JSON
//     [ErrJSONSyntax], [ErrJSONType], [ErrUnknownField], [ErrFieldVersion],
//     [ErrMissingField], [ErrDuplicateField].
//   - Value types of generated struct fields (types.go): [NullString] with
//     [NewNullString] and [Null] for nullable strings; [UUID] with
//     [ParseUUID] and [UUIDFromInts]; [Tags] and [UnknownTag], the tagged
//     fields a decoder did not know, kept so that a message re-encodes to
//     the same bytes; [MaxStringLen], the longest string Kafka carries.
//   - JSON (json_message.go), for packages generated with -json:
//     [JSONMessage] (AppendJSON, DecodeJSON), [JSONOptions] with
//     [JSONRequestLog], and [VersionedJSON] for encoding/json at a chosen
//     version.
//   - Entities (entity.go): [Entities] and [Endpoints], the visitors every
//     generated message has, which reach the fields of an entity type
//     (topic names, group ids...) and the broker addresses a message holds.
//
// The primitives generated methods are made of (writers, sizes, the
// Decoder, the JSON reader and writers, the errors they build) are in
// package codec, which only generated code calls.
package runtime
