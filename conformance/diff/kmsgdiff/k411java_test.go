//go:build k411

package kmsgdiff

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/internal/corpus"
	"github.com/kafkagen/kafkagen/runtime"
)

// javaVerdict is the part of a java-4.1.1-dev.jsonl line this test needs.
type javaVerdict struct {
	API       string `json:"api"`
	Version   int16  `json:"version"`
	JavaReads bool   `json:"javaReads"`
	JavaError string `json:"javaError"`
}

// javaRefusalKind maps Java's exception to the error kafkagen reports for
// the same bytes; removed is true for an API Java has no class for.
func javaRefusalKind(javaError string) (want error, removed bool) {
	switch {
	case strings.Contains(javaError, "Unsupported request API key"), strings.Contains(javaError, "Unsupported response API key"):
		return nil, true
	case strings.Contains(javaError, "is not valid for version"):
		return runtime.ErrInvalidTag, false
	case strings.Contains(javaError, "was serialized as null"):
		return runtime.ErrNull, false
	}
	return nil, false
}

// TestK411ExclusionsSettledByJava ties the 4.1.1 exclusions to Java 4.1.1's
// verdicts on kmsg's bytes: every message Java refused is an API 4.0
// removed or falls in an exclusion whose error is the one Java gave, and
// every exclusion has at least one such refusal behind it.
func TestK411ExclusionsSettledByJava(t *testing.T) {
	path := filepath.Join(corpus.VectorDir(), "java-4.1.1-dev.jsonl")
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		t.Skipf("SKIP: no Java 4.1.1 vectors at %s (set KAFKA_VECTORS_DIR)", path)
	}
	require.NoError(t, err)
	defer f.Close()
	exclusions := k411Exclusions()
	backed := map[*exclusion]int{}
	removed := map[string]bool{}
	refusals := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var v javaVerdict
		require.NoError(t, json.Unmarshal(sc.Bytes(), &v))
		if v.JavaReads {
			continue
		}
		refusals++
		want, isRemoved := javaRefusalKind(v.JavaError)
		if isRemoved {
			removed[strings.TrimSuffix(strings.TrimSuffix(v.API, "Request"), "Response")] = true
			continue
		}
		require.NotNil(t, want, "%s v%d: a Java refusal with no known kind: %s", v.API, v.Version, v.JavaError)
		_, ex := excludedDirs(exclusions, v.API, v.Version)
		if assert.NotNil(t, ex, "%s v%d: Java refused kmsg's bytes (%s) and no exclusion covers it", v.API, v.Version, v.JavaError) {
			assert.True(t, errors.Is(want, ex.want), "%s v%d: Java's %q is not the exclusion's %v", v.API, v.Version, v.JavaError, ex.want)
			backed[ex]++
		}
	}
	require.NoError(t, sc.Err())
	for _, e := range exclusions {
		assert.NotZero(t, backed[e], "exclusion %s v%d-%d: no message Java refused backs it", e.spec, e.lo, e.hi)
	}
	assert.Len(t, removed, 4, "APIs Java 4.1.1 has no class for: %v", removed)
	t.Logf("java-4.1.1-dev: %d refusals: %d removed APIs, the rest in %d exclusions", refusals, len(removed), len(backed))
}
