//go:build k411

package kmsgdiff

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/conformance/gen/k411clients"
	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/internal/corpus"
	"github.com/kafkagen/kafkagen/runtime"
)

// k411Exclusions are kmsg's departures from Kafka 4.1.1's Java classes, each
// seen in java-4.1.1-dev.jsonl as a message kmsg wrote and Java refused
// (docs/protocol.md, "Where franz-go's kmsg v1.15.1 differs from Java"):
// the tagged fields of taggedTooEarly, FetchRequest's three (4.1 gave
// FetchPartition tag 1 to HighWatermark from v18), and a null where 4.1.1
// has none.
func k411Exclusions() []*exclusion {
	return append(taggedTooEarly(),
		&exclusion{spec: "FetchRequest", lo: 12, hi: 17, dirs: kmsgToOurs, want: runtime.ErrInvalidTag,
			reason: "kmsg writes tagged ReplicaState (15+) / ReplicaDirectoryId (17+) / HighWatermark (18+) in every flexible version"},
		&exclusion{spec: "ShareFetchResponse", lo: 1, hi: 1, dirs: kmsgToOurs, want: runtime.ErrNull,
			reason: "kmsg writes an unset Records as null; 4.1.1 makes Records nullable only in v0, which it no longer has"})
}

// k411KmsgOnlyTags: added by Kafka after 4.1.
var k411KmsgOnlyTags = []kmsgOnlyTag{
	{"BrokerHeartbeatRequest", "", 1, "CordonedLogDirs (KIP-1066, BrokerHeartbeat v2)"},
}

// TestKmsgDifferential411 compares the package generated from Kafka
// 4.1.1's client folder with kmsg, which knows Kafka 4.1, for every request
// and response API key and every version both support, in both directions.
func TestKmsgDifferential411(t *testing.T) {
	dir := filepath.Join(corpus.ReleasesDir(), corpus.ReleaseDirs[0].Path)
	specs, err := schema.LoadDir(dir)
	require.NoError(t, err)
	runDifferential(t, target{
		label: "kmsg-4.1.1", specs: specs, apis: 93, removedAPIs: 4,
		newRequest: k411clients.NewRequest, newResponse: k411clients.NewResponse,
		exclusions: k411Exclusions(), kmsgOnly: k411KmsgOnlyTags,
	})
}
