package generator

import (
	"bytes"
	"flag"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generator/internal/gomodel"
	"github.com/kafkagen/kafkagen/generator/schema"
)

// update rewrites the golden files of this package's tests: the want folders
// of testdata/golden and the expected diagnostics of testdata/seeds.
var update = flag.Bool("update", false, "rewrite testdata/golden/*/want and testdata/seeds/*.err from the current generator")

// goldenDir holds one folder per case: small spec files (*.json), each
// exercising one feature, and want/, the exact output of Generate for them.
var goldenDir = filepath.Join("..", "testdata", "golden")

// goldenCases lists the case folders, sorted.
func goldenCases(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(goldenDir)
	require.NoError(t, err)
	var cases []string
	for _, e := range entries {
		if e.IsDir() {
			cases = append(cases, e.Name())
		}
	}
	sort.Strings(cases)
	require.GreaterOrEqual(t, len(cases), 10, "golden cases in %s", goldenDir)
	return cases
}

// goldenPackage is the Go package name of a case, as Run derives it from a
// folder name.
func goldenPackage(name string) string { return strings.ReplaceAll(name, "-", "") }

// generateCase loads a case's specs and generates its package.
func generateCase(t *testing.T, name string) map[string][]byte {
	t.Helper()
	specs, err := schema.LoadDir(filepath.Join(goldenDir, name))
	require.NoError(t, err, "loading the specs of golden case %s", name)
	require.NotEmpty(t, specs, "golden case %s has no *.json spec", name)
	files, err := Generate(goldenPackage(name), specs)
	require.NoError(t, err, "generating golden case %s", name)
	want := len(specs) + 1 // a file per spec plus the registry
	for _, s := range specs {
		if s.Type == schema.TypeRequest || s.Type == schema.TypeResponse {
			want++ // plus the api keys
			break
		}
	}
	require.Len(t, files, want, "a file per spec, the registry and, with requests or responses, the api keys")
	return files
}

// readWant reads the files of a want folder.
func readWant(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(t, err)
	files := map[string][]byte{}
	for _, e := range entries {
		require.False(t, e.IsDir(), "unexpected folder %s in %s", e.Name(), dir)
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		files[e.Name()] = data
	}
	return files
}

// writeWant replaces a want folder with files.
func writeWant(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	require.NoError(t, os.RemoveAll(dir))
	require.NoError(t, os.MkdirAll(dir, 0o755))
	for name, data := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
}

// TestGolden compares Generate's output for each case of testdata/golden
// with its want folder, byte for byte. Run go test -update to rewrite them.
func TestGolden(t *testing.T) {
	for _, name := range goldenCases(t) {
		t.Run(name, func(t *testing.T) {
			got := generateCase(t, name)
			wantDir := filepath.Join(goldenDir, name, "want")
			if *update {
				writeWant(t, wantDir, got)
				return
			}
			want := readWant(t, wantDir)
			require.NotEmpty(t, want, "%s is missing: run go test ./generator -run TestGolden -update", wantDir)
			for _, file := range sortedNames(got) {
				w, ok := want[file]
				if !assert.True(t, ok, "%s: generated but not in %s (run with -update)", file, wantDir) {
					continue
				}
				if !bytes.Equal(w, got[file]) {
					assert.Equal(t, string(w), string(got[file]), "%s differs from %s (run with -update if the change is intended)", file, filepath.Join(wantDir, file))
				}
			}
			for _, file := range sortedNames(want) {
				_, ok := got[file]
				assert.True(t, ok, "%s is in %s but no longer generated (run with -update)", file, wantDir)
			}
		})
	}
}

// TestGoldenWellFormed checks what the goldens promise to readers: every file
// is gofmt-clean, starts with the generated-code marker, and documents its
// package and every exported declaration.
func TestGoldenWellFormed(t *testing.T) {
	for _, name := range goldenCases(t) {
		t.Run(name, func(t *testing.T) {
			files := generateCase(t, name)
			for _, file := range sortedNames(files) {
				src := files[file]
				assert.True(t, bytes.HasPrefix(src, []byte(GeneratedPrefix)), "%s must start with %q", file, GeneratedPrefix)
				assert.Contains(t, string(src), "DO NOT EDIT.", file)
				formatted, err := format.Source(src)
				if assert.NoError(t, err, "%s does not parse", file) {
					assert.Equal(t, string(formatted), string(src), "%s is not gofmt-clean", file)
				}
				assertDocumented(t, file, src)
			}
			assert.Contains(t, string(files[gomodel.RegistryFile]), "Package "+goldenPackage(name)+" holds", "the registry carries the package comment")
		})
	}
}

// assertDocumented checks that every top-level exported type and function
// (methods included) is preceded by a // comment starting with its name.
func assertDocumented(t *testing.T, file string, src []byte) {
	t.Helper()
	lines := strings.Split(string(src), "\n")
	for i, line := range lines {
		var name string
		switch {
		case strings.HasPrefix(line, "type "):
			name = strings.Fields(line)[1]
		case strings.HasPrefix(line, "func ("):
			// func (m *T) Name(
			rest := line[strings.Index(line, ")")+2:]
			name = rest[:strings.IndexAny(rest, "([")]
		case strings.HasPrefix(line, "func "):
			rest := strings.TrimPrefix(line, "func ")
			name = rest[:strings.IndexAny(rest, "([")]
		default:
			continue
		}
		if name == "" || name[0] < 'A' || name[0] > 'Z' {
			continue
		}
		prev := ""
		for j := i - 1; j >= 0 && strings.HasPrefix(lines[j], "//"); j-- {
			prev = lines[j]
		}
		assert.True(t, strings.HasPrefix(prev, "// "+name+" "), "%s:%d: %s has no doc comment starting with its name", file, i+1, name)
	}
}

// TestGoldenCompiles builds every want folder as a package of this module:
// the files are copied to a temporary folder .golden-build-<case>-* at the
// module root (the leading dot keeps it out of ./... patterns) and checked
// with go vet, which type-checks them. A case's hand-written tests of the
// generated code (*_test.go beside its specs) are copied with them and run.
func TestGoldenCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("builds packages with the go command")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	var pkgs, tested []string
	for _, name := range goldenCases(t) {
		want := readWant(t, filepath.Join(goldenDir, name, "want"))
		require.NotEmpty(t, want, "golden case %s has no want folder: run go test -update", name)
		tests, err := filepath.Glob(filepath.Join(goldenDir, name, "*_test.go"))
		require.NoError(t, err)
		dir, err := os.MkdirTemp(root, ".golden-build-"+name+"-")
		require.NoError(t, err)
		t.Cleanup(func() { os.RemoveAll(dir) })
		for file, data := range want {
			require.NoError(t, os.WriteFile(filepath.Join(dir, file), data, 0o644))
		}
		for _, file := range tests {
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(dir, filepath.Base(file)), data, 0o644))
		}
		pkgs = append(pkgs, "./"+filepath.Base(dir)+"/")
		if len(tests) > 0 {
			tested = append(tested, pkgs[len(pkgs)-1])
		}
	}
	runs := [][]string{append([]string{"build"}, pkgs...), append([]string{"vet"}, pkgs...)}
	if len(tested) > 0 {
		runs = append(runs, append([]string{"test", "-count=1"}, tested...))
	}
	for _, args := range runs {
		cmd := exec.Command(goTool, args...)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		assert.NoError(t, err, "go %s of the golden packages:\n%s", args[0], out)
	}
}
