// Command gencorpus generates one Go package per folder of the upstream spec
// corpus into conformance/gen (git-ignored), for the corpus tests, with the
// JSON methods of -json (conformance/json_test.go tests them).
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
	for _, d := range corpus.Dirs {
		_, err := generator.Run(generator.Config{
			In:      filepath.Join(corpus.SpecDir(), d.Path),
			Out:     filepath.Join(corpus.ModuleRoot(), "conformance", "gen", d.Package),
			Package: d.Package,
			JSON:    true,
		})
		if err != nil {
			fmt.Fprintf(os.Stderr, "gencorpus: %s: %v\n", d.Path, err)
			os.Exit(1)
		}
	}
	fmt.Printf("gencorpus: %d packages generated in %v\n", len(corpus.Dirs), time.Since(start).Round(time.Millisecond))
}
