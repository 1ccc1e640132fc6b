package wiregen

import (
	"encoding/hex"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// A MetadataRequest look-alike: Topics nullable only from v1, Name nullable
// only from v3, a non-ignorable bool absent before v2 with a true default,
// an ignorable int32 absent after v1, a tagged struct from v4.
const transcodeSpec = `{
  "apiKey": 3, "type": "request", "name": "MetadataRequest",
  "validVersions": "0-5", "flexibleVersions": "3+",
  "fields": [
    { "name": "Topics", "type": "[]MetadataRequestTopic", "versions": "0+", "nullableVersions": "1+",
      "fields": [
        { "name": "TopicId", "type": "uuid", "versions": "2+", "ignorable": true },
        { "name": "Name", "type": "string", "versions": "0+", "nullableVersions": "3+" },
        { "name": "Extra", "type": "int32", "versions": "4+" }
    ]},
    { "name": "AllowAutoTopicCreation", "type": "bool", "versions": "2+", "default": "true" },
    { "name": "Dropped", "type": "int32", "versions": "0-1", "ignorable": true },
    { "name": "MaxBytes", "type": "int32", "versions": "1+", "default": "0x7fffffff" },
    { "name": "Cursor", "type": "Cursor", "versions": "4+", "tag": 0, "taggedVersions": "4+",
      "fields": [
        { "name": "A", "type": "int32", "versions": "4+" },
        { "name": "B", "type": "string", "versions": "5+" }
    ]}
  ]
}`

func newMessage(spec *schema.Spec, version int16, root *structValue) *Message {
	return &Message{spec: spec, version: version, root: root}
}

func encodeHex(t *testing.T, m *Message, version int16) (string, *WriteError) {
	t.Helper()
	b, err := m.Encode(version)
	if err != nil {
		var we *WriteError
		require.True(t, errors.As(err, &we), "%T", err)
		assert.Nil(t, b)
		return "", we
	}
	return hex.EncodeToString(b), nil
}

func TestMessageEncodeJavaChecks(t *testing.T) {
	spec := load(t, transcodeSpec)
	base := func() *structValue { return defaults(spec.Root, 0) }

	// Every field at its default (MaxBytes 0x7fffffff, AllowAutoTopicCreation
	// true) writes at every version.
	for _, v := range Versions(spec) {
		_, werr := encodeHex(t, newMessage(spec, 0, base()), v)
		assert.Nil(t, werr, "v%d", v)
	}
	got, _ := encodeHex(t, newMessage(spec, 0, base()), 0)
	assert.Equal(t, "00000000"+"00000000", got)
	got, _ = encodeHex(t, newMessage(spec, 0, base()), 2)
	assert.Equal(t, "00000000"+"01"+"7fffffff", got)

	// A non-ignorable field absent from the version, non-default: refused.
	root := with(t, base(), map[string]value{"AllowAutoTopicCreation": num(0)})
	_, werr := encodeHex(t, newMessage(spec, 2, root), 1)
	require.NotNil(t, werr)
	assert.Equal(t, WriteError{Message: "MetadataRequest", Version: 1, FieldPath: "AllowAutoTopicCreation", Reason: ReasonNonDefault}, *werr)
	assert.Equal(t, "MetadataRequest: Attempted to write a non-default AllowAutoTopicCreation at version 1", werr.Error())
	got, werr = encodeHex(t, newMessage(spec, 2, root), 2)
	assert.Nil(t, werr)
	assert.Equal(t, "00000000"+"00"+"7fffffff", got)

	// An ignorable one is dropped.
	root = with(t, base(), map[string]value{"Dropped": num(7)})
	got, werr = encodeHex(t, newMessage(spec, 0, root), 2)
	assert.Nil(t, werr)
	assert.Equal(t, "00000000"+"01"+"7fffffff", got)

	// Null where the version is not nullable, top level and nested.
	root = with(t, base(), map[string]value{"Topics": null()})
	_, werr = encodeHex(t, newMessage(spec, 1, root), 0)
	assert.Equal(t, &WriteError{Message: "MetadataRequest", FieldPath: "Topics", Reason: ReasonNull}, werr)
	got, werr = encodeHex(t, newMessage(spec, 1, root), 1)
	assert.Nil(t, werr)
	assert.Equal(t, "ffffffff"+"00000000"+"7fffffff", got)
	withTopics := func(v int16, names ...value) *structValue {
		r := base()
		var elems []value
		for _, n := range names {
			elems = append(elems, elem(t, r, "Topics", v, map[string]value{"Name": n}))
		}
		return with(t, r, map[string]value{"Topics": arr(elems...)})
	}
	root = withTopics(3, str("a"), null())
	_, werr = encodeHex(t, newMessage(spec, 3, root), 2)
	assert.Equal(t, &WriteError{Message: "MetadataRequest", Version: 2, FieldPath: "Topics[1].Name", Reason: ReasonNull}, werr)

	// Declaration order decides which of two failures is reported.
	root = with(t, withTopics(3, null()), map[string]value{"Topics": null(), "AllowAutoTopicCreation": num(0)})
	_, werr = encodeHex(t, newMessage(spec, 3, root), 0)
	assert.Equal(t, "Topics", werr.FieldPath)

	// Unknown tags at a non-flexible version name their struct.
	root = base()
	root.unknown = []rawTag{{tag: 5, data: []byte{1}}}
	_, werr = encodeHex(t, newMessage(spec, 3, root), 2)
	assert.Equal(t, &WriteError{Message: "MetadataRequest", Version: 2, FieldPath: "", Reason: ReasonTaggedFields}, werr)
	assert.Equal(t, "MetadataRequest: Tagged fields were set, but version 2 of this message does not support them.", werr.Error())
	got, werr = encodeHex(t, newMessage(spec, 3, root), 3)
	assert.Nil(t, werr)
	assert.Equal(t, "01"+"01"+"7fffffff"+"01050101", got)
	root = withTopics(3, str("a"), str("b"))
	root.fields[0].elems[1].st.unknown = []rawTag{{tag: 0, data: nil}}
	_, werr = encodeHex(t, newMessage(spec, 3, root), 2)
	assert.Equal(t, &WriteError{Message: "MetadataRequest", Version: 2, FieldPath: "Topics[1]", Reason: ReasonTaggedFields}, werr)

	// A nested non-ignorable field absent from the version.
	root = withTopics(4, str("a"))
	root.fields[0].elems[0].st.fields[2] = num(9) // Extra, 4+
	_, werr = encodeHex(t, newMessage(spec, 4, root), 3)
	assert.Equal(t, &WriteError{Message: "MetadataRequest", Version: 3, FieldPath: "Topics[0].Extra", Reason: ReasonNonDefault}, werr)
	root.fields[0].elems[0].st.fields[2] = num(0)
	root.fields[0].elems[0].st.fields[0] = value{uuid: [16]byte{1}} // TopicId, ignorable
	got, werr = encodeHex(t, newMessage(spec, 4, root), 1)
	assert.Nil(t, werr)
	assert.Equal(t, "00000001"+"000161"+"00000000"+"7fffffff", got)

	// A tagged struct differs from its default when a field absent from the
	// version does (Java's equals compares them all), so it is written, and
	// its absent field then fails the write.
	root = base()
	_, cursor := field(t, root, "Cursor")
	cursor.st.fields[1] = str("x") // B, 5+
	_, werr = encodeHex(t, newMessage(spec, 5, root), 4)
	assert.Equal(t, &WriteError{Message: "MetadataRequest", Version: 4, FieldPath: "Cursor.B", Reason: ReasonNonDefault}, werr)
	got, werr = encodeHex(t, newMessage(spec, 5, root), 5)
	assert.Nil(t, werr)
	assert.Equal(t, "01"+"01"+"7fffffff"+"01"+"00"+"07"+"00000000"+"0278"+"00", got)
	// The tagged field itself is absent at v3 and not ignorable.
	_, werr = encodeHex(t, newMessage(spec, 5, root), 3)
	assert.Equal(t, &WriteError{Message: "MetadataRequest", Version: 3, FieldPath: "Cursor", Reason: ReasonNonDefault}, werr)

	// Strings over 0x7fff bytes.
	root = withTopics(0, str(string(make([]byte, 0x8000))))
	_, werr = encodeHex(t, newMessage(spec, 0, root), 0)
	assert.Equal(t, &WriteError{Message: "MetadataRequest", FieldPath: "Topics[0].Name", Reason: ReasonStringTooLong}, werr)

	assert.Panics(t, func() { _, _ = newMessage(spec, 0, base()).Encode(6) })
}

// Generate fills fields absent from the version with their defaults, and
// Encode at the generation version is Encode of the package.
func TestGenerate(t *testing.T) {
	spec := load(t, transcodeSpec)
	for _, v := range Versions(spec) {
		for seed := range uint64(50) {
			m := Generate(spec, v, seeded(seed), Options{UnknownTags: true})
			assert.Equal(t, v, m.Version())
			assert.Same(t, spec, m.Spec())
			b, err := m.Encode(v)
			require.NoError(t, err)
			assert.Equal(t, Encode(spec, v, seeded(seed), Options{UnknownTags: true}), b)
			for i, f := range spec.Root.Fields {
				if !f.Versions.Contains(v) {
					assert.True(t, isJavaDefault(f, m.root.fields[i]), "v%d %s", v, f.Name)
				}
			}
		}
	}
	m := Generate(spec, 0, seeded(1), Options{})
	_, maxBytes := field(t, m.root, "MaxBytes")
	assert.Equal(t, int64(0x7fffffff), maxBytes.num)
	_, allow := field(t, m.root, "AllowAutoTopicCreation")
	assert.Equal(t, int64(1), allow.num)
	assert.Panics(t, func() { Generate(spec, 9, seeded(1), Options{}) })
}

// Across the project's schemas, trees written at other versions give both
// encodings and refusals, and every encoding decodes strictly.
func TestMessageEncodeOtherVersions(t *testing.T) {
	specs := append(projectSpecs(t), fixtureSpecs(t)...)
	ok, refused := 0, 0
	for _, spec := range specs {
		for _, v1 := range Versions(spec) {
			for seed := range uint64(10) {
				m := Generate(spec, v1, seeded(seed), Options{UnknownTags: true})
				for _, v2 := range Versions(spec) {
					b, err := m.Encode(v2)
					if err != nil {
						var we *WriteError
						require.True(t, errors.As(err, &we))
						assert.Equal(t, spec.Name, we.Message)
						assert.Equal(t, v2, we.Version)
						refused++
						continue
					}
					_, _, err = decode(spec, v2, b)
					require.NoError(t, err, "%s v%d -> v%d seed %d", spec.Name, v1, v2, seed)
					ok++
				}
			}
		}
	}
	assert.Positive(t, ok)
	assert.Positive(t, refused)
}
