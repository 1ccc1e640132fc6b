package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/internal/corpus"
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

// TestReleaseFolders is the release matrix: it generates every spec folder
// of every release in KAFKA_SPEC_RELEASES_DIR (2.2 to 4.2), from 3.0 on
// with the default rules and before with -release (after checking that the
// default rules refuse the folder in one line naming the flag), then vets
// and tests the packages together as packages of this module (in temporary
// folders .release-build-* at the module root, which the leading dot keeps
// out of ./... patterns), each with the test releaseRoundTrip.
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
			dir, err := os.MkdirTemp(moduleRoot, ".release-build-"+f.pkg+"-")
			require.NoError(t, err)
			parent.Cleanup(func() { os.RemoveAll(dir) }) // after the build below
			out := filepath.Join(dir, f.pkg)
			if !strings.HasPrefix(f.release, "2.") {
				// From 3.0 on, the default rules read every folder.
				code, _, stderr := runMain(t, "-in", f.path, "-out", out)
				require.Equal(t, 0, code, stderr)
			} else {
				refused := filepath.Join(t.TempDir(), f.pkg)
				code, _, stderr := runMain(t, "-in", f.path, "-out", refused)
				assert.Equal(t, 2, code, "the current rules refuse a %s folder", f.release)
				assert.Regexp(t, `^kafkagen: \d+ of the \d+ specs in .* lack flexibleVersions .*: add -release 2\.[24] for such a release.*\n$`, stderr, "in one line naming -release")
				code, _, stderr = runMain(t, "-in", f.path, "-out", out, "-release", f.release)
				require.Equal(t, 0, code, stderr)
			}
			writeRoundTrip(t, out, f, root)
			rel, err := filepath.Rel(moduleRoot, out)
			require.NoError(t, err)
			pkgs = append(pkgs, "./"+filepath.ToSlash(rel))
		})
	}
	require.Len(t, pkgs, len(folders), "every folder generates")
	for _, args := range [][]string{{"vet"}, {"test", "-count=1", "-v", "-run", "^TestReleaseRoundTrip$"}} {
		cmd := exec.Command(goTool, append(args, pkgs...)...)
		cmd.Dir = moduleRoot
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "go %s of the release packages:\n%s", args[0], out)
		for _, line := range strings.Split(string(out), "\n") {
			if strings.Contains(line, "round trips:") || strings.Contains(line, "differs as expected") {
				t.Log(strings.TrimSpace(line))
			}
		}
	}
	t.Logf("%d release spec folders generate, vet, build and pass their round trips: %s", len(pkgs), strings.Join(pkgs, " "))
}

// writeRoundTrip adds the test releaseRoundTrip to the package generated
// from f, reading the specs of f and, when the current corpus is present,
// the folder at the same path in it.
func writeRoundTrip(t *testing.T, pkgDir string, f releaseFolder, root string) {
	t.Helper()
	rel, err := filepath.Rel(filepath.Join(root, f.release), f.path)
	require.NoError(t, err)
	current := filepath.Join(corpus.SpecDir(), rel)
	if st, err := os.Stat(current); err != nil || !st.IsDir() {
		current = ""
	}
	specs, err := filepath.Abs(f.path)
	require.NoError(t, err)
	if current != "" {
		current, err = filepath.Abs(current)
		require.NoError(t, err)
	}
	src := fmt.Sprintf(releaseRoundTrip, f.pkg, f.release, specs, current)
	require.NoError(t, os.WriteFile(filepath.Join(pkgDir, "release_roundtrip_test.go"), []byte(src), 0o644))
}

// releaseRoundTrip is the test written into each release package: random
// canonical encodings (internal/wiregen) of every version of every spec,
// read under the release's rules, decode and re-encode byte for byte
// (internal/roundtrip). Then the current corpus's encodings of the same
// messages, at every version both know: a version's wire format does not
// change from one release to the next (fields added since as tagged fields
// arrive as unknown tags and are written back), except where Kafka changed
// a format in place, listed in changedInPlace with the reason, or where the
// two releases disagree on whether the version is flexible.
const releaseRoundTrip = `package %[1]s

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/internal/roundtrip"
	"github.com/kafkagen/kafkagen/internal/wiregen"
	"github.com/kafkagen/kafkagen/runtime"
)

const (
	release    = %[2]q
	specDir    = %[3]q
	currentDir = %[4]q // "" when the current corpus is absent
)

// changedInPlace are the messages whose encoding at a version both
// releases know differs, by release/name. Each must still differ.
var changedInPlace = map[string]string{
	"2.2.0/RequestHeader": "2.2's header spec calls v0 the header with a client id, which 2.4 renumbered v1 (v0 became ControlledShutdown v0's header, without it)",
	"2.8.0/LeaderChangeMessage": "a KRaft control record, early access in 2.8: 3.0 added Version at v0",
}

// earlyAccess are the specs of KIP-932 (share groups), early access until
// Kafka 4.1 made them stable: their version 0 changed in place between the
// 3.9 and 4.0 previews, the late-2024 trunk corpus and 4.1. Cross checks
// of these names against the current corpus are expected to fail somewhere
// and are only logged.
var earlyAccess = map[string]bool{
	"ReadShareGroupStateSummaryResponse": true, "ShareGroupMetadataValue": true,
	"ShareGroupPartitionMetadataValue": true, "ShareGroupStatePartitionMetadataValue": true,
	"ShareSnapshotValue": true, "ShareUpdateValue": true,
}

func TestReleaseRoundTrip(t *testing.T) {
	rules, err := schema.RulesFor(release)
	if err != nil {
		t.Fatal(err)
	}
	specs, err := rules.LoadDir(specDir)
	if err != nil {
		t.Fatal(err)
	}
	var own, ownPairs, cross, crossPairs, flexDiffer int
	for _, spec := range specs {
		n, pairs, _, bad := check(spec, false)
		own, ownPairs = own+n, ownPairs+pairs
		for _, e := range bad {
			t.Errorf("%%s (%%s specs): %%v", spec.Name, release, e)
		}
	}
	var current []*schema.Spec
	if currentDir != "" {
		if current, err = schema.LoadDir(currentDir); err != nil {
			t.Fatal(err)
		}
	}
	for _, spec := range current {
		n, pairs, differ, bad := check(spec, true)
		cross, crossPairs, flexDiffer = cross+n, crossPairs+pairs, flexDiffer+differ
		reason, excepted := changedInPlace[release+"/"+spec.Name]
		switch {
		case excepted && len(bad) == 0:
			t.Errorf("%%s no longer differs from the current specs: remove it from changedInPlace", spec.Name)
		case excepted:
			t.Logf("%%s differs as expected (%%s): %%v", spec.Name, reason, bad[0])
		case earlyAccess[spec.Name] && len(bad) > 0:
			t.Logf("%%s differs as expected (KIP-932 early access): %%v", spec.Name, bad[0])
		default:
			for _, e := range bad {
				t.Errorf("%%s (current specs): %%v", spec.Name, e)
			}
		}
	}
	t.Logf("release %%s %%s round trips: %%d specs, %%d own pairs, %%d messages; from the current specs %%d pairs, %%d messages (%%d pairs skipped: flexible in one release only)",
		release, "%[1]s", len(specs), ownPairs, own, crossPairs, cross, flexDiffer)
}

// check round-trips samples of every version of spec that this package
// also supports. With cross, spec comes from another release, and versions
// that the two releases do not agree are flexible are skipped, counted in
// differ. It returns the first failure of each version.
func check(spec *schema.Spec, cross bool) (messages, pairs, differ int, bad []error) {
	newMsg := func() runtime.Message { return NewByName(spec.Name) }
	m, ok := newMsg().(runtime.Versioned)
	if !ok {
		return // not in this release
	}
	for _, v := range wiregen.Versions(spec) {
		if v < m.MinVersion() || v > m.MaxVersion() {
			continue
		}
		if cross && spec.FlexibleVersions.Contains(v) != m.IsFlexible(v) {
			differ++
			continue
		}
		pairs++
		rng := rand.New(rand.NewPCG(uint64(v), uint64(len(spec.Name))))
		for i := 0; i < 8; i++ {
			// Across releases, no unknown tags: a newer release may give
			// an unused tag a meaning at later versions only, and then
			// refuses it at the earlier ones, as Java's reader does
			// (FetchRequest's tag 1 in a partition, HighWatermark from v18
			// in 4.1).
			opts := wiregen.Options{UnknownTags: i%%2 == 1 && !cross, MaxArray: 1 + i%%3}
			src := wiregen.Encode(spec, v, rng, opts)
			if err := roundtrip.Check(newMsg, nil, src, v); err != nil {
				bad = append(bad, fmt.Errorf("v%%d sample %%d: %%w", v, i, err))
				break
			}
			messages++
		}
	}
	return messages, pairs, differ, bad
}
`
