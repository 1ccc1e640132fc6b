package compat

import (
	"errors"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// Options say how each side is loaded.
type Options struct {
	// Old and New are the loader rules of each side: schema.Current (rules
	// without a Release mean it too) or, for a Kafka 2.x spec folder,
	// schema.Release2x (see schema.RulesFor).
	Old, New schema.Rules
}

func (o Options) rules() (oldRules, newRules schema.Rules) {
	oldRules, newRules = o.Old, o.New
	if oldRules.Release == "" {
		oldRules = schema.Current
	}
	if newRules.Release == "" {
		newRules = schema.Current
	}
	return oldRules, newRules
}

// Report is the outcome of comparing two spec trees or two spec files.
type Report struct {
	// Pairs counts the old and new files paired by name; Compared those of
	// them whose two specs both loaded.
	Pairs, Compared int
	// Findings are every pair's findings, the load problems that kept a
	// pair from being compared, and notes for files without a partner,
	// sorted by file and position.
	Findings []Finding
}

// Violations counts the report's findings that are violations.
func (r *Report) Violations() int { return Violations(r.Findings) }

// Count counts the report's findings of one severity.
func (r *Report) Count(s Severity) int { return Count(r.Findings, s) }

// CompareFiles compares two spec files.
func CompareFiles(oldPath, newPath string, opts Options) (*Report, error) {
	r := &Report{}
	oldRules, newRules := opts.rules()
	if err := r.pair(oldPath, newPath, oldRules, newRules); err != nil {
		return nil, err
	}
	r.Findings = sortFindings(r.Findings)
	return r, nil
}

// CompareTrees compares two folders of spec files. Both are searched
// recursively for *.json files, which are paired by file name alone, so a
// flat folder (such as kafkagen's schemas/) can be checked against a Kafka
// checkout's tree of module folders. A file without a partner is only
// noted: specs come and go as APIs do. Two files of one tree with the same
// name cannot be paired and are reported.
func CompareTrees(oldRoot, newRoot string, opts Options) (*Report, error) {
	r := &Report{}
	oldFiles, err := r.specFiles(oldRoot)
	if err != nil {
		return nil, err
	}
	newFiles, err := r.specFiles(newRoot)
	if err != nil {
		return nil, err
	}
	oldRules, newRules := opts.rules()
	for _, name := range sortedKeys(oldFiles) {
		newPath, ok := newFiles[name]
		if !ok {
			r.unpaired(oldFiles[name], "only in the old tree: not compared")
			continue
		}
		if err := r.pair(oldFiles[name], newPath, oldRules, newRules); err != nil {
			return nil, err
		}
	}
	for _, name := range sortedKeys(newFiles) {
		if _, ok := oldFiles[name]; !ok {
			r.unpaired(newFiles[name], "only in the new tree: not compared")
		}
	}
	r.Findings = sortFindings(r.Findings)
	return r, nil
}

// specFiles maps the name of every *.json file under root to its path,
// leaving out (and reporting) names found more than once.
func (r *Report) specFiles(root string) (map[string]string, error) {
	files := map[string]string{}
	duplicate := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(d.Name(), ".json") {
			return nil
		}
		name := d.Name()
		if first, seen := files[name]; seen {
			r.Findings = append(r.Findings, Finding{
				Diagnostic: schema.Diagnostic{File: path, Line: 1, Col: 1,
					Text: "another " + name + " is at " + first + ": files are paired by name, so neither is compared"},
				Rule: RuleDuplicate,
			})
			duplicate[name] = true
			return nil
		}
		files[name] = path
		return nil
	})
	if err != nil {
		return nil, err
	}
	for name := range duplicate {
		delete(files, name)
	}
	return files, nil
}

// pair loads and compares one old file with one new file. Load problems
// become findings; only a file that cannot be read is an error.
func (r *Report) pair(oldPath, newPath string, oldRules, newRules schema.Rules) error {
	r.Pairs++
	oldSpec, oldOK, err := r.load(oldPath, oldRules)
	if err != nil {
		return err
	}
	newSpec, newOK, err := r.load(newPath, newRules)
	if err != nil {
		return err
	}
	if oldOK && newOK {
		r.Compared++
		early, err := earlyAccess(oldSpec, oldRules)
		if err != nil {
			return err
		}
		r.Findings = append(r.Findings, compare(oldSpec, newSpec, early)...)
	}
	return nil
}

func (r *Report) load(path string, rules schema.Rules) (*schema.Spec, bool, error) {
	spec, err := rules.LoadFile(path)
	var diags schema.Diagnostics
	switch {
	case err == nil:
		return spec, true, nil
	case errors.As(err, &diags):
		for _, d := range diags {
			d.Text = "cannot compare, the spec does not load (" + rules.Release + " rules): " + d.Text
			r.Findings = append(r.Findings, Finding{Diagnostic: d, Rule: RuleLoad})
		}
		return nil, false, nil
	}
	return nil, false, err
}

func (r *Report) unpaired(path, text string) {
	r.Findings = append(r.Findings, Finding{
		Diagnostic: schema.Diagnostic{File: path, Line: 1, Col: 1, Text: text},
		Rule:       RuleUnpaired,
		Severity:   Note,
	})
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
