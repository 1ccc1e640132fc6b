// Package codec holds the primitives that kafkagen's generated methods are
// made of; only generated code calls it. Its names are exported because
// generated packages live elsewhere, not because they are meant for
// hand-written code: their behaviour is pinned by what the generator
// emits, and they change with it. Users call package runtime (the message
// interfaces, errors and field types) and the generated methods.
//
//   - append.go: Append* functions writing one value (AppendInt32,
//     AppendString, AppendArrayLen...), Bool8, and [Extend] for runs of
//     fixed-width fields written with one capacity check. Unsigned varints
//     are encoding/binary's AppendUvarint; [SizeUvarint] sizes them.
//   - size.go: Size* functions, the encoded length of one value.
//   - tags.go: tag sections of unknown tagged fields ([TagsSize],
//     [CheckTags], [AppendTagSection], [AppendUnknownTags], [AppendTags]).
//   - lengths.go: [Lengths], how a version writes lengths and counts
//     ([Classic] or [Compact]), which the functions taking a length are given.
//   - decoder.go and decoder_lengths.go: [Decoder], which reads a byte
//     slice at offsets the generated code keeps (each read returns the
//     next), records the first failure with its field, and has fixed-width,
//     length-prefixed and tag-section reads.
//   - reuse.go: [Grow], which resizes a slice keeping its capacity and the
//     elements past its length for reuse.
//   - errors.go: building the *runtime.Error of a failed encode
//     ([EncodeError], [NonDefaultError], [AbsentFieldError], [StringTooLongError],
//     [TaggedFieldsError], [Within], [WithinElem], [Finish],
//     [UnsupportedVersion]).
//   - table.go, table_decode.go, table_encode.go: [Struct], the table of
//     a generated struct whose encode and decode are not printed (the APIs
//     off the data path), and its interpreters [AppendStruct] and
//     [DecodeStruct], which write, read and fail as printed methods do.
//   - clone.go: [Clone], the deep copy behind every generated Clone method.
//   - noinline.go: the out-of-line (//go:noinline) wrappers of the above
//     that code running once per message calls, so that it compiles small.
//   - json_*.go: Kafka's JSON form for packages generated with -json:
//     [JSONReader] and its [Nullability], the AppendJSON* writers, and the
//     JSON of unknown tagged fields.
package codec
