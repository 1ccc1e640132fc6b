package codec

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generator/plan"
	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/internal/corpus"
)

// Of the client specs, those off the data path get tables but for the ones
// using what the interpreters do not know. The list was made by hand from
// the printed package: the files whose decode reads known tagged fields
// (TagHeader) or nullable structs (StructMarker).
func TestTableDrivenClientSpecs(t *testing.T) {
	if !corpus.Available() {
		t.Skipf("SKIP: no Kafka spec corpus at %s (set KAFKA_SPEC_DIR)", corpus.SpecDir())
	}
	specs, err := schema.LoadDir(filepath.Join(corpus.SpecDir(), corpus.Dirs[0].Path))
	require.NoError(t, err)
	printedOffPath := []string{
		"BrokerHeartbeatRequest",          // known tagged fields
		"BeginQuorumEpochResponse",        // known tagged fields
		"CreateTopicsResponse",            // known tagged fields
		"DescribeTopicPartitionsRequest",  // a nullable struct (Cursor)
		"DescribeTopicPartitionsResponse", // a nullable struct (NextCursor)
		"EndQuorumEpochResponse",          // known tagged fields
		"FetchSnapshotRequest",            // known tagged fields
		"FetchSnapshotResponse",           // known tagged fields
		"UpdateMetadataRequest",           // known tagged fields
		"UpdateRaftVoterResponse",         // known tagged fields
		"VoteResponse",                    // known tagged fields
	}
	var tables, printed []string
	for _, s := range specs {
		m := plan.Build(s, plan.Options{})
		switch {
		case tableDriven(m):
			tables = append(tables, s.Name)
		case !FastPaths(s):
			printed = append(printed, s.Name)
		}
	}
	assert.ElementsMatch(t, printedOffPath, printed)
	assert.Len(t, tables, 123)
	assert.NotContains(t, tables, "ProduceRequest")
	assert.Contains(t, tables, "DescribeConfigsResponse")
}
