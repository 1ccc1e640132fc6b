package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// treeSnapshot records every path under root with its mode and contents.
func treeSnapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		data := ""
		if !d.IsDir() {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			data = string(b)
		}
		out[rel] = fmt.Sprintf("%v|%s", info.Mode(), data)
		return nil
	}))
	return out
}

// badInputs are the broken specs of testdata/badspecs plus inputs made here:
// an empty file, binary junk and a 50 MB file.
func badInputs(t *testing.T) map[string][]byte {
	t.Helper()
	inputs := map[string][]byte{
		"empty.json": {},
		"junk.json":  {0x00, 0xff, 0xfe, 0x7f, 0x80, '{', 0x01},
		"big50mb.json": append(append([]byte(`{"type": "data", "name": "Big", "validVersions": "0", "flexibleVersions": "none", "about": "`),
			bytes.Repeat([]byte("x"), 50<<20)...), []byte("\",\n\"fields\": [\n")...),
	}
	paths, err := filepath.Glob("../../testdata/badspecs/*.json")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(paths), 40)
	for _, p := range paths {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		inputs[filepath.Base(p)] = b
	}
	return inputs
}

var positioned = regexp.MustCompile(`[^\s:]+\.json:\d+:\d+: `)

// TestBadSpecsLeaveOutputUntouched runs the command on every broken spec
// beside valid ones: exit status 1, a file:line:col diagnostic naming the
// broken file (or, for a spec Kafka 2.x would read, one line naming it and
// -release), the output folder byte-identical, no temporary folder left.
func TestBadSpecsLeaveOutputUntouched(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "out")
	code, _, stderr := runMain(t, "-in", goodSpecs(t), "-out", out, "-package", "out")
	require.Equal(t, 0, code, stderr)
	require.NoError(t, os.WriteFile(filepath.Join(out, "handwritten.go"), []byte("package out\n"), 0o600))
	before := treeSnapshot(t, out)

	for name, src := range badInputs(t) {
		t.Run(name, func(t *testing.T) {
			in := specDir(t, map[string]string{"PingRequest.json": requestSpec, "PingResponse.json": responseSpec, name: string(src)})
			code, _, stderr := runMain(t, "-in", in, "-out", out, "-package", "out")
			if name == "10_missing_flexible_versions.json" {
				// Read by Kafka 2.x's rules: one line naming the file and the fix.
				require.Equal(t, 2, code)
				assert.Contains(t, stderr, "lack flexibleVersions ("+name+")")
			} else {
				require.Equal(t, 1, code)
				require.Regexp(t, positioned, stderr)
				assert.Contains(t, stderr, name+":")
			}
			assert.Equal(t, before, treeSnapshot(t, out), "output folder changed")
			entries, err := os.ReadDir(parent)
			require.NoError(t, err)
			for _, e := range entries {
				assert.False(t, strings.HasPrefix(e.Name(), "."), "temporary folder %s left behind", e.Name())
			}
		})
	}
}
