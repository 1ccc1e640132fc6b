package generator

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// The output folder: how it differs from what a run generates, and its
// atomic replacement.

// ErrStale is returned by a check run when the output folder differs from
// what would be generated.
var ErrStale = errors.New("generated code is stale")

// writeFile is os.WriteFile; tests replace it to simulate a failing disk.
var writeFile = os.WriteFile

// isGenerated reports whether an existing file was written by kafkagen.
func isGenerated(path string) bool {
	if !strings.HasSuffix(path, ".go") {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, len(GeneratedPrefix))
	n, _ := f.Read(buf)
	return string(buf[:n]) == GeneratedPrefix
}

// outputDiff is how the output folder differs from the files a run
// generates, by file name.
type outputDiff struct {
	missing, differ []string // generated files absent from the folder, or different there
	stale           []string // generated files in the folder that no spec produces
}

// compareOutput compares the output folder (which may not exist yet) with
// the files that would be generated.
func compareOutput(out string, files map[string][]byte) (outputDiff, error) {
	var d outputDiff
	for _, name := range sortedNames(files) {
		have, err := os.ReadFile(filepath.Join(out, name))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			d.missing = append(d.missing, name)
		case err != nil:
			return d, err
		case !bytes.Equal(have, files[name]):
			d.differ = append(d.differ, name)
		}
	}
	entries, err := os.ReadDir(out)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return d, err
	}
	for _, e := range entries {
		if _, ok := files[e.Name()]; !ok && !e.IsDir() && isGenerated(filepath.Join(out, e.Name())) {
			d.stale = append(d.stale, e.Name())
		}
	}
	return d, nil
}

// err is a check's verdict: nil when the folder is up to date, else an
// ErrStale naming every file at fault.
func (d outputDiff) err(out string) error {
	var problems []string
	for _, name := range d.missing {
		problems = append(problems, name+" is missing")
	}
	for _, name := range d.differ {
		problems = append(problems, name+" differs")
	}
	for _, name := range d.stale {
		problems = append(problems, name+" is stale (no spec generates it)")
	}
	if len(problems) > 0 {
		return fmt.Errorf("%w in %s: %s", ErrStale, out, strings.Join(problems, "; "))
	}
	return nil
}

func sortedNames(files map[string][]byte) []string {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// write builds the complete new folder beside out (hand-written files linked
// or copied over, generated files written, stale generated files left out),
// then swaps it in with two renames. Any failure before the swap removes the
// temporary folder and leaves out untouched.
func write(out string, files map[string][]byte) (err error) {
	out, err = filepath.Abs(out)
	if err != nil {
		return err
	}
	parent := filepath.Dir(out)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(out)+".kafkagen-")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	mode := fs.FileMode(0o755)
	exists := false
	if st, statErr := os.Stat(out); statErr == nil {
		if !st.IsDir() {
			return fmt.Errorf("output %s is not a folder", out)
		}
		exists, mode = true, st.Mode().Perm()
		if err := keepHandWritten(out, tmp, files); err != nil {
			return err
		}
	}
	if err := os.Chmod(tmp, mode); err != nil {
		return err
	}
	for _, name := range sortedNames(files) {
		if err := writeFile(filepath.Join(tmp, name), files[name], 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
	}
	if !exists {
		return os.Rename(tmp, out)
	}
	old := tmp + ".old"
	if err := os.Rename(out, old); err != nil {
		return err
	}
	if err := os.Rename(tmp, out); err != nil {
		if back := os.Rename(old, out); back != nil {
			return fmt.Errorf("%v; restoring %s from %s also failed: %v", err, out, old, back)
		}
		return err
	}
	return os.RemoveAll(old)
}

// keepHandWritten reproduces in dst every entry of src that kafkagen did not
// generate (and will not regenerate), recursively.
func keepHandWritten(src, dst string, files map[string][]byte) error {
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, e := range entries {
		from, to := filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())
		if e.IsDir() {
			if err := copyTree(from, to); err != nil {
				return err
			}
			continue
		}
		if _, regenerated := files[e.Name()]; regenerated || isGenerated(from) {
			continue
		}
		if err := copyFile(from, to); err != nil {
			return err
		}
	}
	return nil
}

func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			info, err := d.Info()
			if err != nil {
				return err
			}
			return os.MkdirAll(target, info.Mode().Perm())
		}
		return copyFile(path, target)
	})
}

func copyFile(src, dst string) error {
	info, err := os.Lstat(src)
	if err != nil {
		return err
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		link, err := os.Readlink(src)
		if err != nil {
			return err
		}
		return os.Symlink(link, dst)
	}
	if os.Link(src, dst) == nil {
		return nil
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return writeFile(dst, data, info.Mode().Perm())
}
