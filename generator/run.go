package generator

import (
	"errors"
	"fmt"

	"github.com/kafkagen/kafkagen/generator/schema"
)

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

// Run loads every spec of cfg.In (and of cfg.Union), generates the package and writes it to
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
	files, err := generate(cfg.Package, specs, cfg)
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

// loadSpecs loads the spec folders under the rules of cfg.Release, and
// with several folders their union. A folder of Kafka 2.x specs given
// without a release is one line saying so (releaseHint), not a diagnostic
// for every spec.
func loadSpecs(cfg Config, rules schema.Rules) ([]*schema.Spec, error) {
	var folders [][]*schema.Spec
	for _, in := range append([]string{cfg.In}, cfg.Union...) {
		specs, err := rules.LoadDir(in)
		var diags schema.Diagnostics
		if cfg.Release == "" && errors.As(err, &diags) {
			if hint := releaseHint(in, diags); hint != "" {
				return nil, &configError{hint}
			}
		}
		if err != nil {
			return nil, err
		}
		folders = append(folders, specs)
	}
	if len(folders) == 1 {
		return folders[0], nil
	}
	return schema.Union(folders...)
}
