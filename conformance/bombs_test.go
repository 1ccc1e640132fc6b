//go:build corpus

package conformance

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/internal/roundtrip"
	"github.com/kafkagen/kafkagen/internal/wiregen"
	"github.com/kafkagen/kafkagen/runtime"
)

// TestLengthBombs writes huge lengths and counts at every offset of a random
// encoding of every (spec, version) pair: decoding must never allocate more
// than 1 MiB + 256 bytes per input byte.
func TestLengthBombs(t *testing.T) {
	specs, pkgOf := corpusSpecs(t)
	var total roundtrip.BombResult
	for _, spec := range specs {
		pkg := pkgOf[spec]
		newMsg := func() runtime.Message { return pkg.newByName(spec.Name) }
		rng := rand.New(rand.NewPCG(3, hash(spec.Name)))
		for _, v := range wiregen.Versions(spec) {
			src := wiregen.Encode(spec, v, rng, wiregen.Options{MaxArray: 2, MaxString: 3, UnknownTags: true})
			res, err := roundtrip.Bombs(newMsg, src, v)
			require.NoError(t, err, "%s v%d", spec.Name, v)
			total.Inputs += res.Inputs
			total.Rejected += res.Rejected
			total.MaxBytes = max(total.MaxBytes, res.MaxBytes)
		}
	}
	require.Positive(t, total.Rejected)
	fmt.Printf("length bombs: inputs=%d rejected=%d max-alloc=%dB\n", total.Inputs, total.Rejected, total.MaxBytes)
}
