package generated_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/internal/roundtrip"
	"github.com/kafkagen/kafkagen/internal/wiregen"
	"github.com/kafkagen/kafkagen/runtime"
)

// TestRoundTripRandom round-trips random canonical encodings of every
// message and version of schemas/ through the generated code.
func TestRoundTripRandom(t *testing.T) {
	specs, err := schema.LoadDir("../schemas")
	require.NoError(t, err)
	require.ElementsMatch(t, generated.SpecNames(), specNames(specs))
	const perVersion = 200
	checked := 0
	for _, spec := range specs {
		newMsg := func() runtime.Message { return generated.NewByName(spec.Name) }
		versions := wiregen.Versions(spec)
		rng := rand.New(rand.NewPCG(1, uint64(len(spec.Name))))
		used := newMsg()
		for _, v := range versions {
			for i := 0; i < perVersion; i++ {
				opts := wiregen.Options{UnknownTags: i%2 == 1, LongStrings: i%50 == 49}
				src := wiregen.Encode(spec, v, rng, opts)
				// Leave used decoded at another version (or other values).
				other := versions[rng.IntN(len(versions))]
				_, err := used.Decode(wiregen.Encode(spec, other, rng, opts), other)
				require.NoError(t, err)
				require.NoError(t, roundtrip.Check(newMsg, used, src, v), "%s v%d sample %d", spec.Name, v, i)
				checked++
			}
		}
	}
	t.Logf("%d random messages round-tripped over %d specs", checked, len(specs))
}

func specNames(specs []*schema.Spec) []string {
	var names []string
	for _, s := range specs {
		names = append(names, s.Name)
	}
	return names
}
