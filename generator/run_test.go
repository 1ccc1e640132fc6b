package generator

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generator/internal/gomodel"
	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/internal/corpus"
)

// TestGeneratedIsFresh fails when generated/ is not what schemas/ generates.
func TestGeneratedIsFresh(t *testing.T) {
	err := runErr(Config{In: "../schemas", Out: "../generated", Check: true})
	require.NoError(t, err, "generated/ is stale: run `go run ./cmd/kafkagen` at the repository root")
}

// runErr is Run for the tests that look at its error only.
func runErr(cfg Config) error {
	_, err := Run(cfg)
	return err
}

// runSpecs are three small specs: an API's request and response and a data
// structure, so a run generates four files (three plus the registry).
var runSpecs = map[string]string{
	"PingRequest.json": `// A request.
{
  "apiKey": 900, "type": "request", "listeners": ["broker"], "name": "PingRequest",
  "validVersions": "0-1", "flexibleVersions": "1+",
  "fields": [
    { "name": "Payload", "type": "string", "versions": "0+", "about": "The payload." }
  ]
}
`,
	"PingResponse.json": `{
  "apiKey": 900, "type": "response", "name": "PingResponse",
  "validVersions": "0-1", "flexibleVersions": "1+",
  "fields": [
    { "name": "ErrorCode", "type": "int16", "versions": "0+", "about": "The error code." },
    { "name": "Payload", "type": "string", "versions": "0+", "about": "The payload." }
  ]
}
`,
	"PingState.json": `{
  "type": "data", "name": "PingState", "validVersions": "0", "flexibleVersions": "0+",
  "fields": [
    { "name": "Count", "type": "int64", "versions": "0+", "default": "-1", "about": "The count." }
  ]
}
`,
}

// runFiles are the files Run writes for runSpecs.
var runFiles = []string{"kafkagen_apikeys.go", gomodel.RegistryFile, "ping_request.go", "ping_response.go", "ping_state.go"}

// brokenSpec does not load: its field type is unknown.
const brokenSpec = `{
  "type": "data", "name": "Broken", "validVersions": "0", "flexibleVersions": "0+",
  "fields": [
    { "name": "Flag", "type": "booleanint8", "versions": "0+", "about": "Not a type." }
  ]
}
`

// writeSpecs creates a spec folder holding runSpecs.
func writeSpecs(t *testing.T, dir string) string {
	t.Helper()
	require.NoError(t, os.MkdirAll(dir, 0o755))
	for name, src := range runSpecs {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}
	return dir
}

// entry is one item of a folder snapshot.
type entry struct {
	mode fs.FileMode
	data string // file contents, or a symlink's target
}

// snapshot records every entry under root (names, modes, contents, link
// targets), so that two snapshots are equal only if the trees are identical.
func snapshot(t *testing.T, root string) map[string]entry {
	t.Helper()
	snap := map[string]entry{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		info, err := os.Lstat(path)
		if err != nil {
			return err
		}
		e := entry{mode: info.Mode()}
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			e.data, err = os.Readlink(path)
		case info.Mode().IsRegular():
			var b []byte
			b, err = os.ReadFile(path)
			e.data = string(b)
		}
		snap[rel] = e
		return err
	})
	require.NoError(t, err)
	return snap
}

// tempLeftovers lists the entries of parent that write creates temporarily.
func tempLeftovers(t *testing.T, parent string) []string {
	t.Helper()
	entries, err := os.ReadDir(parent)
	require.NoError(t, err)
	var left []string
	for _, e := range entries {
		if strings.Contains(e.Name(), ".kafkagen-") {
			left = append(left, e.Name())
		}
	}
	return left
}

// failingWrites makes writeFile fail from its n-th call on, until the test ends.
func failingWrites(t *testing.T, n int) *int {
	t.Helper()
	calls := 0
	orig := writeFile
	writeFile = func(name string, data []byte, perm fs.FileMode) error {
		calls++
		if calls >= n {
			return fmt.Errorf("simulated failure writing %s: %w", filepath.Base(name), fs.ErrPermission)
		}
		return orig(name, data, perm)
	}
	t.Cleanup(func() { writeFile = orig })
	return &calls
}

func TestRunWritesPackage(t *testing.T) {
	tmp := t.TempDir()
	in := writeSpecs(t, filepath.Join(tmp, "specs"))
	out := filepath.Join(tmp, "nested", "ping-msgs") // parent created; package "pingmsgs"

	require.NoError(t, runErr(Config{In: in, Out: out}))
	entries, err := os.ReadDir(out)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.Equal(t, runFiles, names)

	specs, err := schema.LoadDir(in)
	require.NoError(t, err)
	want, err := Generate("pingmsgs", specs)
	require.NoError(t, err)
	for _, name := range runFiles {
		got, err := os.ReadFile(filepath.Join(out, name))
		require.NoError(t, err)
		assert.Equal(t, string(want[name]), string(got), "%s is what Generate returns", name)
		assert.Contains(t, string(got), "\npackage pingmsgs\n")
		info, err := os.Stat(filepath.Join(out, name))
		require.NoError(t, err)
		assert.Equal(t, fs.FileMode(0o644), info.Mode().Perm(), name)
	}
	assert.Empty(t, tempLeftovers(t, filepath.Dir(out)))

	// A check right after a write is clean, and so is a second write.
	require.NoError(t, runErr(Config{In: in, Out: out, Check: true}))
	before := snapshot(t, out)
	require.NoError(t, runErr(Config{In: in, Out: out}))
	assert.Equal(t, before, snapshot(t, out), "rewriting unchanged output changes nothing")
	assert.Empty(t, tempLeftovers(t, filepath.Dir(out)))
}

func TestRunPackageOption(t *testing.T) {
	tmp := t.TempDir()
	in := writeSpecs(t, filepath.Join(tmp, "specs"))
	out := filepath.Join(tmp, "out")
	require.NoError(t, runErr(Config{In: in, Out: out, Package: "custom"}))
	src, err := os.ReadFile(filepath.Join(out, "ping_state.go"))
	require.NoError(t, err)
	assert.Contains(t, string(src), "\npackage custom\n")
	// The package name is part of what a check compares.
	err = runErr(Config{In: in, Out: out, Check: true})
	require.ErrorIs(t, err, ErrStale)
	require.NoError(t, runErr(Config{In: in, Out: out, Package: "custom", Check: true}))
}

func TestRunCheckReportsStale(t *testing.T) {
	tmp := t.TempDir()
	in := writeSpecs(t, filepath.Join(tmp, "specs"))
	out := filepath.Join(tmp, "out")

	// Nothing written yet: every file is missing.
	err := runErr(Config{In: in, Out: out, Check: true})
	require.ErrorIs(t, err, ErrStale)
	for _, name := range runFiles {
		assert.Contains(t, err.Error(), name+" is missing")
	}
	_, statErr := os.Stat(out)
	assert.ErrorIs(t, statErr, fs.ErrNotExist, "a check writes nothing")

	require.NoError(t, runErr(Config{In: in, Out: out}))
	tests := []struct {
		name   string
		change func(t *testing.T)
		want   string
	}{
		{"edited", func(t *testing.T) {
			path := filepath.Join(out, "ping_state.go")
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(path, append(src, "// edited\n"...), 0o644))
		}, "ping_state.go differs"},
		{"deleted", func(t *testing.T) {
			require.NoError(t, os.Remove(filepath.Join(out, "ping_response.go")))
		}, "ping_response.go is missing"},
		{"left over", func(t *testing.T) {
			require.NoError(t, os.WriteFile(filepath.Join(out, "old_request.go"), []byte(GeneratedPrefix+" from OldRequest.json. DO NOT EDIT.\n\npackage out\n"), 0o644))
		}, "old_request.go is stale (no spec generates it)"},
		{"spec changed", func(t *testing.T) {
			path := filepath.Join(in, "PingState.json")
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(src), `"-1"`, `"-2"`, 1)), 0o644))
		}, "ping_state.go differs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := snapshot(t, out)
			tt.change(t)
			changed := snapshot(t, out)
			err := runErr(Config{In: in, Out: out, Check: true})
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrStale)
			assert.Contains(t, err.Error(), tt.want)
			assert.Contains(t, err.Error(), out, "the message names the folder")
			assert.Equal(t, changed, snapshot(t, out), "a check writes nothing")

			// Writing repairs it, and the check is clean again.
			require.NoError(t, runErr(Config{In: in, Out: out}))
			require.NoError(t, runErr(Config{In: in, Out: out, Check: true}))
			if tt.name != "spec changed" {
				assert.Equal(t, before, snapshot(t, out))
			}
		})
	}
}

func TestRunKeepsHandWrittenFiles(t *testing.T) {
	tmp := t.TempDir()
	in := writeSpecs(t, filepath.Join(tmp, "specs"))
	out := filepath.Join(tmp, "out")
	require.NoError(t, runErr(Config{In: in, Out: out}))

	hand := map[string]string{
		"doc.go":           "// Package out is documented by hand.\npackage out\n",
		"extra_test.go":    "package out\n\nimport \"testing\"\n\nfunc TestExtra(t *testing.T) {}\n",
		"other_gen.go":     "// Code generated by another tool. DO NOT EDIT.\n\npackage out\n",
		"notes.txt":        GeneratedPrefix + " is a prefix, but this is not a .go file\n",
		"sub/helper.go":    "package sub\n",
		"sub/deeper/x.go":  GeneratedPrefix + " from X.json. DO NOT EDIT.\n\npackage deeper\n",
		"testdata/in.json": "{}\n",
	}
	for name, src := range hand {
		path := filepath.Join(out, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	}
	require.NoError(t, os.Chmod(filepath.Join(out, "doc.go"), 0o600))
	require.NoError(t, os.Chmod(filepath.Join(out, "sub", "deeper"), 0o700))
	require.NoError(t, os.Symlink("doc.go", filepath.Join(out, "doc_link.go")))
	require.NoError(t, os.Chmod(out, 0o750))
	// A generated file no spec produces any more, and one that will change.
	stale := filepath.Join(out, "old_request.go")
	require.NoError(t, os.WriteFile(stale, []byte(GeneratedPrefix+" from OldRequest.json. DO NOT EDIT.\n\npackage out\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(out, "ping_state.go"), []byte(GeneratedPrefix+" but edited\n"), 0o644))

	// The check reports the stale file; the hand-written ones are not its business.
	err := runErr(Config{In: in, Out: out, Check: true})
	require.ErrorIs(t, err, ErrStale)
	assert.Contains(t, err.Error(), "old_request.go is stale")
	assert.Contains(t, err.Error(), "ping_state.go differs")
	for name := range hand {
		assert.NotContains(t, err.Error(), filepath.Base(name))
	}

	before := snapshot(t, out)
	require.NoError(t, runErr(Config{In: in, Out: out}))
	after := snapshot(t, out)

	_, err = os.Lstat(stale)
	assert.ErrorIs(t, err, fs.ErrNotExist, "the stale generated file is pruned")
	for rel, e := range before {
		switch rel {
		case "old_request.go":
			assert.NotContains(t, after, rel)
		case "ping_state.go":
			assert.NotEqual(t, e, after[rel], "ping_state.go is regenerated")
		default:
			assert.Equal(t, e, after[rel], "%s is kept byte for byte, with its mode", rel)
		}
	}
	for rel := range after {
		_, existed := before[rel]
		assert.True(t, existed, "%s appeared", rel)
	}
	assert.Equal(t, fs.ModeDir|0o750, after["."].mode, "the folder keeps its mode")
	require.NoError(t, runErr(Config{In: in, Out: out, Check: true}))
	assert.Empty(t, tempLeftovers(t, tmp))
}

func TestRunBrokenSpecChangesNothing(t *testing.T) {
	tmp := t.TempDir()
	in := writeSpecs(t, filepath.Join(tmp, "specs"))
	out := filepath.Join(tmp, "out")
	require.NoError(t, runErr(Config{In: in, Out: out}))
	require.NoError(t, os.WriteFile(filepath.Join(out, "doc.go"), []byte("package out\n"), 0o644))
	// Make the output stale too, so that a write would have had work to do.
	require.NoError(t, os.WriteFile(filepath.Join(out, "ping_state.go"), []byte(GeneratedPrefix+"\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(in, "Broken.json"), []byte(brokenSpec), 0o644))

	for _, check := range []bool{false, true} {
		t.Run(fmt.Sprintf("check=%v", check), func(t *testing.T) {
			before := snapshot(t, out)
			parent := snapshot(t, tmp)
			err := runErr(Config{In: in, Out: out, Check: check})
			require.Error(t, err)
			var diags schema.Diagnostics
			require.True(t, errors.As(err, &diags), "spec problems are schema.Diagnostics, got %T: %v", err, err)
			require.Len(t, diags, 1)
			assert.Equal(t, filepath.Join(in, "Broken.json"), diags[0].File)
			assert.Equal(t, 4, diags[0].Line)
			assert.Contains(t, diags[0].Text, "booleanint8")
			assert.NotErrorIs(t, err, ErrStale)
			assert.Equal(t, before, snapshot(t, out), "the output folder is untouched")
			assert.Equal(t, parent, snapshot(t, tmp), "nothing else changed either")
			assert.Empty(t, tempLeftovers(t, tmp))
		})
	}
}

func TestRunWriteFailureChangesNothing(t *testing.T) {
	t.Run("existing output", func(t *testing.T) {
		tmp := t.TempDir()
		in := writeSpecs(t, filepath.Join(tmp, "specs"))
		out := filepath.Join(tmp, "out")
		require.NoError(t, runErr(Config{In: in, Out: out}))
		require.NoError(t, os.WriteFile(filepath.Join(out, "doc.go"), []byte("package out\n"), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(out, "old_request.go"), []byte(GeneratedPrefix+"\n"), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(out, "ping_state.go"), []byte(GeneratedPrefix+" edited\n"), 0o644))
		before := snapshot(t, tmp)

		calls := failingWrites(t, 3)
		err := runErr(Config{In: in, Out: out})
		require.Error(t, err)
		assert.ErrorIs(t, err, fs.ErrPermission, "the write error is wrapped")
		assert.Contains(t, err.Error(), "writing "+runFiles[2])
		assert.Equal(t, 3, *calls, "the run stops at the first failure")
		assert.Equal(t, before, snapshot(t, tmp), "the output folder and its parent are untouched")
		assert.Empty(t, tempLeftovers(t, tmp))
	})
	t.Run("new output", func(t *testing.T) {
		tmp := t.TempDir()
		in := writeSpecs(t, filepath.Join(tmp, "specs"))
		out := filepath.Join(tmp, "out")
		before := snapshot(t, tmp)
		failingWrites(t, 3)
		require.Error(t, runErr(Config{In: in, Out: out}))
		_, err := os.Stat(out)
		assert.ErrorIs(t, err, fs.ErrNotExist, "no partial output folder")
		assert.Equal(t, before, snapshot(t, tmp))
	})
}

func TestRunConfigErrors(t *testing.T) {
	tmp := t.TempDir()
	in := writeSpecs(t, filepath.Join(tmp, "specs"))
	empty := filepath.Join(tmp, "empty")
	require.NoError(t, os.Mkdir(empty, 0o755))
	file := filepath.Join(tmp, "outfile")
	require.NoError(t, os.WriteFile(file, []byte("not a folder\n"), 0o644))

	tests := []struct {
		name      string
		cfg       Config
		want      string
		wantCheck string // when a check fails differently
	}{
		{"missing input", Config{In: filepath.Join(tmp, "nope"), Out: filepath.Join(tmp, "out")}, "input folder:", ""},
		{"input is a file", Config{In: file, Out: filepath.Join(tmp, "out")}, "is not a folder", ""},
		{"no specs", Config{In: empty, Out: filepath.Join(tmp, "out")}, "no *.json spec files", ""},
		{"output is a file", Config{In: in, Out: file}, "output " + file + " is not a folder", ""},
		{"output under a file", Config{In: in, Out: filepath.Join(file, "out")}, "output " + filepath.Join(file, "out") + ": " + file + " is not a folder", ""},
		{"bad package option", Config{In: in, Out: filepath.Join(tmp, "out"), Package: "my.pkg"}, `package name "my.pkg" is not a Go identifier`, ""},
		{"bad folder name", Config{In: in, Out: filepath.Join(tmp, "1out")}, `package name "1out" is not a Go identifier`, ""},
		{"keyword package", Config{In: in, Out: filepath.Join(tmp, "out"), Package: "func"}, `package name "func" is a Go keyword`, ""},
		{"keyword folder name", Config{In: in, Out: filepath.Join(tmp, "type")}, `package name "type" is a Go keyword`, ""},
		{"predeclared package", Config{In: in, Out: filepath.Join(tmp, "out"), Package: "nil"}, `package name "nil" is predeclared in Go`, ""},
		{"blank package", Config{In: in, Out: filepath.Join(tmp, "out"), Package: "_"}, `package name "_" is the blank identifier`, ""},
		{"unknown release", Config{In: in, Out: filepath.Join(tmp, "out"), Release: "2.x"}, `release "2.x" is not MAJOR.MINOR`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := snapshot(t, tmp)
			for _, check := range []bool{false, true} {
				cfg := tt.cfg
				cfg.Check = check
				want := tt.want
				if check && tt.wantCheck != "" {
					want = tt.wantCheck
				}
				err := runErr(cfg)
				require.Error(t, err, "check=%v", check)
				assert.Contains(t, err.Error(), want, "check=%v", check)
				assert.NotErrorIs(t, err, ErrStale)
				assert.ErrorIs(t, err, ErrConfig, "a configuration problem is misuse")
			}
			assert.Equal(t, before, snapshot(t, tmp), "a failed run changes nothing")
		})
	}
}

// TestCorpusGenerates generates every folder of Kafka's spec corpus.
func TestCorpusGenerates(t *testing.T) {
	if !corpus.Available() {
		t.Skipf("Kafka spec corpus not found at %s: set KAFKA_SPEC_DIR to the folder holding Kafka's */src/*/resources spec folders", corpus.SpecDir())
	}
	start := time.Now()
	total := 0
	for _, d := range corpus.Dirs {
		t.Run(d.Package, func(t *testing.T) {
			specs, err := schema.LoadDir(filepath.Join(corpus.SpecDir(), d.Path))
			require.NoError(t, err, "loading %s", d.Path)
			require.NotEmpty(t, specs, d.Path)
			files, err := Generate(d.Package, specs)
			require.NoError(t, err, "generating %s", d.Path)
			want := len(specs) + 1 // a file per spec plus the registry
			if _, ok := files[gomodel.APIKeysFile]; ok {
				want++ // plus the api keys, which only packages with requests or responses get
				assert.Equal(t, "clients", d.Package, "the only corpus folder with requests and responses")
			}
			assert.Len(t, files, want, "a file per spec, the registry and the api keys")
			for name, src := range files {
				assert.True(t, strings.HasPrefix(string(src), GeneratedPrefix), name)
			}
			total += len(specs)
		})
	}
	elapsed := time.Since(start)
	assert.Equal(t, 258, total, "spec files in the corpus")
	t.Logf("loaded and generated %d specs in %d folders in %v", total, len(corpus.Dirs), elapsed.Round(time.Millisecond))
}

// TestRunSummary: Run says what it did, counting the files it generates,
// those that were missing or different before, and the stale ones pruned.
func TestRunSummary(t *testing.T) {
	tmp := t.TempDir()
	in := writeSpecs(t, filepath.Join(tmp, "specs"))
	out := filepath.Join(tmp, "out")
	n := len(runFiles)

	steps := []struct {
		name   string
		before func(t *testing.T)
		check  bool
		want   Summary
		line   string
	}{
		{"first write", nil, false, Summary{Out: out, Files: n, Changed: n}, fmt.Sprintf("wrote %d files to %s (%d changed)", n, out, n)},
		{"nothing to do", nil, false, Summary{Out: out, Files: n}, fmt.Sprintf("wrote %d files to %s (0 changed)", n, out)},
		{"clean check", nil, true, Summary{Out: out, Check: true, Files: n}, fmt.Sprintf("checked %d files in %s: up to date", n, out)},
		{"one edited, one deleted, one stale", func(t *testing.T) {
			require.NoError(t, os.WriteFile(filepath.Join(out, "ping_state.go"), []byte(GeneratedPrefix+" edited\n"), 0o644))
			require.NoError(t, os.Remove(filepath.Join(out, "ping_request.go")))
			require.NoError(t, os.WriteFile(filepath.Join(out, "old_request.go"), []byte(GeneratedPrefix+"\n"), 0o644))
		}, false, Summary{Out: out, Files: n, Changed: 2, Removed: 1}, fmt.Sprintf("wrote %d files to %s (2 changed, 1 stale removed)", n, out)},
	}
	for _, st := range steps {
		if st.before != nil {
			st.before(t)
		}
		got, err := Run(Config{In: in, Out: out, Check: st.check})
		require.NoError(t, err, st.name)
		assert.Equal(t, st.want, got, st.name)
		assert.Equal(t, st.line, got.String(), st.name)
	}
}
