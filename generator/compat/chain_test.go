package compat

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// releaseChain is the Kafka releases whose whole spec trees (clients,
// metadata, the coordinators, raft, storage, streams) are compared, each
// with the next, oldest first. All load under the default rules.
var releaseChain = []string{"3.9.1", "4.0.0", "4.1.1", "4.2.0-rc1"}

// TestReleaseChain compares each release of releaseChain with the next and
// pins every finding, notes included, in chain.golden (go test -update
// rewrites it), with a count by severity per step: a change to the checker
// or to how a release loads shows as a changed line. The best-known facts
// of these releases are also asserted by hand, from their specs' comments
// and Kafka's upgrade notes (KIP-896 removed Produce 0-2 and Fetch 0-3 and
// four inter-broker APIs in 4.0; 4.1 made KIP-932's share group APIs
// stable at version 1, dropping the early-access version 0).
func TestReleaseChain(t *testing.T) {
	root := releasesDir(t)
	for _, r := range releaseChain {
		if st, err := os.Stat(filepath.Join(root, r)); err != nil || !st.IsDir() {
			t.Skipf("release %s not found under %s: the chain needs %s", r, root, strings.Join(releaseChain, ", "))
		}
	}
	var golden strings.Builder
	texts := map[string]string{}
	start := time.Now()
	for i := 0; i+1 < len(releaseChain); i++ {
		o, n := releaseChain[i], releaseChain[i+1]
		oldRoot, newRoot := filepath.Join(root, o), filepath.Join(root, n)
		report, err := CompareTrees(oldRoot, newRoot, Options{})
		require.NoError(t, err)
		assert.Equal(t, report.Pairs, report.Compared, "%s -> %s: every pair loads", o, n)
		summary := fmt.Sprintf("%s -> %s: %d pairs, %d violations, %d removals, %d early-access changes, %d notes",
			o, n, report.Pairs, report.Violations(), report.Count(Removal), report.Count(EarlyAccess), report.Count(Note))
		t.Log("compat: " + summary)
		text := renderLabelled(report.Findings, map[string]string{oldRoot: o, newRoot: n})
		texts[o+" -> "+n] = text
		fmt.Fprintf(&golden, "## %s\n%s", summary, text)
	}
	t.Logf("compat: %d steps compared in %v", len(releaseChain)-1, time.Since(start).Round(time.Millisecond))

	message := "/clients/src/main/resources/common/message/"
	for step, wants := range map[string][]string{
		"3.9.1 -> 4.0.0": {
			"4.0.0" + message + "ProduceRequest.json:16:1: ProduceRequest: removed: validVersions changed from 0-11 to 3-12: versions 0-2 removed",
			"4.0.0" + message + "FetchRequest.json:16:1: FetchRequest: removed: validVersions changed from 0-17 to 4-17: versions 0-3 removed",
			"4.0.0" + message + "LeaderAndIsrRequest.json:16:1: LeaderAndIsrRequest: removed: the API is removed (validVersions changed from 0-7 to none)",
			"4.0.0" + message + "ControlledShutdownRequest.json:16:1: ControlledShutdownRequest: removed: the API is removed",
		},
		"4.0.0 -> 4.1.1": {
			"4.1.1" + message + "ShareFetchRequest.json:16:1: ShareFetchRequest: early access: validVersions changed from 0 to 1: early-access version 0 dropped",
			"4.1.1" + message + "ShareFetchResponse.json:16:1: ShareFetchResponse: early access: validVersions changed from 0 to 1: early-access version 0 dropped",
			"ConsumerGroupMetadataKey: note: type changed from data to coordinator-key of record type 3",
		},
	} {
		for _, want := range wants {
			assert.Contains(t, texts[step], want, step)
		}
	}
	assert.NotContains(t, texts["3.9.1 -> 4.0.0"], "ProduceRequest.json:16:1: ProduceRequest: validVersions", "a removal is not a violation")
	assert.NotContains(t, texts["4.0.0 -> 4.1.1"], ": apiKey changed", "retyped coordinator records keep their bytes")
	checkGolden(t, filepath.Join(casesDir, "chain.golden"), golden.String())
}
