package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/wire"
)

// versionTable is what a broker serves and advertises: every version the
// generated package implements, or, with -kafka-release, what that Kafka
// release's broker does toward clients (docs/protocol.md, "Kafka 4 and old
// clients").
type versionTable struct {
	release string                 // "" for every version
	served  map[int16]versionRange // what requests may use; others close the connection
}

// newVersionTable is the table of release ("" for every version the
// package implements).
func newVersionTable(release string) (versionTable, error) {
	if release == "" {
		return versionTable{served: supported}, nil
	}
	rel, ok := releaseVersions[release]
	if !ok {
		return versionTable{}, fmt.Errorf("-kafka-release %q: not one of the generated release tables (%s); go generate reads them from KAFKA_SPEC_RELEASES_DIR", release, strings.Join(knownReleases(), ", "))
	}
	t := versionTable{release: release, served: map[int16]versionRange{}}
	for key, r := range supported {
		k, ok := rel[key]
		if !ok {
			continue
		}
		lo, hi := max(r.min, k.min), min(r.max, k.max)
		if lo > hi {
			continue
		}
		t.served[key] = versionRange{lo, hi}
	}
	return t, nil
}

// knownReleases lists the generated release tables.
func knownReleases() []string {
	out := make([]string, 0, len(releaseVersions))
	for r := range releaseVersions {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}

// advertised is the range ApiVersions lists for key. Kafka 4 lists Produce
// from v0 although it refuses v0-2 like any removed version (KAFKA-18659:
// librdkafka before 2.11.1 stops compressing when Produce v0 is missing).
func (t versionTable) advertised(key int16) (versionRange, bool) {
	r, ok := t.served[key]
	if ok && t.release != "" && key == kafkamsg.APIKeyProduce {
		r.min = 0
	}
	return r, ok
}

// ranges are the served versions as wire's request decoder limits them: a
// request at any other version closes the connection unanswered, as
// Kafka's SocketServer does with its UnsupportedVersionException.
func (t versionTable) ranges() []wire.VersionRange {
	out := make([]wire.VersionRange, 0, len(servedAPIs))
	for _, key := range servedAPIs {
		if r, ok := t.served[key]; ok {
			out = append(out, wire.VersionRange{APIKey: key, MinVersion: r.min, MaxVersion: r.max})
		}
	}
	return out
}
