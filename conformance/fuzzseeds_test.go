//go:build corpus

package conformance

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

var writeSeeds = flag.Bool("writeseeds", false, "write missing FuzzDecode seeds from the Java vectors")

const seedDir = "testdata/fuzz/FuzzDecode"

// hasSeed reports whether data is in the committed seed corpus, writing it
// there with -writeseeds.
func hasSeed(t *testing.T, data []byte) bool {
	sum := sha256.Sum256(data)
	path := filepath.Join(seedDir, "java-"+hex.EncodeToString(sum[:8]))
	want := fmt.Sprintf("go test fuzz v1\n[]byte(%s)\n", strconv.Quote(string(data)))
	have, err := os.ReadFile(path)
	if err == nil && string(have) == want {
		return true
	}
	if *writeSeeds {
		if err := os.MkdirAll(seedDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return true
	}
	return false
}
