package compat

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden findings under testdata/compat")

// casesDir holds one folder per rule: old/ and new/ spec trees and
// findings.golden, the exact findings (notes included) of comparing them.
var casesDir = filepath.Join("..", "..", "testdata", "compat")

type counts map[Rule]int

// ruleCases are the hand-made pairs with the findings each must produce,
// counted by rule: written from the specs, not from the checker's output.
var ruleCases = []struct {
	name       string
	violations counts
	notes      counts
}{
	{"clean", nil, counts{RuleValidVersions: 1, RuleStructRenamed: 1}},
	{"name", counts{RuleName: 1}, nil},
	{"type", counts{RuleType: 1}, nil},
	{"api-key", counts{RuleAPIKey: 1}, nil},
	{"valid-versions", counts{RuleValidVersions: 4}, counts{RuleValidVersions: 1}},
	{"unstable", nil, nil},
	{"flexible-versions", counts{RuleFlexibleVersions: 2}, nil},
	{"field-type", counts{RuleFieldType: 2}, counts{RuleFieldType: 1}},
	{"field-versions", counts{RuleFieldVersions: 3}, nil},
	{"field-added", counts{RuleFieldAdded: 1}, nil},
	{"field-removed", counts{RuleFieldRemoved: 2}, counts{RuleValidVersions: 1}},
	{"field-renamed", counts{RuleFieldRenamed: 2}, nil},
	{"field-order", counts{RuleFieldOrder: 1}, nil},
	{"nullable", counts{RuleNullable: 2}, nil},
	{"tagged", counts{RuleTagged: 2}, nil},
	{"tag", counts{RuleTag: 1, RuleTagReused: 1}, nil},
	{"tag-reused", counts{RuleFieldRemoved: 1, RuleTagReused: 1}, nil},
	{"ignorable", counts{RuleIgnorable: 1}, counts{RuleIgnorable: 1}},
	{"default", counts{RuleDefault: 2}, counts{RuleDefault: 1}},
	{"field-flexible", counts{RuleFieldFlexible: 1}, nil},
	{"nested", counts{RuleFieldType: 1, RuleNullable: 1}, nil},
	{"load", counts{RuleLoad: 1}, nil},
	{"unpaired", nil, counts{RuleUnpaired: 2}},
	{"duplicate", counts{RuleDuplicate: 1}, counts{RuleUnpaired: 1}},
}

// checkGolden compares got with the golden file, or rewrites it with -update.
func checkGolden(t *testing.T, golden, got string) {
	t.Helper()
	if *update {
		require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err, "run go test -update to create it")
	assert.Equal(t, string(want), got)
}

// render lists findings one a line, paths relative to root.
func render(fs []Finding, root string) string {
	var b strings.Builder
	for _, f := range fs {
		rel, err := filepath.Rel(root, f.File)
		if err == nil {
			f.File = filepath.ToSlash(rel)
		}
		b.WriteString(f.String())
		b.WriteByte('\n')
	}
	return b.String()
}

func tally(fs []Finding) (violations, notes counts) {
	violations, notes = counts{}, counts{}
	for _, f := range fs {
		if f.Note {
			notes[f.Rule]++
		} else {
			violations[f.Rule]++
		}
	}
	return violations, notes
}

func TestRuleCases(t *testing.T) {
	for _, tc := range ruleCases {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(casesDir, tc.name)
			report, err := CompareTrees(filepath.Join(dir, "old"), filepath.Join(dir, "new"), Options{})
			require.NoError(t, err)
			violations, notes := tally(report.Findings)
			assert.Equal(t, nonNil(tc.violations), violations, "violations by rule")
			assert.Equal(t, nonNil(tc.notes), notes, "notes by rule")
			assert.Equal(t, report.Violations(), sum(tc.violations))
			for _, f := range report.Findings {
				assert.Positive(t, f.Line, f.String())
				assert.Positive(t, f.Col, f.String())
				assert.NotEmpty(t, f.Text, f.String())
			}
			checkGolden(t, filepath.Join(dir, "findings.golden"), render(report.Findings, dir))
		})
	}
}

func nonNil(c counts) counts {
	if c == nil {
		return counts{}
	}
	return c
}

func sum(c counts) int {
	n := 0
	for _, v := range c {
		n += v
	}
	return n
}

// Every case folder is in the table, and every rule has a case.
func TestRuleCasesComplete(t *testing.T) {
	entries, err := os.ReadDir(casesDir)
	require.NoError(t, err)
	inTable := map[string]bool{}
	covered := map[Rule]bool{}
	for _, tc := range ruleCases {
		inTable[tc.name] = true
		for r := range tc.violations {
			covered[r] = true
		}
		for r := range tc.notes {
			covered[r] = true
		}
	}
	for _, e := range entries {
		if e.IsDir() {
			assert.True(t, inTable[e.Name()], "testdata/compat/%s has no entry in ruleCases", e.Name())
		}
	}
	for _, r := range allRules {
		assert.True(t, covered[r], "rule %s has no hand-made case", r)
	}
}

// A spec compared with itself gives nothing, case by case, both sides.
func TestRuleCasesSelf(t *testing.T) {
	for _, tc := range ruleCases {
		for _, side := range []string{"old", "new"} {
			dir := filepath.Join(casesDir, tc.name, side)
			report, err := CompareTrees(dir, dir, Options{})
			require.NoError(t, err)
			for _, f := range report.Findings {
				if f.Rule != RuleLoad && f.Rule != RuleDuplicate {
					t.Errorf("%s/%s compared with itself: %s", tc.name, side, f)
				}
			}
		}
	}
}
