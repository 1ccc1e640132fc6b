package generator

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// seedsDir holds the raw seed fragments (*.json, *.txt), copied byte for byte
// from the project's seed documents, that cannot be loaded as written (see
// schemas/README.md). Beside each fragment, <fragment>.err holds the exact
// diagnostics kafkagen gives for it, one per line; -update rewrites them.
var seedsDir = filepath.Join("..", "testdata", "seeds")

func TestSeedDiagnostics(t *testing.T) {
	var fragments []string
	for _, pattern := range []string{"*.json", "*.txt"} {
		paths, err := filepath.Glob(filepath.Join(seedsDir, pattern))
		require.NoError(t, err)
		fragments = append(fragments, paths...)
	}
	sort.Strings(fragments)
	require.NotEmpty(t, fragments, "no seed fragments in %s", seedsDir)
	for _, path := range fragments {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			var spec *schema.Spec
			require.NotPanics(t, func() { spec, err = schema.Load(name, src) })
			require.Error(t, err, "every raw seed fragment is broken as written (schemas/ holds the repaired specs)")
			assert.Nil(t, spec)
			var diags schema.Diagnostics
			require.True(t, errors.As(err, &diags), "Load returns schema.Diagnostics, got %T", err)
			for _, d := range diags {
				assert.Equal(t, name, d.File)
				assert.Positive(t, d.Line)
				assert.Positive(t, d.Col)
			}
			got := diags.Error() + "\n"
			golden := path + ".err"
			if *update {
				require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
				return
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "run go test ./generator -run TestSeedDiagnostics -update to create %s", golden)
			assert.Equal(t, string(want), got, "diagnostics for %s differ from %s (run with -update if the change is intended)", name, golden)
		})
	}
}
