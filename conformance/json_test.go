//go:build corpus

package conformance

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/internal/wiregen"
	"github.com/kafkagen/kafkagen/runtime"
)

// javaJSONVector is one line of java-json-dev.jsonl: a message of
// java-random-dev.jsonl as Kafka's generated JsonConverter writes it.
type javaJSONVector struct {
	javaVector
	JSON string `json:"json"`
	// JSONRecordsSize is write(..., serializeRecords=false), where it
	// differs from JSON.
	JSONRecordsSize string `json:"json_serialize_records_false"`
	// JSONRoundTrip: Java's own JSON -> message -> bytes gives Hex.
	JSONRoundTrip bool `json:"json_roundtrip"`
	UnknownTags   int  `json:"unknown_tagged_fields"`
}

func loadJavaJSONVectors(t testing.TB) []javaJSONVector {
	return loadJSONLines[javaJSONVector](t, "java-json-dev.jsonl")
}

// newJSON returns a fresh message of a generated package as a JSONMessage.
func newJSON(t *testing.T, pkg genPackage, name string) runtime.JSONMessage {
	t.Helper()
	m := pkg.newByName(name)
	require.NotNil(t, m, "NewByName(%q)", name)
	jm, ok := m.(runtime.JSONMessage)
	require.True(t, ok, "%s has no JSON methods: regenerate the corpus with make corpus", name)
	return jm
}

// TestJavaJSONVectors writes each Java vector's message as JSON in Kafka's
// request-log form (records by size, unknown tags left out) and compares it,
// as a JSON value, with what Kafka's JsonConverter wrote for it. Then it
// reads Java's JSON back: it always reads, and gives the original bytes
// wherever Java's own JSON round trip does.
func TestJavaJSONVectors(t *testing.T) {
	vectors := loadJavaJSONVectors(t)
	names := specNamesByFile(t)
	matched, identical, javaRoundTrips := 0, 0, 0
	for _, v := range vectors {
		pkg := packages[packageOf(v.javaVector)]
		name := names[v.File]
		src, err := hex.DecodeString(v.Hex)
		require.NoError(t, err)
		t.Run(name+"/v"+strconv.Itoa(int(v.Version)), func(t *testing.T) {
			m := newJSON(t, pkg, name)
			_, err := m.Decode(src, v.Version)
			require.NoError(t, err)
			got, err := m.AppendJSON(nil, v.Version, runtime.JSONRequestLog)
			require.NoError(t, err)
			want := v.JSON
			if v.JSONRecordsSize != "" {
				want = v.JSONRecordsSize
			}
			requireSameJSON(t, want, string(got))
			matched++
			if string(got) == want {
				identical++
			}

			back := newJSON(t, pkg, name)
			require.NoError(t, back.DecodeJSON([]byte(v.JSON), v.Version), "reading Java's JSON")
			if v.JSONRoundTrip {
				out, err := back.AppendTo(nil, v.Version)
				require.NoError(t, err)
				assert.Equal(t, v.Hex, hex.EncodeToString(out), "Java's JSON read back")
				javaRoundTrips++
			}
		})
	}
	t.Logf("java-json-dev: %d of %d equal Java's JSON as values (%d byte for byte); Java's JSON read back to the original bytes for all %d where Java's own round trip does", matched, len(vectors), identical, javaRoundTrips)
	assert.Equal(t, len(vectors), matched)
	fmt.Printf("json java vectors: vectors=%d equal=%d identical-bytes=%d java-roundtrips=%d\n", len(vectors), matched, identical, javaRoundTrips)
}

// TestCorpusJSONRoundTrip: wire -> message -> JSON -> message -> wire gives
// the original bytes for random messages of every (spec, version) pair
// (unknown tags, long strings, nulls, NaN-free floats of every kind), the
// JSON is valid and written again unchanged, and Java's vectors round-trip
// too, unknown tags and records included.
func TestCorpusJSONRoundTrip(t *testing.T) {
	specs, pkgOf := corpusSpecs(t)
	pairs, messages := 0, 0
	for _, spec := range specs {
		pkg := pkgOf[spec]
		versions := wiregen.Versions(spec)
		for _, v := range versions {
			pairs++
			rng := rand.New(rand.NewPCG(uint64(v)+1, hash(spec.Name)))
			used := newJSON(t, pkg, spec.Name)
			for i := 0; i < samplesPerPair; i++ {
				opts := wiregen.Options{UnknownTags: i%3 == 1, LongStrings: i%20 == 19, MaxArray: 1 + i%4}
				src := wiregen.Encode(spec, v, rng, opts)
				if err := jsonRoundTrip(newJSON(t, pkg, spec.Name), used, src, v); err != nil {
					t.Fatalf("%s v%d sample %d: %v", spec.Name, v, i, err)
				}
				messages++
			}
		}
	}
	names := specNamesByFile(t)
	for _, vec := range loadJavaVectors(t) {
		pkg := packages[packageOf(vec)]
		name := names[vec.File]
		src, _ := hex.DecodeString(vec.Hex)
		if err := jsonRoundTrip(newJSON(t, pkg, name), nil, src, vec.Version); err != nil {
			t.Fatalf("Java vector %s v%d: %v", name, vec.Version, err)
		}
		messages++
	}
	t.Logf("JSON round trip: %d pairs, %d messages", pairs, messages)
	require.Equal(t, 783, pairs)
	fmt.Printf("json round trip: pairs=%d messages=%d mismatches=0\n", pairs, messages)
}

// jsonRoundTrip decodes src, writes it as JSON, reads that into used (a
// message last holding something else) and checks the bytes and the JSON.
func jsonRoundTrip(fresh, used runtime.JSONMessage, src []byte, version int16) error {
	if _, err := fresh.Decode(src, version); err != nil {
		return fmt.Errorf("Decode: %w", err)
	}
	text, err := fresh.AppendJSON(nil, version, runtime.JSONOptions{})
	if err != nil {
		return fmt.Errorf("AppendJSON: %w", err)
	}
	if !json.Valid(text) {
		return fmt.Errorf("AppendJSON wrote invalid JSON: %s", text)
	}
	if used == nil {
		used = fresh
	}
	if err := used.DecodeJSON(text, version); err != nil {
		return fmt.Errorf("DecodeJSON: %w\n%s", err, text)
	}
	out, err := used.AppendTo(nil, version)
	if err != nil {
		return fmt.Errorf("AppendTo after DecodeJSON: %w", err)
	}
	if !bytes.Equal(out, src) {
		return fmt.Errorf("bytes differ after the JSON round trip\n got %x\nwant %x\njson %s", out, src, text)
	}
	again, err := used.AppendJSON(nil, version, runtime.JSONOptions{})
	if err != nil || !bytes.Equal(again, text) {
		return fmt.Errorf("JSON written again differs (%v)\n got %s\nwant %s", err, again, text)
	}
	return nil
}

// requireSameJSON compares two JSON texts as values: objects as key sets,
// numbers by value (integers exactly, others as float64).
func requireSameJSON(t *testing.T, want, got string) {
	t.Helper()
	if path, ok := sameJSON(decodeJSONValue(t, want), decodeJSONValue(t, got), ""); !ok {
		t.Fatalf("JSON differs at %q\nwant %s\n got %s", path, want, got)
	}
}

// decodeJSONValue decodes a JSON text, keeping numbers as json.Number.
func decodeJSONValue(t testing.TB, s string) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader([]byte(s)))
	d.UseNumber()
	var v any
	require.NoError(t, d.Decode(&v), "%s", s)
	return v
}

func sameJSON(a, b any, path string) (string, bool) {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return path, false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok {
				return path + "." + k, false
			}
			if p, ok := sameJSON(xv, yv, path+"."+k); !ok {
				return p, false
			}
		}
		return "", true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return path, false
		}
		for i := range x {
			if p, ok := sameJSON(x[i], y[i], fmt.Sprintf("%s[%d]", path, i)); !ok {
				return p, false
			}
		}
		return "", true
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return path, false
		}
		if xi, err := x.Int64(); err == nil {
			yi, err := y.Int64()
			return path, err == nil && xi == yi
		}
		xf, err1 := x.Float64()
		yf, err2 := y.Float64()
		return path, err1 == nil && err2 == nil && math.Float64bits(xf) == math.Float64bits(yf)
	}
	return path, a == b
}
