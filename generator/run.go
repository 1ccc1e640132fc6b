package generator

import (
	"bytes"
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// Config configure one generator run.
type Config struct {
	In      string // folder of *.json spec files
	Out     string // output folder: one Go package
	Package string // Go package name; default: the base name of Out
	Check   bool   // compare instead of writing
	// Release is the Kafka release whose generator's spec rules apply
	// ("2.8": see schema.RulesFor); empty for the current rules.
	Release string
	// JSON adds, per spec, a <spec>_json.go file with Kafka's JSON form
	// (AppendJSON, DecodeJSON, MarshalJSON, UnmarshalJSON; package jsoncodec).
	JSON bool
	// Prune leaves messages and versions out (see Prune); the zero value
	// generates everything.
	Prune Prune
}

// ErrStale is returned by a check run when the output folder differs from
// what would be generated.
var ErrStale = errors.New("generated code is stale")

// writeFile is os.WriteFile; tests replace it to simulate a failing disk.
var writeFile = os.WriteFile

// Summary says what a successful run did, for the one line a command
// prints.
type Summary struct {
	Out   string // the output folder, as configured
	Check bool   // the run compared instead of writing
	// Files counts the files generated; Changed those of them that were
	// missing or different in Out before the run (0 after a clean check),
	// and Removed the generated files no spec produces any more, which a
	// write prunes.
	Files, Changed, Removed int
}

// String is the summary line: "wrote 23 files to generated (2 changed)",
// or for a check "checked 23 files in generated: up to date".
func (s Summary) String() string {
	if s.Check {
		return fmt.Sprintf("checked %d files in %s: up to date", s.Files, s.Out)
	}
	line := fmt.Sprintf("wrote %d files to %s (%d changed", s.Files, s.Out, s.Changed)
	if s.Removed > 0 {
		line += fmt.Sprintf(", %d stale removed", s.Removed)
	}
	return line + ")"
}

// Run loads every spec of cfg.In, generates the package and writes it to
// cfg.Out, or with Check reports whether cfg.Out is up to date, and
// returns what it did. A Config that cannot run is reported before
// anything is read or written, with an error matching ErrConfig; spec
// problems are returned as schema.Diagnostics, and a stale output of a
// check as an error matching ErrStale. Nothing in cfg.Out changes unless
// the whole run succeeds.
func Run(cfg Config) (Summary, error) {
	rules, err := validateConfig(&cfg)
	if err != nil {
		return Summary{}, err
	}
	specs, err := loadSpecs(cfg, rules)
	if err != nil {
		return Summary{}, err
	}
	files, err := generate(cfg.Package, specs, cfg.Prune, cfg.JSON)
	if err != nil {
		return Summary{}, err
	}
	diff, err := compareOutput(cfg.Out, files)
	if err != nil {
		return Summary{}, err
	}
	sum := Summary{Out: cfg.Out, Check: cfg.Check, Files: len(files), Changed: len(diff.missing) + len(diff.differ), Removed: len(diff.stale)}
	if cfg.Check {
		return sum, diff.err(cfg.Out)
	}
	return sum, write(cfg.Out, files)
}

// loadSpecs loads the spec folder under the rules of cfg.Release. A
// folder of Kafka 2.x specs given without a release is one line saying so
// (releaseHint), not a diagnostic for every spec.
func loadSpecs(cfg Config, rules schema.Rules) ([]*schema.Spec, error) {
	specs, err := rules.LoadDir(cfg.In)
	var diags schema.Diagnostics
	if cfg.Release == "" && errors.As(err, &diags) {
		if hint := releaseHint(cfg.In, diags); hint != "" {
			return nil, &configError{hint}
		}
	}
	return specs, err
}

// ErrConfig marks a Config that cannot run: a package name that is no
// usable Go identifier, an input that is not a folder of specs, an output
// that is not a folder, an unknown release. Commands report it as misuse.
var ErrConfig = errors.New("invalid configuration")

// configError is a problem with a Config; it matches ErrConfig.
type configError struct{ msg string }

func (e *configError) Error() string        { return e.msg }
func (e *configError) Is(target error) bool { return target == ErrConfig }

func configErrorf(format string, args ...any) error {
	return &configError{fmt.Sprintf(format, args...)}
}

// validateConfig checks cfg before anything is read or written, fills in
// the default package name, and returns the spec rules of cfg.Release.
func validateConfig(cfg *Config) (schema.Rules, error) {
	if cfg.Prune.MinVersion < 0 {
		return schema.Rules{}, configErrorf("minimum version %d is negative", cfg.Prune.MinVersion)
	}
	// The output comes first: a file given as -out would otherwise be
	// reported by the package name taken from it.
	if err := checkOutput(cfg.Out); err != nil {
		return schema.Rules{}, err
	}
	derived := cfg.Package == ""
	if derived {
		abs, err := filepath.Abs(cfg.Out)
		if err != nil {
			return schema.Rules{}, err
		}
		cfg.Package = strings.ReplaceAll(filepath.Base(abs), "-", "")
	}
	if err := checkPackageName(cfg.Package); err != nil {
		if derived {
			return schema.Rules{}, configErrorf("%v (taken from the output folder's name; set one with -package)", err)
		}
		return schema.Rules{}, err
	}
	rules, err := schema.RulesFor(cfg.Release)
	if err != nil {
		return schema.Rules{}, &configError{err.Error()}
	}
	switch st, err := os.Stat(cfg.In); {
	case errors.Is(err, fs.ErrNotExist):
		return schema.Rules{}, configErrorf("input folder: %s does not exist", cfg.In)
	case err != nil:
		return schema.Rules{}, configErrorf("input folder: %v", err)
	case !st.IsDir():
		return schema.Rules{}, configErrorf("input %s is not a folder", cfg.In)
	}
	if specs, _ := filepath.Glob(filepath.Join(cfg.In, "*.json")); len(specs) == 0 {
		if hint := checkoutHint(cfg.In); hint != "" {
			return schema.Rules{}, &configError{hint}
		}
		return schema.Rules{}, configErrorf("no *.json spec files in %s", cfg.In)
	}
	return rules, nil
}

// checkPackageName refuses names that would not compile as a package
// clause, and predeclared names, which would compile but shadow the
// builtin (int, nil, len...) in every file importing the package.
func checkPackageName(name string) error {
	switch {
	case token.IsKeyword(name):
		return configErrorf("package name %q is a Go keyword", name)
	case !token.IsIdentifier(name):
		return configErrorf("package name %q is not a Go identifier", name)
	case name == "_":
		return configErrorf("package name %q is the blank identifier", name)
	case types.Universe.Lookup(name) != nil:
		return configErrorf("package name %q is predeclared in Go (a builtin type, constant or function)", name)
	}
	return nil
}

// checkOutput refuses an output that exists but is not a folder, or that
// lies under a file. Other problems (permissions) surface when writing.
func checkOutput(out string) error {
	for dir := out; ; dir = filepath.Dir(dir) {
		if st, err := os.Stat(dir); err == nil {
			switch {
			case st.IsDir():
				return nil
			case dir == out:
				return configErrorf("output %s is not a folder", out)
			}
			return configErrorf("output %s: %s is not a folder", out, dir)
		}
		if filepath.Dir(dir) == dir {
			return nil
		}
	}
}

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
