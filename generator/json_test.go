package generator

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// jsonTestdata holds the golden -json output for schemas/ and the test
// copied beside it.
var jsonTestdata = filepath.Join("..", "conformance", "testdata", "json")

// projectPackage generates schemas/ as package generated with -json.
func projectPackage(t *testing.T) map[string][]byte {
	t.Helper()
	specs, err := schema.LoadDir(filepath.Join("..", "schemas"))
	require.NoError(t, err)
	codec, err := Generate("generated", specs)
	require.NoError(t, err)
	files, err := generate("generated", specs, Config{JSON: true})
	require.NoError(t, err)
	require.Equal(t, 2*len(codec)-countNonSpec(files), len(files), "one _json.go file per spec")
	return files
}

// countNonSpec counts the package files that no spec has (registry, api
// keys), which get no JSON file.
func countNonSpec(files map[string][]byte) int {
	n := 0
	for name := range files {
		if strings.HasPrefix(name, "kafkagen_") {
			n++
		}
	}
	return n
}

// TestJSONGolden pins the -json output for schemas/ (go test -update
// rewrites it).
func TestJSONGolden(t *testing.T) {
	dir := filepath.Join(jsonTestdata, "golden")
	got := map[string][]byte{}
	for name, data := range projectPackage(t) {
		if strings.HasSuffix(name, "_json.go") {
			got[name] = data
		}
	}
	require.NotEmpty(t, got)
	if *update {
		require.NoError(t, os.RemoveAll(dir))
		require.NoError(t, os.MkdirAll(dir, 0o755))
		for name, data := range got {
			require.NoError(t, os.WriteFile(filepath.Join(dir, name+".golden"), data, 0o644))
		}
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err, "no golden JSON output: run go test ./generator -update")
	assert.Len(t, entries, len(got))
	for name, data := range got {
		want, err := os.ReadFile(filepath.Join(dir, name+".golden"))
		require.NoError(t, err, "%s: run go test ./generator -update", name)
		assert.Equal(t, string(want), string(data), "%s differs from its golden file (go test -update)", name)
	}
}

// TestJSONBuildsAndRoundTrips writes the -json package for schemas/ to a
// temporary folder at the module root (.json-build-*, out of ./...
// patterns), with conformance/testdata/json/roundtrip_test.go.txt beside
// it, then vets and tests it: every project message round-trips through
// JSON, and the interpreter of kafkagen dump prints the same JSON.
func TestJSONBuildsAndRoundTrips(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a package with the go command")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	dir, err := os.MkdirTemp(root, ".json-build-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	for name, data := range projectPackage(t) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
	test, err := os.ReadFile(filepath.Join(jsonTestdata, "roundtrip_test.go.txt"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "roundtrip_test.go"), test, 0o644))
	pkg := "./" + filepath.Base(dir) + "/"
	for _, args := range [][]string{{"vet", pkg}, {"test", "-count=1", pkg}} {
		cmd := exec.Command(goTool, args...)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		assert.NoError(t, err, "go %s:\n%s", strings.Join(args, " "), out)
	}
}

// TestNaNDefault: a float64 default of NaN is Java's Double.NaN (the bits
// Double.parseDouble gives) in the codec and in the JSON methods alike,
// never Go's math.NaN(), whose bits differ.
func TestNaNDefault(t *testing.T) {
	spec, err := schema.Load("Ratio.json", []byte(`{"type": "data", "name": "Ratio", "validVersions": "0-1", "flexibleVersions": "0+",
		"fields": [{ "name": "Value", "type": "float64", "versions": "0+", "default": "NaN", "about": "x" },
		           { "name": "Limit", "type": "float64", "versions": "1+", "taggedVersions": "1+", "tag": 0, "default": "NaN", "about": "y" }]}`))
	require.NoError(t, err)
	files, err := generate("ratio", []*schema.Spec{spec}, Config{JSON: true})
	require.NoError(t, err)
	const javaNaN = "math.Float64frombits(0x7ff8000000000000)"
	for _, name := range []string{"ratio.go", "ratio_json.go"} {
		src := string(files[name])
		assert.Contains(t, src, javaNaN, name)
		assert.NotContains(t, src, "math.NaN()", name)
	}
	assert.Contains(t, string(files["ratio_json.go"]), "m.Limit != "+javaNaN, "a tagged field compared with Java's NaN")
}
