package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// compatCases holds the hand-made spec pairs of generator/compat, one
// folder per rule with old/, new/ and findings.golden (paths relative to
// the folder, notes included).
var compatCases = filepath.Join("..", "..", "testdata", "compat")

// goldenLines reads a case's golden findings as the command prints them:
// paths as given on the command line, notes only when verbose.
func goldenLines(t *testing.T, name string, verbose bool) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(compatCases, name, "findings.golden"))
	require.NoError(t, err)
	var b strings.Builder
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if line == "" || (!verbose && strings.Contains(line, ": note: ")) {
			continue
		}
		b.WriteString(filepath.Join(compatCases, name) + string(filepath.Separator) + line)
	}
	return b.String()
}

func TestCompatUsage(t *testing.T) {
	code, stdout, stderr := runMain(t, "compat", "-h")
	assert.Equal(t, 0, code)
	assert.Empty(t, stdout)
	assert.True(t, strings.HasPrefix(stderr, "Usage: kafkagen compat -old PATH -new PATH"), stderr)
	for _, want := range []string{"-old-release", "-new-release", "-v", "Exit status: 0 no violations, 1 violations, 2 misuse, 3 a spec that does not\nload or a file that cannot be read (what it holds is not checked), 4 no\nviolations but removals."} {
		assert.Contains(t, stderr, want)
	}
	_, _, stderr = runMain(t, "-h")
	assert.Contains(t, stderr, "\n  compat   check that new specs keep the wire format of old ones", "listed among the commands")
}

// TestCompatCases runs the command over hand-made pairs: the exit status,
// and stdout exactly the golden findings (violations; notes with -v).
func TestCompatCases(t *testing.T) {
	tests := []struct {
		name    string
		verbose bool
		code    int
		summary string
	}{
		{"clean", false, 4, "kafkagen compat: 2 of 2 spec pairs compared, 0 violation(s), 1 removal(s), 1 note(s) (-v prints them)\n"},
		{"clean", true, 4, "kafkagen compat: 2 of 2 spec pairs compared, 0 violation(s), 1 removal(s), 1 note(s)\n"},
		{"unstable", false, 0, "kafkagen compat: 2 of 2 spec pairs compared, 0 violation(s), 2 early-access change(s)\n"},
		{"removed", false, 4, "kafkagen compat: 1 of 1 spec pairs compared, 0 violation(s), 1 removal(s)\n"},
		{"early-access", false, 0, "kafkagen compat: 3 of 3 spec pairs compared, 0 violation(s), 3 early-access change(s)\n"},
		{"coordinator", true, 1, "kafkagen compat: 4 of 4 spec pairs compared, 2 violation(s), 4 note(s)\n"},
		{"tag", false, 1, "kafkagen compat: 1 of 1 spec pairs compared, 2 violation(s)\n"},
		{"field-removed", true, 1, "kafkagen compat: 1 of 1 spec pairs compared, 2 violation(s), 1 removal(s)\n"},
		{"nested", false, 1, "kafkagen compat: 1 of 1 spec pairs compared, 2 violation(s)\n"},
		{"load", false, 3, "kafkagen compat: 0 of 1 spec pairs compared, 0 violation(s), 1 load problem(s)\n"},
		{"unpaired", true, 0, "kafkagen compat: 1 of 1 spec pairs compared, 0 violation(s), 2 note(s)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(compatCases, tt.name)
			args := []string{"compat", "-old", filepath.Join(dir, "old"), "-new", filepath.Join(dir, "new")}
			if tt.verbose {
				args = append(args, "-v")
			}
			code, stdout, stderr := runMain(t, args...)
			assert.Equal(t, tt.code, code, stderr)
			assert.Equal(t, goldenLines(t, tt.name, tt.verbose), stdout)
			assert.Equal(t, tt.summary, stderr)
		})
	}
}

func TestCompatFiles(t *testing.T) {
	dir := filepath.Join(compatCases, "tag")
	code, stdout, stderr := runMain(t, "compat",
		"-old", filepath.Join(dir, "old", "PingRequest.json"), "-new", filepath.Join(dir, "new", "PingRequest.json"))
	assert.Equal(t, 1, code)
	assert.Equal(t, goldenLines(t, "tag", false), stdout)
	assert.Equal(t, "kafkagen compat: 1 of 1 spec pairs compared, 2 violation(s)\n", stderr)
}

// TestCompatRelease: a Kafka 2.x spec (no flexibleVersions) does not load
// under the current rules, which is reported; with -old-release 2.8 it does.
func TestCompatRelease(t *testing.T) {
	old := specDir(t, map[string]string{"OldData.json": strings.TrimSuffix(legacySpec, "]\n")})
	current := specDir(t, map[string]string{"OldData.json": strings.Replace(strings.TrimSuffix(legacySpec, "]\n"),
		`"validVersions": "0-1",`, `"validVersions": "0-2", "flexibleVersions": "none",`, 1)})

	code, stdout, stderr := runMain(t, "compat", "-old", old, "-new", current)
	assert.Equal(t, 3, code, "a spec that does not load is not checked")
	assert.Equal(t, filepath.Join(old, "OldData.json")+":1:1: OldData: cannot compare, the spec does not load (4.2 rules): "+
		"You must specify a value for flexibleVersions. Please use 0+ for all new messages.\n", stdout)
	assert.Equal(t, "kafkagen compat: 0 of 1 spec pairs compared, 0 violation(s), 1 load problem(s)\n", stderr)

	code, stdout, stderr = runMain(t, "compat", "-old", old, "-new", current, "-old-release", "2.8")
	assert.Equal(t, 0, code, stdout)
	assert.Empty(t, stdout)
	assert.Equal(t, "kafkagen compat: 1 of 1 spec pairs compared, 0 violation(s)\n", stderr)
}

func TestCompatMisuse(t *testing.T) {
	dir := filepath.Join(compatCases, "clean")
	oldDir, newDir := filepath.Join(dir, "old"), filepath.Join(dir, "new")
	file := filepath.Join(newDir, "PingRequest.json")
	missing := filepath.Join(t.TempDir(), "nope")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no flags", nil, "kafkagen compat: both -old and -new are required (kafkagen compat -h for help)\n"},
		{"no -new", []string{"-old", oldDir}, "kafkagen compat: both -old and -new are required (kafkagen compat -h for help)\n"},
		{"extra argument", []string{"-old", oldDir, "-new", newDir, "more"}, "kafkagen compat: unexpected argument \"more\"\n"},
		{"missing old", []string{"-old", missing, "-new", newDir}, "kafkagen compat: -old " + missing + " does not exist\n"},
		{"missing new", []string{"-old", oldDir, "-new", missing}, "kafkagen compat: -new " + missing + " does not exist\n"},
		{"folder and file", []string{"-old", oldDir, "-new", file}, "kafkagen compat: -old and -new must be two folders or two files\n"},
		{"bad release", []string{"-old", oldDir, "-new", newDir, "-old-release", "two"},
			"kafkagen compat: -old-release: release \"two\" is not MAJOR.MINOR or MAJOR.MINOR.PATCH (such as 2.8, 3.9.1 or 4.2.0-rc1)\n"},
		{"release without specs", []string{"-old", oldDir, "-new", newDir, "-new-release", "2.1"},
			"kafkagen compat: -new-release: release 2.1 has no JSON message specs: Kafka ships them from 2.2\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runMain(t, append([]string{"compat"}, tt.args...)...)
			assert.Equal(t, 2, code)
			assert.Empty(t, stdout)
			assert.Equal(t, tt.want, stderr)
		})
	}
	code, stdout, stderr := runMain(t, "compat", "-nope")
	assert.Equal(t, 2, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "flag provided but not defined: -nope")
	assert.Contains(t, stderr, "Usage: kafkagen compat")
}

// TestCompatAcrossReleases runs the command over whole Kafka release
// checkouts, as a user upgrading would: 4.0 removed versions (exit status
// 1 for the three Vote fields it renamed, removals counted apart), and
// 4.2.0-rc1 changes nothing 4.1.1 had. The findings themselves are pinned
// by generator/compat's TestReleaseChain.
func TestCompatAcrossReleases(t *testing.T) {
	root := releasesDir(t)
	tests := []struct {
		old, new string
		code     int
		summary  string
		line     string // one line stdout must hold, "" for none
	}{
		{"3.9.1", "4.0.0", 1, "kafkagen compat: 245 of 245 spec pairs compared, 3 violation(s), 51 removal(s), 5 early-access change(s), 17 note(s) (-v prints them)\n",
			"ProduceRequest: removed: validVersions changed from 0-11 to 3-12: versions 0-2 removed: a peer still sending them is refused\n"},
		{"4.1.1", "4.2.0-rc1", 0, "kafkagen compat: 284 of 284 spec pairs compared, 0 violation(s), 1 note(s) (-v prints them)\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.old+"-"+tt.new, func(t *testing.T) {
			oldDir, newDir := filepath.Join(root, tt.old), filepath.Join(root, tt.new)
			if _, err := os.Stat(newDir); err != nil {
				t.Skipf("release %s not found under %s", tt.new, root)
			}
			code, stdout, stderr := runMain(t, "compat", "-old", oldDir, "-new", newDir)
			assert.Equal(t, tt.code, code)
			assert.Equal(t, tt.summary, stderr)
			if tt.line == "" {
				assert.Empty(t, stdout)
			} else {
				assert.Contains(t, stdout, tt.line)
			}
		})
	}
}
