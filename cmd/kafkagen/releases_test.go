package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// legacySpec is written as Kafka 2.x's generator accepted it: no
// flexibleVersions, and a stray bracket after the object (Kafka 2.8.0's
// DescribeProducersRequest.json has two).
const legacySpec = `{
  "type": "data", "name": "OldData", "validVersions": "0-1",
  "fields": [
    { "name": "Name", "type": "string", "versions": "0+", "about": "A name." }
  ]
}
]
`

// TestReleaseRules: the current rules refuse a 2.x spec with 4.0's
// diagnostics; -release 2.8 generates exactly what the same spec with
// "flexibleVersions": "none" and no trailing text generates by default.
func TestReleaseRules(t *testing.T) {
	legacy := specDir(t, map[string]string{"OldData.json": legacySpec})
	tmp := t.TempDir()

	code, stdout, stderr := runMain(t, "-in", legacy, "-out", filepath.Join(tmp, "refused"))
	assert.Equal(t, 1, code)
	assert.Empty(t, stdout)
	file := filepath.Join(legacy, "OldData.json")
	assert.Equal(t, file+":7:1: invalid JSON: unexpected character ']' after the end of the JSON document\n"+
		"kafkagen: 1 problem(s); nothing written\n", stderr)
	withoutTail := specDir(t, map[string]string{"OldData.json": strings.TrimSuffix(legacySpec, "]\n")})
	code, _, stderr = runMain(t, "-in", withoutTail, "-out", filepath.Join(tmp, "refused"))
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, filepath.Join(withoutTail, "OldData.json")+":1:1: OldData: You must specify a value for flexibleVersions. Please use 0+ for all new messages.\n")
	assert.NoDirExists(t, filepath.Join(tmp, "refused"))

	for _, release := range []string{"2.2", "2.8", "2.8.0"} {
		code, _, stderr = runMain(t, "-in", legacy, "-out", filepath.Join(tmp, "old"), "-release", release)
		require.Equal(t, 0, code, stderr)
	}
	explicit := strings.Replace(strings.TrimSuffix(legacySpec, "]\n"), `"validVersions": "0-1",`, `"validVersions": "0-1", "flexibleVersions": "none",`, 1)
	code, _, stderr = runMain(t, "-in", specDir(t, map[string]string{"OldData.json": explicit}), "-out", filepath.Join(tmp, "old"), "-check")
	assert.Equal(t, 0, code, "the 2.x reading is flexibleVersions none: %s", stderr)

	// A release from 3.0 on applies the current rules.
	code, _, stderr = runMain(t, "-in", legacy, "-out", filepath.Join(tmp, "three"), "-release", "3.0")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "invalid JSON: unexpected character ']' after the end of the JSON document")
}

// releasesDir is KAFKA_SPEC_RELEASES_DIR, or ../shared/kafka-spec-releases
// beside the repository: one folder per Kafka release (2.2.0, 2.4.0...)
// holding that release's spec folders at their paths in Kafka's tree.
func releasesDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("KAFKA_SPEC_RELEASES_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "kafka-spec-releases")
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Skipf("Kafka release spec folders not found at %s: set KAFKA_SPEC_RELEASES_DIR to a folder holding <release>/clients/src/main/resources/common/message and friends", dir)
	}
	return dir
}

// releaseFolder is one spec folder of one release.
type releaseFolder struct {
	release string // "2.8.0"
	path    string // the folder of *.json specs
	pkg     string // Go package name for it: "k280clients"
}

func releaseFolders(t *testing.T, root string) []releaseFolder {
	t.Helper()
	releases, err := os.ReadDir(root)
	require.NoError(t, err)
	var out []releaseFolder
	for _, r := range releases {
		if !r.IsDir() {
			continue
		}
		specs, err := filepath.Glob(filepath.Join(root, r.Name(), "*", "src", "main", "resources", "common", "*", "*.json"))
		require.NoError(t, err)
		seen := map[string]bool{}
		for _, spec := range specs {
			dir := filepath.Dir(spec)
			if seen[dir] {
				continue
			}
			seen[dir] = true
			rel, err := filepath.Rel(filepath.Join(root, r.Name()), dir)
			require.NoError(t, err)
			module := strings.SplitN(rel, string(filepath.Separator), 2)[0] // clients, metadata
			out = append(out, releaseFolder{r.Name(), dir, "k" + strings.ReplaceAll(r.Name(), ".", "") + module})
		}
	}
	return out
}

// TestReleaseFolders generates every spec folder of the old releases with
// -release, then builds and vets the packages together as packages of this
// module (in temporary folders .release-build-* at the module root, which
// the leading dot keeps out of ./... patterns). Under the current rules
// each folder is refused with 4.0's diagnostic.
func TestReleaseFolders(t *testing.T) {
	root := releasesDir(t)
	if testing.Short() {
		t.Skip("builds the generated packages with the go command")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	folders := releaseFolders(t, root)
	require.NotEmpty(t, folders, "no spec folders under %s", root)
	moduleRoot, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	var pkgs []string
	parent := t
	for _, f := range folders {
		t.Run(f.pkg, func(t *testing.T) {
			refused := filepath.Join(t.TempDir(), f.pkg)
			code, _, stderr := runMain(t, "-in", f.path, "-out", refused)
			assert.Equal(t, 1, code, "the current rules refuse a %s folder", f.release)
			assert.Contains(t, stderr, "You must specify a value for flexibleVersions. Please use 0+ for all new messages.")

			dir, err := os.MkdirTemp(moduleRoot, ".release-build-"+f.pkg+"-")
			require.NoError(t, err)
			parent.Cleanup(func() { os.RemoveAll(dir) }) // after the build below
			out := filepath.Join(dir, f.pkg)
			code, _, stderr = runMain(t, "-in", f.path, "-out", out, "-release", f.release)
			require.Equal(t, 0, code, stderr)
			rel, err := filepath.Rel(moduleRoot, out)
			require.NoError(t, err)
			pkgs = append(pkgs, "./"+filepath.ToSlash(rel))
		})
	}
	require.Len(t, pkgs, len(folders), "every folder generates")
	for _, tool := range []string{"build", "vet"} {
		cmd := exec.Command(goTool, append([]string{tool}, pkgs...)...)
		cmd.Dir = moduleRoot
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "go %s of the release packages:\n%s", tool, out)
	}
	t.Logf("%d release spec folders generate, build and vet: %s", len(pkgs), strings.Join(pkgs, " "))
}
