// Package modtest lets a test build and test a package it generates as a
// package of this module, in a folder at the module root whose leading dot
// keeps it out of ./... patterns (and .gitignore lists .pruned-*).
package modtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/kafkagen/kafkagen/internal/corpus"
)

// Dir creates a folder .<prefix>-* at the module root, removed when the
// test ends, and returns it. The test is skipped with -short and when the
// go command is not on PATH, since what is built there needs it.
func Dir(t testing.TB, prefix string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the go command")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH")
	}
	dir, err := os.MkdirTemp(corpus.ModuleRoot(), "."+prefix+"-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// Go runs the go command at the module root with args and the package pkg
// of dir (a folder from Dir), and returns its combined output:
// Go(dir, "pkg", "test", "-count=1") runs go test -count=1 ./.pruned-123/pkg/.
func Go(dir, pkg string, args ...string) ([]byte, error) {
	args = append(args[:len(args):len(args)], "./"+filepath.ToSlash(filepath.Join(filepath.Base(dir), pkg))+"/")
	cmd := exec.Command("go", args...)
	cmd.Dir = corpus.ModuleRoot()
	return cmd.CombinedOutput()
}
