package schema

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzSpec loads arbitrary bytes as a spec: a result or diagnostics, never a
// panic or a hang; every diagnostic is positioned inside the file; the
// comment stripper keeps every byte offset and line break.
func FuzzSpec(f *testing.F) {
	for _, pattern := range []string{"../../schemas/*.json", "../../testdata/badspecs/*.json", "../../testdata/golden/*/*.json", "../../testdata/seeds/*"} {
		paths, _ := filepath.Glob(pattern)
		for _, p := range paths {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
	f.Add([]byte(`{"name": "X", /* c */ "type": "data", // d
"validVersions": "0", "flexibleVersions": "none", "fields": []}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		stripped, _, err := stripComments(src)
		if err == nil {
			if len(stripped) != len(src) {
				t.Fatalf("stripping comments changed the length: %d -> %d", len(src), len(stripped))
			}
			if bytes.Count(stripped, []byte("\n")) != bytes.Count(src, []byte("\n")) {
				t.Fatal("stripping comments changed the line count")
			}
		}
		lines := bytes.Count(src, []byte("\n")) + 1
		spec, err := Load("fuzz.json", src)
		if err == nil {
			if spec == nil || spec.Root == nil {
				t.Fatal("Load returned no spec and no error")
			}
			CheckPackage([]*Spec{spec})
			return
		}
		ds, ok := err.(Diagnostics)
		if !ok || len(ds) == 0 {
			t.Fatalf("Load failed without diagnostics: %v", err)
		}
		for _, d := range ds {
			if d.File != "fuzz.json" || d.Line < 1 || d.Line > lines || d.Col < 1 || d.Text == "" {
				t.Fatalf("badly placed diagnostic %q", d.String())
			}
		}
	})
}
