package main

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/internal/corpus"
)

// The README runs `go run ./cmd/kafkagen` inside the workspace (go.work),
// the Makefile with GOWORK=off: both must build the main module's packages
// from the same module versions. The workspace raises a dependency when
// another of its modules requires it higher (golang.org/x/text did, through
// interop and conformance/diff): raise it in go.mod too.
func TestWorkspaceBuildsWithTheModulesVersions(t *testing.T) {
	root := corpus.ModuleRoot()
	work := filepath.Join(root, "go.work")
	if _, err := os.Stat(work); err != nil {
		t.Skipf("no go.work at %s", work)
	}
	alone := buildModules(t, root, "off")
	inWorkspace := buildModules(t, root, work)
	assert.Equal(t, alone, inWorkspace, "the main module's packages build from other versions in the workspace than with GOWORK=off: run GOWORK=off go get MODULE@VERSION (the workspace's) at the repository root, then go mod tidy in the example modules")
}

// buildModules lists the module versions the main module's packages and
// tests build from, with GOWORK set to gowork.
func buildModules(t *testing.T, root, gowork string) string {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-test", "-f", "{{with .Module}}{{.Path}} {{.Version}}{{end}}", "./...")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOWORK="+gowork, "GOFLAGS=-mod=readonly")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go list with GOWORK=%s: %s", gowork, out)
	seen := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		if line != "" {
			seen[line] = true
		}
	}
	return strings.Join(slices.Sorted(maps.Keys(seen)), "\n")
}
