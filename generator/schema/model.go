// Package schema is kafkagen's input model: it loads Apache Kafka JSON message
// specs exactly as Kafka's own generator accepts them (a syntax scan that
// locates errors and blanks comments, json_syntax.go, then gjson reads the
// values at their byte positions, json_values.go), validates them with the
// same rules, and resolves struct references and effective version ranges.
// Rules select the generator whose acceptance rules apply: the current one,
// or Kafka 2.x's for spec folders of those releases. It knows nothing about
// Go naming or code emission.
package schema

// SpecType is a spec file's "type".
type SpecType string

// The spec types Kafka's generator knows. Kafka 4.1 added the coordinator
// record types: the key and the value of a record that the group, share
// and transaction coordinators write to their internal topics, paired by
// apiKey (the record type), as metadata records are keyed.
const (
	TypeRequest          SpecType = "request"
	TypeResponse         SpecType = "response"
	TypeHeader           SpecType = "header"
	TypeMetadata         SpecType = "metadata"
	TypeData             SpecType = "data"
	TypeCoordinatorKey   SpecType = "coordinator-key"
	TypeCoordinatorValue SpecType = "coordinator-value"
)

// Pos is a byte offset into a spec file, as read (comments included).
type Pos int

// Spec is one loaded spec file.
type Spec struct {
	File string // path as given to Load, used in diagnostics
	Pos  Pos    // the opening brace

	Type                  SpecType
	Name                  string
	APIKey                int16
	HasAPIKey             bool
	ValidVersions         Versions
	FlexibleVersions      Versions
	DeprecatedVersions    Versions
	LatestVersionUnstable bool
	Listeners             []string

	// Root is the message body: its Versions are ValidVersions.
	Root *Struct
	// CommonStructs are the file's shared struct definitions, in file order.
	CommonStructs []*Struct
	// Structs is every struct of the file (inline and common, not Root), in
	// the order they are first defined.
	Structs []*Struct

	index lineIndex
}

// Removed reports whether the spec has no valid versions
// ("validVersions": "none"): Kafka 4.0 keeps such a spec for each API it
// removed whole, so that the API key is never reused. Kafka's generator
// writes no message class for it, and neither does kafkagen.
func (s *Spec) Removed() bool { return s.ValidVersions.Empty() }

// Position converts an offset to a 1-based line and column.
func (s *Spec) Position(p Pos) (line, col int) { return s.index.position(int(p)) }

// Struct is a message body, an inline struct or a common struct.
type Struct struct {
	Name     string
	Pos      Pos
	Versions Versions // the spec's "versions" (validVersions for the root)
	Fields   []*Field
	Common   bool
	// Used is the hull of the version ranges in which the struct is actually
	// reachable from the root; the empty range when it is never used.
	Used Versions
	// Parent is the field defining an inline struct (nil for root and common structs).
	Parent *Field
}

// Kind is a field's base type.
type Kind int

// Field kinds. KindStruct is also the element kind of a struct array.
const (
	KindBool Kind = iota
	KindInt8
	KindInt16
	KindUint16
	KindInt32
	KindUint32
	KindInt64
	KindFloat64
	KindString
	KindBytes
	KindRecords
	KindUUID
	KindStruct
)

var kindNames = map[string]Kind{
	"bool": KindBool, "int8": KindInt8, "int16": KindInt16, "uint16": KindUint16,
	"int32": KindInt32, "uint32": KindUint32, "int64": KindInt64, "float64": KindFloat64,
	"string": KindString, "bytes": KindBytes, "records": KindRecords, "uuid": KindUUID,
}

// String returns the spec name of a primitive kind ("struct" for structs).
func (k Kind) String() string {
	for name, kind := range kindNames {
		if kind == k {
			return name
		}
	}
	return "struct"
}

// FixedSize is the encoded width of a fixed-size kind, or 0 for variable ones.
func (k Kind) FixedSize() int {
	switch k {
	case KindBool, KindInt8:
		return 1
	case KindInt16, KindUint16:
		return 2
	case KindInt32, KindUint32:
		return 4
	case KindInt64, KindFloat64:
		return 8
	case KindUUID:
		return 16
	}
	return 0
}

// IsNumber reports whether the kind is an integer or float64.
func (k Kind) IsNumber() bool { return k >= KindInt8 && k <= KindFloat64 }

// Type is a field's type: a primitive, a struct, or an array of either.
type Type struct {
	Raw        string // as written in the spec
	Array      bool
	Kind       Kind   // element kind for arrays
	StructName string // for struct and struct-array types
}

// Nullable types per Kafka: strings, bytes, records, arrays and structs.
func (t Type) CanBeNullable() bool {
	return t.Array || t.Kind == KindString || t.Kind == KindBytes || t.Kind == KindRecords || t.Kind == KindStruct
}

// Field is one field of a struct.
type Field struct {
	Pos    Pos
	Name   string
	About  string
	Type   Type
	Struct *Struct // resolved struct for struct and struct-array types

	Versions         Versions // as written (or taggedVersions when absent)
	NullableVersions Versions
	TaggedVersions   Versions
	Tag              int
	HasTag           bool
	// FlexibleVersions overrides the message's flexible versions for this
	// field's own encoding when HasFlexibleVersions (string and bytes only).
	FlexibleVersions    Versions
	HasFlexibleVersions bool

	Default    string // "" when absent (Jackson coerces numbers and bools to text)
	HasDefault bool
	Ignorable  bool
	MapKey     bool
	ZeroCopy   bool
	EntityType string

	// Present is Versions intersected with the enclosing struct's usable
	// range, filled in by Resolve.
	Present Versions
	// Owner is the struct holding the field.
	Owner *Struct
	// DefaultValue is Default parsed (facts.go), set once the spec loaded.
	DefaultValue Default
}

// DefaultIsNull reports whether the field's default is null ("null" on a
// nullable string, bytes, array or struct, or any records field).
func (f *Field) DefaultIsNull() bool {
	if f.Type.Kind == KindRecords && !f.Type.Array {
		return true
	}
	return f.Default == "null" && f.Type.CanBeNullable()
}

// NullableAt reports whether the field may be null at version v.
func (f *Field) NullableAt(v int16) bool { return f.NullableVersions.Contains(v) }

// TaggedAt reports whether the field is written in the tag section at version v.
func (f *Field) TaggedAt(v int16) bool { return f.HasTag && f.TaggedVersions.Contains(v) }

// FlexibleAt reports whether the field's own encoding (lengths of strings,
// bytes, records and arrays) is compact at version v, given the message's
// flexible versions.
func (f *Field) FlexibleAt(message Versions, v int16) bool {
	if f.HasFlexibleVersions {
		return f.FlexibleVersions.Contains(v)
	}
	return message.Contains(v)
}
