// Command gencorpus generates one Go package per folder of the upstream spec
// corpus into conformance/gen (git-ignored), for the corpus tests, with the
// JSON methods of -json (conformance/json_test.go tests them), and one per
// folder of corpus.ReleaseDirs (Kafka 4.1.1's) when KAFKA_SPEC_RELEASES_DIR
// holds them; without them it removes those packages, and the tests that use
// them (build tag k411, which the Makefile sets when conformance/gen/k411clients
// exists) are left out. The clients folder is also generated with
// -printed, without JSON, as clientsprinted: the oracle its tables are
// compared with (conformance/tables_test.go).
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/kafkagen/kafkagen/generator"
	"github.com/kafkagen/kafkagen/internal/corpus"
)

func main() {
	if !corpus.Available() {
		fmt.Printf("gencorpus: SKIP: no Kafka spec corpus at %s (set KAFKA_SPEC_DIR)\n", corpus.SpecDir())
		os.Exit(3)
	}
	start := time.Now()
	n := 0
	for _, d := range corpus.Dirs {
		generate(corpus.SpecDir(), d, false)
		n++
	}
	generate(corpus.SpecDir(), corpus.Dir{Package: "clientsprinted", Path: corpus.Dirs[0].Path}, true)
	n++
	if corpus.ReleasesAvailable() {
		for _, d := range corpus.ReleaseDirs {
			generate(corpus.ReleasesDir(), d, false)
			n++
		}
	} else {
		for _, d := range corpus.ReleaseDirs {
			if err := os.RemoveAll(filepath.Join(corpus.ModuleRoot(), "conformance", "gen", d.Package)); err != nil {
				fmt.Fprintf(os.Stderr, "gencorpus: %v\n", err)
				os.Exit(1)
			}
		}
		fmt.Printf("gencorpus: SKIP Kafka 4.1.1 packages: no release spec folders at %s (set KAFKA_SPEC_RELEASES_DIR)\n", corpus.ReleasesDir())
	}
	fmt.Printf("gencorpus: %d packages generated in %v\n", n, time.Since(start).Round(time.Millisecond))
}

// generate writes the package of one spec folder under root, with the
// JSON methods, or printed (every codec method printed, no JSON).
func generate(root string, d corpus.Dir, printed bool) {
	_, err := generator.Run(generator.Config{
		In:      filepath.Join(root, d.Path),
		Out:     filepath.Join(corpus.ModuleRoot(), "conformance", "gen", d.Package),
		Package: d.Package,
		JSON:    !printed,
		Printed: printed,
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "gencorpus: %s: %v\n", d.Path, err)
		os.Exit(1)
	}
}
