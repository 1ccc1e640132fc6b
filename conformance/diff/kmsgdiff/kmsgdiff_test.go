package kmsgdiff

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/conformance/gen/clients"
	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/internal/corpus"
	"github.com/kafkagen/kafkagen/runtime"
)

// snapshotExclusions: kmsg writes non-default tagged fields too early (see
// taggedTooEarly), FetchRequest's before the snapshot's 15 and 17; and two
// layout differences that break both directions.
func snapshotExclusions() []*exclusion {
	return append(taggedTooEarly(),
		&exclusion{spec: "FetchRequest", lo: 12, hi: 16, dirs: kmsgToOurs, want: runtime.ErrInvalidTag,
			reason: "kmsg writes tagged ReplicaState (15+) / ReplicaDirectoryId (17+) in every flexible version"},
		&exclusion{spec: "StopReplicaRequest", lo: 4, hi: 4, dirs: both,
			reason: "kmsg orders ControllerEpoch before IsKRaftController (spec: ControllerId, IsKRaftController, ControllerEpoch)"},
		&exclusion{spec: "ReadShareGroupStateSummaryResponse", lo: 0, hi: 0, dirs: both,
			reason: "kmsg has a LeaderEpoch field that this snapshot's spec lacks"})
}

// snapshotKmsgOnlyTags: both were added by Kafka after the snapshot.
var snapshotKmsgOnlyTags = []kmsgOnlyTag{
	{"FetchRequest", "FetchPartition", 1, "HighWatermark (KIP-1166, Fetch v18)"},
	{"BrokerHeartbeatRequest", "", 1, "CordonedLogDirs (KIP-1066, BrokerHeartbeat v2)"},
}

// TestKmsgDifferential compares the corpus' client package (the 4.0
// snapshot) with kmsg for every request and response API key and every
// version both support, in both directions.
func TestKmsgDifferential(t *testing.T) {
	if !corpus.Available() {
		t.Skipf("SKIP: no Kafka spec corpus at %s (set KAFKA_SPEC_DIR)", corpus.SpecDir())
	}
	specs, err := schema.LoadDir(filepath.Join(corpus.SpecDir(), corpus.Dirs[0].Path))
	require.NoError(t, err)
	runDifferential(t, target{
		label: "kmsg", specs: specs, apis: 88,
		newRequest: clients.NewRequest, newResponse: clients.NewResponse,
		exclusions: snapshotExclusions(), kmsgOnly: snapshotKmsgOnlyTags,
	})
}
