package kafkamsg

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generator"
	"github.com/kafkagen/kafkagen/internal/corpus"
)

// The package is what generate.sh writes with the current generator.
func TestFresh(t *testing.T) {
	if !corpus.Available() {
		t.Skipf("Kafka's specs are not at %s (set KAFKA_SPEC_DIR)", corpus.SpecDir())
	}
	_, err := generator.Run(generator.Config{
		In: filepath.Join(corpus.SpecDir(), corpus.Dirs[0].Path), Out: ".", Package: "kafkamsg", Check: true,
		Prune: generator.Prune{Messages: []string{"Produce", "ApiVersions"}},
	})
	require.NoError(t, err, "proxy/internal/kafkamsg is stale: run go generate ./proxy/internal/kafkamsg")
}
