package schema

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// FuzzSpec loads arbitrary bytes as a spec: a result or diagnostics, never a
// panic or a hang; every diagnostic is positioned inside the file; the
// syntax scan's line index holds every line start up to where it stopped.
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
		checkLineIndex(t, src)
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

// checkLineIndex compares the line starts the syntax scan records with the ones
// counted in the text: all of them for a document that parses, and every
// one up to the error for one that does not.
func checkLineIndex(t *testing.T, src []byte) {
	t.Helper()
	want := []int{0}
	for i, c := range src {
		if c == '\n' {
			want = append(want, i+1)
		}
	}
	doc, err := scanJSON(src, false)
	got := doc.lines
	if err == nil {
		if !slices.Equal(got, want) {
			t.Fatalf("line starts %v, want %v", got, want)
		}
		return
	}
	if len(got) > len(want) || !slices.Equal(got, want[:len(got)]) {
		t.Fatalf("line starts %v are not a prefix of %v", got, want)
	}
	if len(got) < len(want) && want[len(got)] <= err.offset {
		t.Fatalf("the line starting at %d, before the error at %d, is missing", want[len(got)], err.offset)
	}
}
