//go:build corpus

package conformance

import (
	"encoding/hex"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/internal/corpus"
	"github.com/kafkagen/kafkagen/runtime"
)

// javaVector is one line of java-random-dev.jsonl: a randomly filled message
// written by Kafka's Java code.
type javaVector struct {
	File    string `json:"file"`
	Module  string `json:"module"`
	Type    string `json:"type"`
	APIKey  int    `json:"apiKey"`
	Version int16  `json:"version"`
	Hex     string `json:"hex"`
}

var fixtures = map[string]bool{
	"SimpleExampleMessage": true, "NullableStructMessage": true,
	"SimpleArraysMessage": true, "SimpleRecordsMessage": true,
}

func loadJavaVectors(t *testing.T) []javaVector {
	return loadJSONLines[javaVector](t, "java-random-dev.jsonl")
}

// packageOf finds the generated package holding a vector's spec.
func packageOf(v javaVector) string {
	if fixtures[v.File] {
		return "clientstest"
	}
	for _, d := range corpus.Dirs {
		if d.Module == v.Module && d.Package != "clientstest" {
			return d.Package
		}
	}
	return ""
}

// TestJavaRandomVectors decodes every vector Java wrote, consuming every
// byte, and re-encodes it to the same bytes, with Decode and DecodeAliased,
// into fresh and reused messages.
func TestJavaRandomVectors(t *testing.T) {
	vectors := loadJavaVectors(t)
	names := specNamesByFile(t)
	ok := 0
	for _, v := range vectors {
		pkg, found := packages[packageOf(v)]
		require.True(t, found, "no generated package for %s (%s)", v.File, v.Module)
		src, err := hex.DecodeString(v.Hex)
		require.NoError(t, err)
		name := names[v.File] // the file name, not always the spec name (ZkMigrationRecord)
		require.NotEmpty(t, name, "no spec file %s.json", v.File)
		t.Run(name+"/v"+itoa(int(v.Version)), func(t *testing.T) {
			fresh := pkg.newByName(name)
			require.NotNil(t, fresh, "NewByName(%q)", name)
			requireReencodes(t, fresh, src, v.Version, v.Hex)

			aliased := pkg.newByName(name)
			n, err := aliased.DecodeAliased(src, v.Version)
			require.NoError(t, err)
			require.Equal(t, len(src), n)
			out, err := aliased.AppendTo(nil, v.Version)
			require.NoError(t, err)
			require.Equal(t, v.Hex, hex.EncodeToString(out), "re-encoded after DecodeAliased")
			// A message reused from the aliased decode must decode the same.
			_, err = aliased.Decode(src, v.Version)
			require.NoError(t, err)
			assert.Equal(t, fresh, aliased, "Decode into a reused message")
			ok++
		})
	}
	t.Logf("java-random-dev: %d of %d vectors decode and re-encode byte for byte", ok, len(vectors))
	assert.Equal(t, len(vectors), ok)
}

// requireReencodes decodes src into m at version, consuming every byte, and
// checks Size and that m re-encodes to wantHex.
func requireReencodes(t *testing.T, m runtime.Message, src []byte, version int16, wantHex string) {
	t.Helper()
	n, err := m.Decode(src, version)
	require.NoError(t, err)
	require.Equal(t, len(src), n, "bytes consumed")
	assert.Equal(t, len(src), m.Size(version), "Size")
	out, err := m.AppendTo(nil, version)
	require.NoError(t, err)
	require.Equal(t, wantHex, hex.EncodeToString(out), "re-encoded bytes")
}

// specNamesByFile maps spec file base names to spec names.
func specNamesByFile(t *testing.T) map[string]string {
	out := map[string]string{}
	for _, d := range corpus.Dirs {
		specs, err := schema.LoadDir(filepath.Join(corpus.SpecDir(), d.Path))
		require.NoError(t, err)
		for _, s := range specs {
			out[strings.TrimSuffix(filepath.Base(s.File), ".json")] = s.Name
		}
	}
	return out
}

func itoa(n int) string {
	return string(appendInt(nil, n))
}

func appendInt(b []byte, n int) []byte {
	if n >= 10 {
		b = appendInt(b, n/10)
	}
	return append(b, byte('0'+n%10))
}

// TestJavaVectorPrefixesAndTrailingBytes: every strict prefix of every Java
// vector is rejected with a well-formed error, never accepted; with bytes
// appended, the vector still decodes and the count shows where it ended.
func TestJavaVectorPrefixesAndTrailingBytes(t *testing.T) {
	vectors := loadJavaVectors(t)
	names := specNamesByFile(t)
	prefixes := 0
	for _, v := range vectors {
		pkg := packages[packageOf(v)]
		name := names[v.File]
		src, err := hex.DecodeString(v.Hex)
		require.NoError(t, err)
		msg := pkg.newByName(name)
		for cut := 0; cut < len(src); cut++ {
			_, err := msg.Decode(src[:cut], v.Version)
			require.Error(t, err, "%s v%d: a %d-byte prefix of %d bytes decoded", name, v.Version, cut, len(src))
			var e *runtime.Error
			require.ErrorAs(t, err, &e)
			require.Equal(t, name, e.Message)
			require.True(t, errors.Is(err, runtime.ErrShortBuffer) || errors.Is(err, runtime.ErrInvalidLength),
				"%s v%d prefix %d: %v", name, v.Version, cut, err)
			require.LessOrEqual(t, e.Offset, cut)
			prefixes++
		}
		n, err := msg.Decode(append(append([]byte(nil), src...), 0xde, 0xad, 0xbe, 0xef), v.Version)
		require.NoError(t, err)
		require.Equal(t, len(src), n, "%s v%d: trailing bytes must be left unread", name, v.Version)
	}
	t.Logf("%d strict prefixes of %d Java vectors rejected", prefixes, len(vectors))
}
