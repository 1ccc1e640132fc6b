package main

// releaseRoundTrip is release_roundtrip.go, written into each release
// package: ReleaseRoundTrip, run by the matrix driver, checks that random
// canonical encodings (internal/wiregen) of every version of every spec,
// read under the release's rules, decode and re-encode byte for byte
// (internal/roundtrip). Then the current corpus's encodings of the same
// messages, at every version both know: a version's wire format does not
// change from one release to the next (fields added since as tagged fields
// arrive as unknown tags and are written back), except where Kafka changed
// a format in place, listed in changedInPlace with the reason, or where the
// two releases disagree on whether the version is flexible.
const releaseRoundTrip = `package %[1]s

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/internal/roundtrip"
	"github.com/kafkagen/kafkagen/internal/wiregen"
	"github.com/kafkagen/kafkagen/runtime"
)

const (
	release    = %[2]q
	specDir    = %[3]q
	currentDir = %[4]q // "" when the current corpus is absent
)

// changedInPlace are the messages whose encoding at a version both
// releases know differs, by release/name. Each must still differ.
var changedInPlace = map[string]string{
	"2.2.0/RequestHeader": "2.2's header spec calls v0 the header with a client id, which 2.4 renumbered v1 (v0 became ControlledShutdown v0's header, without it)",
	"2.8.0/LeaderChangeMessage": "a KRaft control record, early access in 2.8: 3.0 added Version at v0",
}

// earlyAccess are the specs of KIP-932 (share groups), early access until
// Kafka 4.1 made them stable: their version 0 changed in place between the
// 3.9 and 4.0 previews, the late-2024 trunk corpus and 4.1. Cross checks
// of these names against the current corpus are expected to fail somewhere
// and are only logged.
var earlyAccess = map[string]bool{
	"ReadShareGroupStateSummaryResponse": true, "ShareGroupMetadataValue": true,
	"ShareGroupPartitionMetadataValue": true, "ShareGroupStatePartitionMetadataValue": true,
	"ShareSnapshotValue": true, "ShareUpdateValue": true,
}

// ReleaseRoundTrip runs the round trips and returns the messages checked.
func ReleaseRoundTrip(t *testing.T) int {
	rules, err := schema.RulesFor(release)
	if err != nil {
		t.Fatal(err)
	}
	specs, err := rules.LoadDir(specDir)
	if err != nil {
		t.Fatal(err)
	}
	var own, ownPairs, cross, crossPairs, flexDiffer int
	for _, spec := range specs {
		n, pairs, _, bad := check(spec, false)
		own, ownPairs = own+n, ownPairs+pairs
		for _, e := range bad {
			t.Errorf("%%s (%%s specs): %%v", spec.Name, release, e)
		}
	}
	var current []*schema.Spec
	if currentDir != "" {
		if current, err = schema.LoadDir(currentDir); err != nil {
			t.Fatal(err)
		}
	}
	for _, spec := range current {
		n, pairs, differ, bad := check(spec, true)
		cross, crossPairs, flexDiffer = cross+n, crossPairs+pairs, flexDiffer+differ
		reason, excepted := changedInPlace[release+"/"+spec.Name]
		switch {
		case excepted && len(bad) == 0:
			t.Errorf("%%s no longer differs from the current specs: remove it from changedInPlace", spec.Name)
		case excepted:
			t.Logf("%%s differs as expected (%%s): %%v", spec.Name, reason, bad[0])
		case earlyAccess[spec.Name] && len(bad) > 0:
			t.Logf("%%s differs as expected (KIP-932 early access): %%v", spec.Name, bad[0])
		default:
			for _, e := range bad {
				t.Errorf("%%s (current specs): %%v", spec.Name, e)
			}
		}
	}
	t.Logf("release %%s %%s round trips: %%d specs, %%d own pairs, %%d messages; from the current specs %%d pairs, %%d messages (%%d pairs skipped: flexible in one release only)",
		release, "%[1]s", len(specs), ownPairs, own, crossPairs, cross, flexDiffer)
	return own + cross
}

// check round-trips samples of every version of spec that this package
// also supports. With cross, spec comes from another release, and versions
// that the two releases do not agree are flexible are skipped, counted in
// differ. It returns the first failure of each version.
func check(spec *schema.Spec, cross bool) (messages, pairs, differ int, bad []error) {
	newMsg := func() runtime.Message { return NewByName(spec.Name) }
	m, ok := newMsg().(runtime.Versioned)
	if !ok {
		return // not in this release
	}
	for _, v := range wiregen.Versions(spec) {
		if v < m.MinVersion() || v > m.MaxVersion() {
			continue
		}
		if cross && spec.FlexibleVersions.Contains(v) != m.IsFlexible(v) {
			differ++
			continue
		}
		pairs++
		rng := rand.New(rand.NewPCG(uint64(v), uint64(len(spec.Name))))
		for i := 0; i < 8; i++ {
			// Across releases, no unknown tags: a newer release may give
			// an unused tag a meaning at later versions only, and then
			// refuses it at the earlier ones, as Java's reader does
			// (FetchRequest's tag 1 in a partition, HighWatermark from v18
			// in 4.1).
			opts := wiregen.Options{UnknownTags: i%%2 == 1 && !cross, MaxArray: 1 + i%%3}
			src := wiregen.Encode(spec, v, rng, opts)
			if err := roundtrip.Check(newMsg, nil, src, v); err != nil {
				bad = append(bad, fmt.Errorf("v%%d sample %%d: %%w", v, i, err))
				break
			}
			messages++
		}
	}
	return messages, pairs, differ, bad
}
`
