package codec

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kafkagen/kafkagen/generator/schema"
)

func TestFastPaths(t *testing.T) {
	for _, tc := range []struct {
		name string
		typ  schema.SpecType
		want bool
	}{
		{"ProduceRequest", schema.TypeRequest, true},
		{"FetchResponse", schema.TypeResponse, true},
		{"ShareAcknowledgeRequest", schema.TypeRequest, true},
		{"ApiVersionsResponse", schema.TypeResponse, true},
		{"DescribeConfigsResponse", schema.TypeResponse, false},
		{"CreateTopicsRequest", schema.TypeRequest, false},
		{"AlterPartitionReassignmentsResponse", schema.TypeResponse, false},
		// A response named like a data-path request is not one.
		{"ProduceRequest", schema.TypeResponse, false},
		{"RequestHeader", schema.TypeHeader, true},
		{"PartitionRecord", schema.TypeMetadata, true},
		{"OffsetCommitKey", schema.TypeCoordinatorKey, true},
		{"LeaderChangeMessage", schema.TypeData, true},
	} {
		t.Run(tc.name+"/"+string(tc.typ), func(t *testing.T) {
			assert.Equal(t, tc.want, FastPaths(&schema.Spec{Name: tc.name, Type: tc.typ}))
		})
	}
}
