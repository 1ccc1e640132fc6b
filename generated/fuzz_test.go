package generated_test

import (
	"math/rand/v2"
	"testing"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/internal/roundtrip"
	"github.com/kafkagen/kafkagen/internal/wiregen"
)

// FuzzDecode decodes arbitrary bytes as any message and version of
// generated/: never a panic, Decode and DecodeAliased agree, errors are
// well-formed, and whatever decodes re-encodes stably. Seeds: random
// canonical encodings of every message and version.
func FuzzDecode(f *testing.F) {
	names := generated.SpecNames()
	specs, err := schema.LoadDir("../schemas")
	if err != nil {
		f.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for _, spec := range specs {
		index := indexOf(names, spec.Name)
		for _, v := range wiregen.Versions(spec) {
			for i := 0; i < 3; i++ {
				f.Add(roundtrip.FuzzInput(index, v-spec.ValidVersions.Lo, wiregen.Encode(spec, v, rng, wiregen.Options{UnknownTags: i == 2})))
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := roundtrip.FuzzOne(names, generated.NewByName, data); err != nil {
			t.Fatal(err)
		}
	})
}

func indexOf(names []string, name string) int {
	for i, n := range names {
		if n == name {
			return i
		}
	}
	return -1
}
