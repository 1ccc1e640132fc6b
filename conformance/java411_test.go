//go:build corpus && k411

package conformance

import (
	"encoding/hex"

	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/conformance/gen/k411clients"
	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/internal/corpus"
	"github.com/kafkagen/kafkagen/runtime"
)

// java411Vector is one line of java-4.1.1-dev.jsonl: a message kmsg wrote
// and what Kafka 4.1.1's Java classes made of it.
type java411Vector struct {
	API       string `json:"api"`
	Kind      string `json:"kind"` // "request" or "response"
	APIKey    int16  `json:"apiKey"`
	Version   int16  `json:"version"`
	Hex       string `json:"hex"`
	JavaReads bool   `json:"javaReads"`
	JavaHex   string `json:"javaHex"`
	JSON      string `json:"json"`
	JavaError string `json:"javaError"`
}

func loadJava411Vectors(t *testing.T) []java411Vector {
	return loadJSONLines[java411Vector](t, "java-4.1.1-dev.jsonl")
}

// java411Refusal is what kafkagen must do with bytes Java 4.1.1 refused,
// chosen by Java's exception (docs/protocol.md, "Where franz-go's kmsg
// v1.15.1 differs from Java"): an API 4.0 removed has no generated type,
// and the other refusals are decoding errors of the same kind.
func java411Refusal(javaError string) (noType bool, want error) {
	switch {
	case strings.Contains(javaError, "UnsupportedVersionException: Unsupported"):
		return true, nil
	case goldenBadTagRE.MatchString(strings.TrimPrefix(javaError, "java.lang.RuntimeException: ")):
		return false, runtime.ErrInvalidTag
	case goldenNullReadRE.MatchString(strings.TrimPrefix(javaError, "java.lang.RuntimeException: ")):
		return false, runtime.ErrNull
	}
	return false, nil
}

// TestJava411Vectors checks the package generated from Kafka 4.1.1's client
// folder against Java 4.1.1: every message Java read decodes, consuming
// every byte, and re-encodes to Java's bytes, and its JSON equals Java's
// JsonConverter output as a value; every message Java refused is refused
// by kafkagen for the same reason.
func TestJava411Vectors(t *testing.T) {
	vectors := loadJava411Vectors(t)
	specs, err := schema.LoadDir(filepath.Join(corpus.ReleasesDir(), corpus.ReleaseDirs[0].Path))
	require.NoError(t, err)
	recordsKeys := map[string]map[string]bool{} // spec name -> JSON keys of its records fields
	for _, s := range specs {
		for _, st := range append([]*schema.Struct{s.Root}, s.Structs...) {
			for _, f := range st.Fields {
				if f.Type.Kind == schema.KindRecords && !f.Type.Array {
					if recordsKeys[s.Name] == nil {
						recordsKeys[s.Name] = map[string]bool{}
					}
					recordsKeys[s.Name][f.JSONKey()] = true
				}
			}
		}
	}
	requireJava411Coverage(t, specs, vectors)
	var read, javaRead, refused, javaRefused, jsonEqual, jsonReadBacks, placeholders int
	for _, v := range vectors {
		name := fmt.Sprintf("%s/v%d", v.API, v.Version)
		newMsg := func() runtime.APIMessage {
			if v.Kind == "request" {
				return k411clients.NewRequest(v.APIKey)
			}
			return k411clients.NewResponse(v.APIKey)
		}
		src, err := hex.DecodeString(v.Hex)
		require.NoError(t, err)
		if !v.JavaReads {
			javaRefused++
			t.Run(name+"/refused", func(t *testing.T) {
				noType, want := java411Refusal(v.JavaError)
				if noType {
					require.Nil(t, newMsg(), "Java 4.1.1 has no class for %s: %s", v.API, v.JavaError)
					require.Nil(t, k411clients.NewByName(v.API))
				} else {
					require.NotNil(t, want, "a Java refusal this test does not know: %s", v.JavaError)
					m := newMsg()
					require.NotNil(t, m, v.API)
					_, err := m.Decode(src, v.Version)
					require.ErrorIs(t, err, want, "Java: %s", v.JavaError)
				}
				refused++
			})
			continue
		}
		javaRead++
		require.Equal(t, v.Hex, v.JavaHex, "%s: Java re-encodes kmsg's bytes differently", name)
		t.Run(name, func(t *testing.T) {
			m := newMsg()
			require.NotNil(t, m, "no generated type for %s key %d", v.Kind, v.APIKey)
			require.Equal(t, v.API, m.SpecName())
			requireReencodes(t, m, src, v.Version, v.JavaHex)
			read++

			jm, ok := any(m).(runtime.JSONMessage)
			require.True(t, ok, "%s has no JSON methods", v.API)
			got, err := jm.AppendJSON(nil, v.Version, runtime.JSONOptions{OmitUnknownTags: true})
			require.NoError(t, err)
			blanked := requireSameJSON411(t, v.JSON, string(got), recordsKeys[v.API])
			jsonEqual++
			placeholders += blanked
			// Java's "" for records holds no bytes, and Java leaves
			// unknown tags out: only JSON without either reads back to
			// the original bytes.
			withTags, err := jm.AppendJSON(nil, v.Version, runtime.JSONOptions{})
			require.NoError(t, err)
			if blanked == 0 && string(withTags) == string(got) {
				back := newMsg().(runtime.JSONMessage)
				require.NoError(t, back.DecodeJSON([]byte(v.JSON), v.Version), "reading Java's JSON")
				out, err := back.AppendTo(nil, v.Version)
				require.NoError(t, err)
				require.Equal(t, v.JavaHex, hex.EncodeToString(out), "Java's JSON read back")
				jsonReadBacks++
			}
		})
	}
	t.Logf("java-4.1.1-dev: %d of %d messages Java read decode and re-encode to Java's bytes; %d of %d Java refused are refused", read, javaRead, refused, javaRefused)
	assert.Equal(t, javaRead, read)
	assert.Equal(t, javaRefused, refused)
	assert.Equal(t, javaRead, jsonEqual)
	fmt.Printf("java-4.1.1: vectors=%d read=%d java-read=%d refused=%d java-refused=%d json=%d json-readbacks=%d records-placeholders=%d mismatches=%d\n",
		len(vectors), read, javaRead, refused, javaRefused, jsonEqual, jsonReadBacks, placeholders, javaRead-read+javaRefused-refused+javaRead-jsonEqual)
}

// requireSameJSON411 compares Java 4.1.1's JsonConverter output with ours as
// JSON values. Java writes a records field that is not null as "" whatever
// it holds (its serializeRecords=true placeholder); ours writes the bytes in
// base64. At the JSON keys of records fields, and only there, a "" of
// Java's stands for any string of ours; it returns how many it met.
func requireSameJSON411(t *testing.T, want, got string, recordsKeys map[string]bool) int {
	t.Helper()
	w, g := decodeJSONValue(t, want), decodeJSONValue(t, got)
	placeholders := 0
	var blank func(w, g any)
	blank = func(w, g any) {
		switch wv := w.(type) {
		case map[string]any:
			gv, ok := g.(map[string]any)
			if !ok {
				return
			}
			for k, x := range wv {
				if s, isStr := x.(string); isStr && s == "" && recordsKeys[k] {
					if gs, ok := gv[k].(string); ok && gs != "" {
						gv[k] = ""
						placeholders++
					}
					continue
				}
				blank(x, gv[k])
			}
		case []any:
			gv, ok := g.([]any)
			if !ok {
				return
			}
			for i := range min(len(wv), len(gv)) {
				blank(wv[i], gv[i])
			}
		}
	}
	blank(w, g)
	if path, ok := sameJSON(w, g, ""); !ok {
		t.Fatalf("JSON differs at %q\nwant %s\n got %s", path, want, got)
	}
	return placeholders
}

// java411Uncovered are the (spec, version) pairs of 4.1.1's client folder
// that java-4.1.1-dev.jsonl has no message for: the latest version of
// requests 4.1.1 marks latestVersionUnstable (which the vectors leave out)
// and InitProducerId 6, which kmsg v1.15.1 does not know either. The kmsg
// differential covers the four others; nothing Java-made covers any.
var java411Uncovered = []string{
	"InitProducerIdRequest v6", "InitProducerIdResponse v6", "OffsetCommitRequest v10",
	"OffsetFetchRequest v10", "StreamsGroupDescribeRequest v0", "StreamsGroupHeartbeatRequest v0",
}

// requireJava411Coverage: the vectors hold every (request or response,
// version) of the 4.1.1 folder but java411Uncovered, and the removed APIs
// at version 0 only.
func requireJava411Coverage(t *testing.T, specs []*schema.Spec, vectors []java411Vector) {
	t.Helper()
	inVectors := map[string]bool{}
	for _, v := range vectors {
		inVectors[fmt.Sprintf("%s v%d", v.API, v.Version)] = true
	}
	var uncovered []string
	removed := 0
	for _, s := range specs {
		if s.Type != schema.TypeRequest && s.Type != schema.TypeResponse {
			continue
		}
		if s.Removed() {
			require.True(t, inVectors[s.Name+" v0"], "%s: kmsg's v0 refused by Java", s.Name)
			removed++
			continue
		}
		for v := s.ValidVersions.Lo; v <= s.ValidVersions.Hi; v++ {
			if pair := fmt.Sprintf("%s v%d", s.Name, v); !inVectors[pair] {
				uncovered = append(uncovered, pair)
			}
		}
	}
	require.ElementsMatch(t, java411Uncovered, uncovered, "(spec, version) pairs without a Java 4.1.1 vector")
	require.Equal(t, 8, removed, "removed requests and responses")
}
