package compat

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/internal/corpus"
)

func specDir(t *testing.T) string {
	t.Helper()
	if !corpus.Available() {
		t.Skipf("Kafka spec corpus not found at %s: set KAFKA_SPEC_DIR to a Kafka checkout's spec tree", corpus.SpecDir())
	}
	return corpus.SpecDir()
}

// releasesDir is KAFKA_SPEC_RELEASES_DIR, or kafka-spec-releases beside the
// corpus: one folder per Kafka release holding its spec folders.
func releasesDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("KAFKA_SPEC_RELEASES_DIR")
	if dir == "" {
		dir = filepath.Join(filepath.Dir(corpus.SpecDir()), "kafka-spec-releases")
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Skipf("Kafka release spec folders not found at %s: set KAFKA_SPEC_RELEASES_DIR", dir)
	}
	return dir
}

// Every spec of the corpus compared with itself: nothing to report, not
// even a note. (Kafka's checker fails 159 of these 258.)
func TestCorpusComparesWithItself(t *testing.T) {
	dir := specDir(t)
	report, err := CompareTrees(dir, dir, Options{})
	require.NoError(t, err)
	require.Positive(t, report.Pairs)
	assert.Equal(t, report.Pairs, report.Compared, "every corpus spec loads")
	for _, f := range report.Findings {
		t.Errorf("%s", f)
	}
	t.Logf("%d specs compared with themselves: %d findings", report.Compared, len(report.Findings))
}

// tree is one spec tree of the corpus and the rules to load it with.
type tree struct {
	name  string // "4.0", "2.8.0"
	path  string
	rules schema.Rules
}

func corpusTrees(t *testing.T) []tree {
	releases := releasesDir(t)
	trees := []tree{{"4.0", specDir(t), schema.Current}}
	for _, r := range []string{"2.8.0", "2.4.0", "2.2.0"} {
		trees = append(trees, tree{r, filepath.Join(releases, r), schema.Release2x})
	}
	return trees
}

// TestCorpusReleasePairs compares every ordered pair of the four spec trees
// (4.0 and the 2.x releases, each with itself, older against newer and
// newer against older): every pair of files sharing a name loads and
// compares, and the checks stay bounded on inputs nobody designed (newer
// specs read as the old side remove fields, drop maxima, rename...). The
// per-rule counts of each direction are pinned in releases.golden.
func TestCorpusReleasePairs(t *testing.T) {
	trees := corpusTrees(t)
	var summary strings.Builder
	pairs := 0
	start := time.Now()
	for _, o := range trees {
		for _, n := range trees {
			report, err := CompareTrees(o.path, n.path, Options{Old: o.rules, New: n.rules})
			require.NoError(t, err)
			require.Positive(t, report.Pairs)
			assert.Equal(t, report.Pairs, report.Compared, "%s against %s: every pair loads", o.name, n.name)
			if o.name == n.name {
				assert.Zero(t, len(report.Findings), "%s compared with itself", o.name)
			}
			pairs += report.Pairs
			fmt.Fprintf(&summary, "%s -> %s: %d pairs, %d violations%s", o.name, n.name, report.Pairs, report.Violations(), byRule(report.Findings, Violation))
			if n := report.Count(Removal); n > 0 {
				fmt.Fprintf(&summary, ", %d removals%s", n, byRule(report.Findings, Removal))
			}
			summary.WriteByte('\n')
		}
	}
	elapsed := time.Since(start)
	t.Logf("%d spec pairs over %d tree pairs compared in %v", pairs, len(trees)*len(trees), elapsed.Round(time.Millisecond))
	checkGolden(t, filepath.Join(casesDir, "releases.golden"), summary.String())
}

// byRule renders the counts of one severity by rule: " (field-added 3, tag 1)".
func byRule(fs []Finding, s Severity) string {
	n := map[Rule]int{}
	for _, f := range fs {
		if f.Severity == s {
			n[f.Rule]++
		}
	}
	if len(n) == 0 {
		return ""
	}
	parts := make([]string, 0, len(n))
	for r, c := range n {
		parts = append(parts, fmt.Sprintf("%s %d", r, c))
	}
	sort.Strings(parts)
	return " (" + strings.Join(parts, ", ") + ")"
}

// TestCorpusHistory pins the findings of each release against the next
// one: the real evolution of Kafka's specs from 2.2 to 4.0, in
// history.golden, paths under each tree's name.
func TestCorpusHistory(t *testing.T) {
	trees := corpusTrees(t)
	// Oldest first: 2.2.0, 2.4.0, 2.8.0, 4.0.
	chain := []tree{trees[3], trees[2], trees[1], trees[0]}
	var out strings.Builder
	for i := 0; i+1 < len(chain); i++ {
		o, n := chain[i], chain[i+1]
		report, err := CompareTrees(o.path, n.path, Options{Old: o.rules, New: n.rules})
		require.NoError(t, err)
		var violations []Finding
		for _, f := range report.Findings {
			if f.Severity != Note {
				violations = append(violations, f)
			}
		}
		fmt.Fprintf(&out, "## %s -> %s: %d pairs, %d violations\n", o.name, n.name, report.Pairs, len(violations))
		out.WriteString(renderLabelled(violations, map[string]string{o.path: o.name, n.path: n.name}))
	}
	checkGolden(t, filepath.Join(casesDir, "history.golden"), out.String())
}

// renderLabelled lists findings one a line, each path shown relative to
// its tree's root under the tree's label ("2.8.0/clients/..."), so the
// golden files do not depend on where the corpora are.
func renderLabelled(fs []Finding, labels map[string]string) string {
	var b strings.Builder
	for _, f := range fs {
		for root, label := range labels {
			if rel, err := filepath.Rel(root, f.File); err == nil && !strings.HasPrefix(rel, "..") {
				f.File = label + "/" + filepath.ToSlash(rel)
				break
			}
		}
		b.WriteString(f.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// TestSeedDrafts compares the project's schemas/ (written from the seed
// documents: KIP drafts and early designs) with today's Kafka specs. Their
// differences are real history, pinned in seeds.golden; the best-known
// ones are also asserted here by hand.
func TestSeedDrafts(t *testing.T) {
	dir := specDir(t)
	schemas := filepath.Join(corpus.ModuleRoot(), "schemas")
	report, err := CompareTrees(schemas, dir, Options{})
	require.NoError(t, err)
	assert.Equal(t, report.Pairs, report.Compared)
	var violations []Finding
	for _, f := range report.Findings {
		if f.Severity != Note {
			violations = append(violations, f)
		}
	}
	text := renderLabelled(violations, map[string]string{schemas: "schemas", dir: "kafka-spec"})
	for _, want := range []string{
		"BrokerHeartbeatRequest: apiKey changed from 50 to 63",
		"BrokerHeartbeatResponse: apiKey changed from 50 to 63",
		"PartitionChangeRecord.LeaderRecoveryState: renamed from IsUnclean (same tag 5, type int8)",
	} {
		assert.Contains(t, text, want)
	}
	t.Logf("schemas/ against the corpus: %d pairs, %d violations", report.Pairs, len(violations))
	checkGolden(t, filepath.Join(casesDir, "seeds.golden"), text)
}

// TestConnectionSpecs: the specs schemas/ writes for wire's own use (the
// headers, ApiVersions, SaslHandshake, SaslAuthenticate) describe the same
// bytes as Kafka's, in both directions: no violation and no note.
func TestConnectionSpecs(t *testing.T) {
	dir := filepath.Join(specDir(t), "clients", "src", "main", "resources", "common", "message")
	schemas := filepath.Join(corpus.ModuleRoot(), "schemas")
	for _, name := range []string{
		"RequestHeader", "ResponseHeader", "ApiVersionsRequest", "ApiVersionsResponse",
		"SaslHandshakeRequest", "SaslHandshakeResponse", "SaslAuthenticateRequest", "SaslAuthenticateResponse",
	} {
		ours, kafkas := filepath.Join(schemas, name+".json"), filepath.Join(dir, name+".json")
		for _, pair := range [][2]string{{ours, kafkas}, {kafkas, ours}} {
			report, err := CompareFiles(pair[0], pair[1], Options{})
			require.NoError(t, err, name)
			assert.Equal(t, 1, report.Compared, name)
			for _, f := range report.Findings {
				t.Errorf("%s: %s", name, f)
			}
		}
	}
}
