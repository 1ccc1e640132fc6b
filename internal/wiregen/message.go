package wiregen

import (
	"fmt"
	"math/rand/v2"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// Message is a random value tree of a spec's message, generated valid at
// one version, that can be serialised at any valid version: a model of a
// Java message object filled in, or read, at one version and written at
// another.
type Message struct {
	spec    *schema.Spec
	version int16
	root    *structValue
}

// Generate makes a random message valid at version: every field present at
// version holds a random value (sometimes null where nullable, tagged fields
// at their default half of the time, unknown tags per opts), and every field
// absent from version holds its spec default, exactly as a decoder reading
// version leaves it (MaxBytes 0x7fffffff, "" or null strings per the
// default, empty structs or null per the default, records null). The same
// spec, version, options and rng state give the same tree. It panics if
// version is not one of spec's valid versions.
func Generate(spec *schema.Spec, version int16, rng *rand.Rand, opts Options) *Message {
	checkVersion(spec, version)
	g := &generator{
		rng:      rng,
		opts:     opts.withDefaults(),
		version:  version,
		flexible: spec.FlexibleVersions.Contains(version),
	}
	return &Message{spec: spec, version: version, root: g.genStruct(spec.Root)}
}

// Spec is the message's spec.
func (m *Message) Spec() *schema.Spec { return m.spec }

// Version is the version the message was generated at; Encode(Version())
// never fails.
func (m *Message) Version() int16 { return m.version }

// Encode serialises the message at version, byte for byte as Java's
// generated write method does, or fails as it does (docs/protocol.md):
//
//   - a field absent from version that is not ignorable and holds a
//     non-default value (ReasonNonDefault); ignorable ones are dropped;
//   - null in a field that is not nullable at version (ReasonNull);
//   - unknown tagged fields in a struct at a non-flexible version
//     (ReasonTaggedFields, naming the struct: "" for the message itself);
//   - a string over 0x7fff bytes (ReasonStringTooLong).
//
// Known tagged fields are written only when they differ from their default
// (a struct differs when any of its fields does, present at version or
// not). Fields are visited in declaration order, depth first, and the
// tagged ones in tag order after the others, so the error names the first
// failing field Java's write method reaches. The error is a *WriteError.
// Encode panics if version is not one of the spec's valid versions.
func (m *Message) Encode(version int16) ([]byte, error) {
	checkVersion(m.spec, version)
	e := newEncoder(m.spec, version)
	e.java = true
	b := e.writeStruct(nil, m.root)
	if e.err != nil {
		return nil, e.err
	}
	return b, nil
}

func checkVersion(spec *schema.Spec, version int16) {
	if !spec.ValidVersions.Contains(version) {
		panic(fmt.Sprintf("wiregen: version %d of %s is not in its valid versions %s", version, spec.Name, spec.ValidVersions))
	}
}

// Reason is why Java refuses to write a message at a version.
type Reason string

// The reasons of a WriteError.
const (
	// ReasonNonDefault: Java's UnsupportedVersionException "Attempted to
	// write a non-default X at version V".
	ReasonNonDefault Reason = "non-default"
	// ReasonNull: null in a field that is not nullable at the version (a
	// NullPointerException in Java).
	ReasonNull Reason = "null"
	// ReasonTaggedFields: "Tagged fields were set, but version V of this
	// message does not support them."
	ReasonTaggedFields Reason = "tagged fields"
	// ReasonStringTooLong: "'X' field is too long to be serialized".
	ReasonStringTooLong Reason = "string too long"
)

// WriteError is a message Java refuses to write at a version.
type WriteError struct {
	Message string // the spec name
	Version int16
	// FieldPath is the failing field as a dotted path of spec field names
	// with array indexes, such as "Topics[0].Partitions[1].Name"; for
	// ReasonTaggedFields it is the struct holding the tags ("" for the
	// message itself, "Topics[0]" for an element).
	FieldPath string
	Reason    Reason
}

func (e *WriteError) Error() string {
	switch e.Reason {
	case ReasonNonDefault:
		return fmt.Sprintf("%s: Attempted to write a non-default %s at version %d", e.Message, e.FieldPath, e.Version)
	case ReasonTaggedFields:
		where := e.Message
		if e.FieldPath != "" {
			where += "." + e.FieldPath
		}
		return fmt.Sprintf("%s: Tagged fields were set, but version %d of this message does not support them.", where, e.Version)
	case ReasonNull:
		return fmt.Sprintf("%s: null in %s, which is not nullable at version %d", e.Message, e.FieldPath, e.Version)
	}
	return fmt.Sprintf("%s: %s at version %d: %s", e.Message, e.FieldPath, e.Version, e.Reason)
}
