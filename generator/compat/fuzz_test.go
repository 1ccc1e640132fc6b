package compat

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// FuzzCompare: any two specs that load compare without panicking, every
// finding located in one of the two files. Seeded with the hand-made pairs.
func FuzzCompare(f *testing.F) {
	for _, tc := range ruleCases {
		olds, _ := filepath.Glob(filepath.Join(casesDir, tc.name, "old", "*.json"))
		for _, oldPath := range olds {
			newPath := filepath.Join(casesDir, tc.name, "new", filepath.Base(oldPath))
			oldSrc, err1 := os.ReadFile(oldPath)
			newSrc, err2 := os.ReadFile(newPath)
			if err1 == nil && err2 == nil {
				f.Add(oldSrc, newSrc)
			}
		}
	}
	f.Fuzz(func(t *testing.T, oldSrc, newSrc []byte) {
		oldSpec, err := schema.Load("old.json", oldSrc)
		if err != nil {
			return
		}
		newSpec, err := schema.Load("new.json", newSrc)
		if err != nil {
			return
		}
		for _, finding := range Compare(oldSpec, newSpec) {
			if finding.File != "old.json" && finding.File != "new.json" {
				t.Fatalf("finding outside both files: %s", finding)
			}
			if finding.Line < 1 || finding.Col < 1 || finding.Text == "" {
				t.Fatalf("finding without a place or a text: %s", finding)
			}
		}
	})
}
