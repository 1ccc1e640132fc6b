package generator

import (
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// Config configures one generator run.
type Config struct {
	In string // folder of *.json spec files
	// Union lists more spec folders, of other Kafka releases, read into the
	// same package: each message holds the union of its versions in all the
	// folders, which must agree where they share a version (schema.Union).
	Union   []string
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
	// Printed prints the encode and decode methods of every message, where
	// by default the APIs off the data path get tables read by the runtime
	// (codec.FastPaths): about 40% more build time for the client package,
	// for their encode and decode at the data path's speed
	// (docs/benchmarks.md, "Tables for the APIs off the data path").
	Printed bool
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
	for _, in := range append([]string{cfg.In}, cfg.Union...) {
		if err := checkInput(in); err != nil {
			return schema.Rules{}, err
		}
	}
	return rules, nil
}

// checkInput refuses an input that is not a folder holding spec files.
func checkInput(in string) error {
	switch st, err := os.Stat(in); {
	case errors.Is(err, fs.ErrNotExist):
		return configErrorf("input folder: %s does not exist", in)
	case err != nil:
		return configErrorf("input folder: %v", err)
	case !st.IsDir():
		return configErrorf("input %s is not a folder", in)
	}
	if specs, _ := filepath.Glob(filepath.Join(in, "*.json")); len(specs) == 0 {
		if hint := checkoutHint(in); hint != "" {
			return &configError{hint}
		}
		return configErrorf("no *.json spec files in %s", in)
	}
	return nil
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
