// Command configwalk prints the walk of package configwalk from
// generator.Run: the files a reader enters following one run's
// configuration, and the climbs back up.
package main

import (
	"fmt"
	"os"

	"github.com/kafkagen/kafkagen/internal/configwalk"
	"github.com/kafkagen/kafkagen/internal/corpus"
)

func main() {
	rep, err := configwalk.Walk(corpus.ModuleRoot(), "github.com/kafkagen/kafkagen", "github.com/kafkagen/kafkagen/generator", "Run")
	if err != nil {
		fmt.Fprintln(os.Stderr, "configwalk:", err)
		os.Exit(1)
	}
	for _, f := range rep.Files {
		fmt.Println("file ", f)
	}
	for _, c := range rep.Climbs {
		fmt.Println("climb", c)
	}
	fmt.Printf("configwalk: %d files, %d climbs, %d calls followed\n", len(rep.Files), len(rep.Climbs), rep.Calls)
}
