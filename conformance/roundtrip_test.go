//go:build corpus

package conformance

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/internal/corpus"
	"github.com/kafkagen/kafkagen/internal/roundtrip"
	"github.com/kafkagen/kafkagen/internal/wiregen"
	"github.com/kafkagen/kafkagen/runtime"
)

// samplesPerPair is how many random messages each (spec, version) pair gets.
const samplesPerPair = 60

// corpusSpecs loads every spec of the corpus with the package generated from it.
func corpusSpecs(t *testing.T) (specs []*schema.Spec, pkgOf map[*schema.Spec]genPackage) {
	if !corpus.Available() {
		t.Skipf("SKIP: no Kafka spec corpus at %s (set KAFKA_SPEC_DIR)", corpus.SpecDir())
	}
	pkgOf = map[*schema.Spec]genPackage{}
	for _, d := range corpus.Dirs {
		loaded, err := schema.LoadDir(filepath.Join(corpus.SpecDir(), d.Path))
		require.NoError(t, err)
		pkg, ok := packages[d.Package]
		require.True(t, ok, "package %s not linked into the test", d.Package)
		require.ElementsMatch(t, pkg.specNames(), namesOf(loaded), "generated package %s is stale: run make corpus", d.Package)
		for _, s := range loaded {
			pkgOf[s] = pkg
		}
		specs = append(specs, loaded...)
	}
	return specs, pkgOf
}

func namesOf(specs []*schema.Spec) []string {
	var out []string
	for _, s := range specs {
		out = append(out, s.Name)
	}
	return out
}

// TestCorpusRoundTrip round-trips random canonical encodings (nulls, empty
// and nil, tagged fields at and away from their defaults, unknown tags,
// strings up to 32767 bytes) of every (spec, version) pair of the corpus.
func TestCorpusRoundTrip(t *testing.T) {
	specs, pkgOf := corpusSpecs(t)
	require.Len(t, specs, 258)
	pairs, messages := 0, 0
	for _, spec := range specs {
		pkg := pkgOf[spec]
		newMsg := func() runtime.Message { return pkg.newByName(spec.Name) }
		require.NotNil(t, newMsg(), spec.Name)
		versions := wiregen.Versions(spec)
		for _, v := range versions {
			pairs++
			rng := rand.New(rand.NewPCG(uint64(v), hash(spec.Name)))
			used := newMsg()
			for i := 0; i < samplesPerPair; i++ {
				opts := wiregen.Options{UnknownTags: i%3 == 1, LongStrings: i%20 == 19, MaxArray: 1 + i%4}
				src := wiregen.Encode(spec, v, rng, opts)
				other := versions[rng.IntN(len(versions))]
				_, err := used.Decode(wiregen.Encode(spec, other, rng, opts), other)
				require.NoError(t, err, "%s v%d", spec.Name, other)
				if err := roundtrip.Check(newMsg, used, src, v); err != nil {
					t.Fatalf("%s v%d sample %d (seed %d): %v", spec.Name, v, i, v, err)
				}
				messages++
			}
		}
	}
	t.Logf("corpus round trip: %d pairs, %d random messages", pairs, messages)
	require.Equal(t, 783, pairs)
	fmt.Printf("corpus round trip: pairs=%d messages=%d mismatches=0\n", pairs, messages)
}

func hash(s string) uint64 {
	var h uint64 = 14695981039346656037
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * 1099511628211
	}
	return h
}
