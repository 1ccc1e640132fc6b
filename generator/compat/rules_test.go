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
	removals   counts // versions the new spec no longer has
	early      counts // changes at early-access versions
}{
	{"clean", nil, counts{RuleStructRenamed: 1}, counts{RuleValidVersions: 1}, nil},
	{"name", counts{RuleName: 1}, nil, nil, nil},
	{"type", counts{RuleType: 1}, nil, nil, nil},
	{"api-key", counts{RuleAPIKey: 1}, nil, nil, nil},
	{"valid-versions", counts{RuleValidVersions: 4}, nil, counts{RuleValidVersions: 1}, nil},
	{"unstable", nil, nil, nil, counts{RuleFieldType: 1, RuleValidVersions: 1}},
	{"flexible-versions", counts{RuleFlexibleVersions: 2}, nil, nil, nil},
	{"field-type", counts{RuleFieldType: 2}, counts{RuleFieldType: 1}, nil, nil},
	{"field-versions", counts{RuleFieldVersions: 3}, nil, nil, nil},
	{"field-added", counts{RuleFieldAdded: 1}, nil, nil, nil},
	{"field-removed", counts{RuleFieldRemoved: 2}, nil, counts{RuleValidVersions: 1}, nil},
	{"field-renamed", counts{RuleFieldRenamed: 2}, nil, nil, nil},
	{"field-order", counts{RuleFieldOrder: 1}, nil, nil, nil},
	{"nullable", counts{RuleNullable: 2}, nil, nil, nil},
	{"tagged", counts{RuleTagged: 2}, nil, nil, nil},
	{"tag", counts{RuleTag: 1, RuleTagReused: 1}, nil, nil, nil},
	{"tag-reused", counts{RuleFieldRemoved: 1, RuleTagReused: 1}, nil, nil, nil},
	{"ignorable", counts{RuleIgnorable: 1}, counts{RuleIgnorable: 1}, nil, nil},
	{"default", counts{RuleDefault: 2}, counts{RuleDefault: 1}, nil, nil},
	{"field-flexible", counts{RuleFieldFlexible: 1}, nil, nil, nil},
	{"nested", counts{RuleFieldType: 1, RuleNullable: 1}, nil, nil, nil},
	{"load", counts{RuleLoad: 1}, nil, nil, nil},
	{"unpaired", nil, counts{RuleUnpaired: 2}, nil, nil},
	{"duplicate", counts{RuleDuplicate: 1}, counts{RuleUnpaired: 1}, nil, nil},
	{"removed", nil, nil, counts{RuleRemoved: 1}, nil},
	// GroupKey and GroupValue retyped as Kafka 4.1 did; MemberKey's type 5
	// keeps GroupId but changes MemberId; TopicKey names record type 8,
	// which the old key (version 7) never was.
	{"coordinator", counts{RuleCoordinator: 1, RuleFieldType: 1}, counts{RuleCoordinator: 4}, nil, nil},
	// A request marked latestVersionUnstable, its response, and a record
	// whose comment says it may change: each changed its only version.
	{"early-access", nil, nil, nil, counts{RuleValidVersions: 2, RuleFieldType: 1}},
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

// tally counts findings by severity and rule.
func tally(fs []Finding) map[Severity]counts {
	out := map[Severity]counts{Violation: {}, Removal: {}, EarlyAccess: {}, Note: {}}
	for _, f := range fs {
		out[f.Severity][f.Rule]++
	}
	return out
}

func TestRuleCases(t *testing.T) {
	for _, tc := range ruleCases {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(casesDir, tc.name)
			report, err := CompareTrees(filepath.Join(dir, "old"), filepath.Join(dir, "new"), Options{})
			require.NoError(t, err)
			got := tally(report.Findings)
			assert.Equal(t, nonNil(tc.violations), got[Violation], "violations by rule")
			assert.Equal(t, nonNil(tc.removals), got[Removal], "removals by rule")
			assert.Equal(t, nonNil(tc.early), got[EarlyAccess], "early-access changes by rule")
			assert.Equal(t, nonNil(tc.notes), got[Note], "notes by rule")
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
		for _, c := range []counts{tc.notes, tc.removals, tc.early} {
			for r := range c {
				covered[r] = true
			}
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
