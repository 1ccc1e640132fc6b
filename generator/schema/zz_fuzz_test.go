package schema

import (
	"os"
	"path/filepath"
	"testing"
)

func FuzzLoadTmp(f *testing.F) {
	paths, _ := filepath.Glob("../../../shared/kafka-spec/clients/src/*/resources/common/message/*.json")
	for i, p := range paths {
		if i%7 != 0 {
			continue
		}
		b, _ := os.ReadFile(p)
		f.Add(b)
	}
	bad, _ := filepath.Glob("../../testdata/badspecs/*.json")
	for _, p := range bad {
		b, _ := os.ReadFile(p)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := Load("f.json", b)
		if err == nil {
			CheckPackage([]*Spec{s, s})
		}
	})
}
