package runtime

// For users: the interfaces every generated message implements.

// Message is implemented by every generated top-level message.
type Message interface {
	// Size returns the exact encoded length at version, or -1 if the
	// version is not supported (AppendTo then fails with
	// ErrUnsupportedVersion): no length is negative, so it cannot pass for
	// one.
	Size(version int16) int
	// AppendTo appends the encoding at version to dst. Into a dst without
	// spare capacity it sizes the encoding exactly and allocates once; into
	// a buffer with room it writes directly, growing it as append does if
	// the room runs out. On error dst is returned unchanged.
	AppendTo(dst []byte, version int16) ([]byte, error)
	// Decode resets the message, decodes it from src and returns the number of
	// bytes read. Strings and byte slices do not alias src.
	Decode(src []byte, version int16) (int, error)
	// DecodeAliased is Decode, but strings and byte slices alias src, which
	// must then stay unchanged while the message is in use.
	DecodeAliased(src []byte, version int16) (int, error)
	// Reset sets every field to its spec default, keeping slice capacity.
	Reset()
}

// Versioned is implemented by every generated top-level message.
type Versioned interface {
	// SpecName is the spec's "name", such as "FetchRequest".
	SpecName() string
	// APIKey is the spec's apiKey, or -1 when it has none.
	APIKey() int16
	// MinVersion is the lowest version the package supports (the spec's
	// lowest valid version, or the minimum a pruned package was generated
	// from).
	MinVersion() int16
	// MaxVersion is the highest version the package supports.
	MaxVersion() int16
	// IsFlexible reports whether version uses compact encodings and tag sections.
	IsFlexible(version int16) bool
}

// APIMessage is a request or response: a Message that knows its API key,
// versions and the header version it travels with.
type APIMessage interface {
	Message
	Versioned
	// HeaderVersion is the request header version for a request, or the
	// response header version for a response, used with this message version.
	HeaderVersion(version int16) int16
	// IsRequest reports whether this is the request side of the API.
	IsRequest() bool
}
