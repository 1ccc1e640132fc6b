//go:build corpus

package conformance

import (
	"encoding/hex"
	"sort"
	"strings"
	"testing"

	"github.com/kafkagen/kafkagen/internal/roundtrip"
	"github.com/kafkagen/kafkagen/runtime"
)

// fuzzTargets lists every message of the generated corpus as "package/Spec",
// sorted, so that an input's leading index names the same message across runs.
func fuzzTargets() []string {
	var out []string
	for pkg, p := range packages {
		for _, name := range p.specNames() {
			out = append(out, pkg+"/"+name)
		}
	}
	sort.Strings(out)
	return out
}

func newByQualifiedName(q string) runtime.Message {
	pkg, name, _ := strings.Cut(q, "/")
	return packages[pkg].newByName(name)
}

// FuzzDecode decodes arbitrary bytes as any message and version of the whole
// upstream corpus: never a panic, Decode and DecodeAliased agree, errors name
// the message and wrap a sentinel, whatever decodes re-encodes stably. The
// committed seeds under testdata/fuzz/FuzzDecode are Kafka's Java vectors.
func FuzzDecode(f *testing.F) {
	targets := fuzzTargets()
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := roundtrip.FuzzOne(targets, newByQualifiedName, data); err != nil {
			t.Fatal(err)
		}
	})
}

// TestFuzzSeedsCoverJavaVectors keeps the committed seed corpus in step with
// the Java vectors: every vector is a seed.
func TestFuzzSeedsCoverJavaVectors(t *testing.T) {
	vectors := loadJavaVectors(t)
	names := specNamesByFile(t)
	targets := fuzzTargets()
	index := map[string]int{}
	for i, q := range targets {
		index[q] = i
	}
	missing := 0
	for _, v := range vectors {
		q := packageOf(v) + "/" + names[v.File]
		i, ok := index[q]
		if !ok {
			t.Errorf("no fuzz target %s", q)
			continue
		}
		min := newByQualifiedName(q).(runtime.Versioned).MinVersion()
		body, _ := hex.DecodeString(v.Hex)
		if !hasSeed(t, roundtrip.FuzzInput(i, v.Version-min, body)) {
			missing++
		}
	}
	if missing > 0 {
		t.Fatalf("%d Java vectors are not in testdata/fuzz/FuzzDecode: run go test -tags corpus ./conformance -run TestFuzzSeedsCoverJavaVectors -writeseeds", missing)
	}
}
