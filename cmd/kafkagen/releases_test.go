package main

import (
	"os"
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

// TestReleaseRules: the current rules refuse a 2.x spec, with one line
// naming -release when the 2.x rules read it, else with 4.0's diagnostics;
// -release 2.8 generates exactly what the same spec with
// "flexibleVersions": "none" and no trailing text generates by default.
func TestReleaseRules(t *testing.T) {
	legacy := specDir(t, map[string]string{"OldData.json": legacySpec})
	tmp := t.TempDir()

	code, stdout, stderr := runMain(t, "-in", legacy, "-out", filepath.Join(tmp, "refused"))
	assert.Equal(t, 1, code)
	assert.Empty(t, stdout)
	file := filepath.Join(legacy, "OldData.json")
	assert.Equal(t, file+":7:1: invalid JSON: unexpected character ']' after the end of the JSON document\n"+
		"kafkagen: 1 problem(s); nothing written\n", stderr, "the current parser stops at the trailing text, before the attributes")
	withoutTail := specDir(t, map[string]string{"OldData.json": strings.TrimSuffix(legacySpec, "]\n")})
	code, stdout, stderr = runMain(t, "-in", withoutTail, "-out", filepath.Join(tmp, "refused"))
	assert.Equal(t, 2, code)
	assert.Empty(t, stdout)
	assert.Equal(t, "kafkagen: 1 of the 1 specs in "+withoutTail+" lack flexibleVersions (OldData.json), as in Kafka 2.2 and 2.3 (3.0 made it mandatory): "+
		`add -release 2.2 for such a release, or give a new spec "flexibleVersions": "0+" (kafkagen -h for usage)`+"\n", stderr)
	withBroken := specDir(t, map[string]string{"OldData.json": strings.TrimSuffix(legacySpec, "]\n"), "Bad.json": badSpec})
	code, _, stderr = runMain(t, "-in", withBroken, "-out", filepath.Join(tmp, "refused"))
	assert.Equal(t, 1, code, "a folder the 2.x rules do not read either gets every diagnostic")
	assert.Contains(t, stderr, filepath.Join(withBroken, "OldData.json")+":1:1: OldData: You must specify a value for flexibleVersions. Please use 0+ for all new messages.\n")
	assert.Contains(t, stderr, "Bad.Flag: Can't parse type booleanint8.")
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
	pkg     string // Go package name for it: "k280clients", "k420rc1clients"
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
			out = append(out, releaseFolder{r.Name(), dir, "k" + strings.NewReplacer(".", "", "-", "").Replace(r.Name()) + strings.ReplaceAll(module, "-", "")})
		}
	}
	return out
}
