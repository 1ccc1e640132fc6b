package codec

// For generated code: how a version writes lengths and counts.

// Lengths says how a message version writes the lengths of strings, bytes
// and records and the counts of arrays. Generated code passes it to the
// Append*, Size* and Decoder functions that take a length; it is a constant
// where the version settles it at generation time, and Lengths(version >= N)
// otherwise.
type Lengths bool

const (
	// Classic lengths are what versions before a message's flexible versions
	// use: an int16 length for strings, an int32 length for bytes, records
	// and array counts, and -1 for null.
	Classic Lengths = false
	// Compact lengths are what flexible versions use: an unsigned varint of
	// the length plus one, and 0 for null.
	Compact Lengths = true
)
