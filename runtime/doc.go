// Package runtime is the small library that kafkagen's generated code is
// built on. It imports only the standard library. Its exported names serve
// two audiences, kept in separate files.
//
// # What users call
//
// Code that uses a generated package needs only these:
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
//     [ErrTaggedFields], [ErrInvalidTag], [ErrTagOrder].
//   - Value types of generated struct fields (types.go): [NullString] with
//     [NewNullString] and [Null] for nullable strings; [UUID] with
//     [ParseUUID] and [UUIDFromInts]; [Tags] and [UnknownTag], the tagged
//     fields a decoder did not know, kept so that a message re-encodes to
//     the same bytes; [MaxStringLen], the longest string Kafka carries.
//
// # What only generated code calls
//
// The codec_*.go files hold the encoding primitives that generated
// methods are made of. They are exported because generated packages live
// elsewhere, not because they are meant for hand-written code; their
// behaviour is pinned by what the generator emits, and they may change
// with it:
//
//   - codec_append.go: Append* functions writing one value (AppendInt32,
//     AppendString, AppendArrayLen...), Bool8, and [Extend] for runs of
//     fixed-width fields written with one capacity check.
//   - codec_size.go: Size* functions, the encoded length of one value.
//   - codec_tags.go: tag sections of unknown tagged fields ([Tags.Check],
//     [Tags.SectionSize], [AppendTagSection], [AppendTags]).
//   - codec_lengths.go: [Lengths], how a version writes lengths and counts
//     ([Classic] or [Compact]), which the functions taking a length are given.
//   - codec_decoder.go and codec_decoder_lengths.go: [Decoder], which reads
//     a byte slice at offsets the generated code keeps (each read returns
//     the next), records the first failure with its field, and has
//     fixed-width, length-prefixed and tag-section reads.
//   - codec_reuse.go: [Grow], which resizes a slice keeping its capacity
//     and the elements past its length for reuse.
//   - codec_errors.go: building the [*Error] of a failed encode
//     ([EncodeError], [NonDefaultError], [StringTooLongError],
//     [TaggedFieldsError], [Within], [WithinElem], [Finish],
//     [UnsupportedVersion]).
//
// The json_*.go files read and write messages as JSON, in the format of
// Kafka's generated JsonConverters, for packages generated with -json.
// Users call [JSONMessage] (AppendJSON, DecodeJSON), [JSONOptions] and
// [VersionedJSON] (encoding/json at a chosen version); [JSONReader], its
// [Nullability], and the AppendJSON* writers are what generated code calls.
package runtime
