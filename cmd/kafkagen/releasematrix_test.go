package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/internal/corpus"
)

// releaseMatrixEnv turns TestReleaseFolders on. It is off in the plain
// unit run (go test ./...), which it would slow by minutes; `make
// releases`, a step of `make test`, sets it.
const releaseMatrixEnv = "KAFKAGEN_RELEASE_MATRIX"

// releaseBuildDir, at the module root, holds the generated release
// packages while the matrix runs; the leading underscore keeps it out of
// ./... patterns and git ignores it.
const releaseBuildDir = "_release-build"

// TestReleaseFolders is the release matrix: it generates every spec folder
// of every release in KAFKA_SPEC_RELEASES_DIR (2.2 to 4.2) in parallel,
// from 3.0 on with the default rules and before with -release (after
// checking that the default rules refuse the folder in one line naming
// the flag), into releaseBuildDir at the module root. Each package
// gets ReleaseRoundTrip (release_roundtrip.go); then one go vet covers
// every package, and one test binary (the package matrix beside them)
// imports them all and runs their round trips, so the build links once.
// It ends with one summary line, "release-matrix: folders=… failures=0".
func TestReleaseFolders(t *testing.T) {
	root := releasesDir(t)
	if os.Getenv(releaseMatrixEnv) == "" {
		t.Skipf("the release matrix runs in its own step, make releases (set %s=1 to run it here)", releaseMatrixEnv)
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	folders := releaseFolders(t, root)
	require.NotEmpty(t, folders, "no spec folders under %s", root)
	moduleRoot, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	// A fixed folder, so that a run after one that generated the same code
	// takes the compiled packages and vet results from the go command's
	// cache (keyed by import path and content).
	build := filepath.Join(moduleRoot, releaseBuildDir)
	require.NoError(t, os.RemoveAll(build)) // a killed run's leftovers
	require.NoError(t, os.Mkdir(build, 0o755))
	t.Cleanup(func() { os.RemoveAll(build) })

	releases := map[string]bool{}
	for _, f := range folders {
		releases[f.release] = true
	}
	var generated, vetted, roundTrips, messages int
	var timing []string
	defer func() {
		failures := len(folders) - generated + len(folders) - vetted + len(folders) - roundTrips
		t.Logf("release-matrix: folders=%d releases=%d generated=%d vetted=%d round-trips=%d messages=%d failures=%d",
			len(folders), len(releases), generated, vetted, roundTrips, messages, failures)
		t.Logf("release-matrix timing: %s", strings.Join(timing, ", "))
	}()
	phase := func(name string, start time.Time) {
		timing = append(timing, fmt.Sprintf("%s %v", name, time.Since(start).Round(100*time.Millisecond)))
	}

	start := time.Now()
	ok := make([]bool, len(folders))
	t.Run("generate", func(t *testing.T) {
		for i, f := range folders {
			t.Run(f.pkg, func(t *testing.T) {
				t.Parallel()
				generateReleaseFolder(t, f, filepath.Join(build, f.pkg), root)
				ok[i] = !t.Failed()
			})
		}
	})
	phase("generate", start)
	var pkgs []string
	for i, f := range folders {
		if ok[i] {
			generated++
			pkgs = append(pkgs, f.pkg)
		}
	}
	require.Equal(t, len(folders), generated, "every folder generates")
	modulePath := "github.com/kafkagen/kafkagen/" + filepath.Base(build)
	writeMatrixDriver(t, filepath.Join(build, "matrix"), modulePath, pkgs)
	rel := "./" + filepath.Base(build) + "/"

	start = time.Now()
	vetArgs := []string{"vet", rel + "matrix"}
	for _, p := range pkgs {
		vetArgs = append(vetArgs, rel+p)
	}
	out, err := goCommand(goTool, moduleRoot, vetArgs...)
	phase("vet", start)
	vetted = len(pkgs) - strings.Count(out, "\n# ")
	if err != nil && vetted == len(pkgs) {
		vetted = 0 // failed without naming packages
	}
	require.NoError(t, err, "go vet of the release packages:\n%s", out)

	start = time.Now()
	out, err = goCommand(goTool, moduleRoot, "test", "-count=1", "-v", "-run", "^TestReleaseRoundTrip$", rel+"matrix")
	phase("build and round trips", start)
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		if strings.Contains(line, "round trips:") || strings.Contains(line, "differs as expected") {
			t.Log(line)
		}
		if i := strings.Index(line, "release-roundtrips:"); i >= 0 {
			var n, failed int
			_, scanErr := fmt.Sscanf(line[i:], "release-roundtrips: packages=%d messages=%d failures=%d", &n, &messages, &failed)
			require.NoError(t, scanErr, line)
			roundTrips = n - failed
		}
	}
	require.NoError(t, err, "go test of the release packages:\n%s", out)
	assert.Equal(t, len(pkgs), roundTrips, "every package passes its round trips")
}

// goCommand runs the go command in dir and returns its combined output,
// with a newline first so that every "# package" header starts a line.
func goCommand(goTool, dir string, args ...string) (string, error) {
	cmd := exec.Command(goTool, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return "\n" + string(out), err
}

// generateReleaseFolder generates f into out with the rules kafkagen picks
// for it, and adds ReleaseRoundTrip.
func generateReleaseFolder(t *testing.T, f releaseFolder, out, root string) {
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
}

// writeMatrixDriver writes the test package that imports every release
// package and runs their round trips as parallel subtests, then logs
// "release-roundtrips: packages=N messages=M failures=F".
func writeMatrixDriver(t *testing.T, dir, modulePath string, pkgs []string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(dir, 0o755))
	var imports, table strings.Builder
	for _, p := range pkgs {
		fmt.Fprintf(&imports, "\t%s %q\n", p, modulePath+"/"+p)
		fmt.Fprintf(&table, "\t{%q, %s.ReleaseRoundTrip},\n", p, p)
	}
	src := fmt.Sprintf(matrixDriver, imports.String(), table.String())
	require.NoError(t, os.WriteFile(filepath.Join(dir, "matrix_test.go"), []byte(src), 0o644))
}

const matrixDriver = `package matrix

import (
	"sync"
	"testing"

%s)

var packages = []struct {
	name      string
	roundTrip func(*testing.T) int
}{
%s}

func TestReleaseRoundTrip(t *testing.T) {
	var mu sync.Mutex
	messages, failures := 0, 0
	t.Run("packages", func(t *testing.T) {
		for _, p := range packages {
			t.Run(p.name, func(t *testing.T) {
				t.Parallel()
				n := p.roundTrip(t)
				mu.Lock()
				defer mu.Unlock()
				messages += n
				if t.Failed() {
					failures++
				}
			})
		}
	})
	t.Logf("release-roundtrips: packages=%%d messages=%%d failures=%%d", len(packages), messages, failures)
}
`

// writeRoundTrip adds release_roundtrip.go, with ReleaseRoundTrip, to the
// package generated from f, reading the specs of f and, when the current
// corpus is present, the folder at the same path in it.
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
	require.NoError(t, os.WriteFile(filepath.Join(pkgDir, "release_roundtrip.go"), []byte(src), 0o644))
}
