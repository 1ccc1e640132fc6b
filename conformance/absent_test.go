//go:build corpus

package conformance

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/conformance/gen/clients"
	"github.com/kafkagen/kafkagen/runtime"
)

// TestCorpusAbsentFieldErrorNamesTheFix: writing a field at a version
// without it names the Go field, its versions and the field that replaces
// it there (generator/plan/replaced.go), after Java's text; the sentinel
// stays ErrNonDefault, and the replacement written instead encodes.
func TestCorpusAbsentFieldErrorNamesTheFix(t *testing.T) {
	cases := []struct {
		name    string
		version int16
		wrong   func() runtime.Message
		right   func() runtime.Message
		want    string
	}{
		{
			name: "OffsetFetchRequest.GroupID at v9", version: 9,
			wrong: func() runtime.Message {
				m := clients.NewOffsetFetchRequest()
				m.GroupID = "g"
				return m
			},
			right: func() runtime.Message {
				m := clients.NewOffsetFetchRequest()
				g := clients.NewOffsetFetchRequestGroup()
				g.GroupID = "g"
				m.Groups = append(m.Groups, *g)
				return m
			},
			want: "kafka encode OffsetFetchRequest.GroupId v9: non-default value in a field absent from this version: " +
				"attempted to write a non-default GroupId at version 9: GroupID has versions 0-7; from v8 see Groups",
		},
		{
			name: "FindCoordinatorRequest.Key at v6", version: 6,
			wrong: func() runtime.Message {
				m := clients.NewFindCoordinatorRequest()
				m.Key = "g"
				return m
			},
			right: func() runtime.Message {
				m := clients.NewFindCoordinatorRequest()
				m.CoordinatorKeys = []string{"g"}
				return m
			},
			want: "kafka encode FindCoordinatorRequest.Key v6: non-default value in a field absent from this version: " +
				"attempted to write a non-default Key at version 6: Key has versions 0-3; from v4 see CoordinatorKeys",
		},
		{
			name: "a field added later, with nothing before it", version: 0,
			wrong: func() runtime.Message {
				m := clients.NewFindCoordinatorRequest()
				m.KeyType = 1
				return m
			},
			right: func() runtime.Message { return clients.NewFindCoordinatorRequest() },
			want: "kafka encode FindCoordinatorRequest.KeyType v0: non-default value in a field absent from this version: " +
				"attempted to write a non-default KeyType at version 0: KeyType has versions 1+",
		},
		{
			// A struct literal leaves 0 where the spec's default is 1: the
			// error names the default New and Make set.
			name: "a struct literal's zero MaxNumOffsets at v10", version: 10,
			wrong: func() runtime.Message {
				m := clients.NewListOffsetsRequest()
				topic := clients.MakeListOffsetsRequestListOffsetsTopic()
				topic.Partitions = append(topic.Partitions, clients.ListOffsetsRequestListOffsetsPartition{PartitionIndex: 1})
				m.Topics = append(m.Topics, topic)
				return m
			},
			right: func() runtime.Message {
				m := clients.NewListOffsetsRequest()
				topic := clients.MakeListOffsetsRequestListOffsetsTopic()
				p := clients.MakeListOffsetsRequestListOffsetsPartition()
				p.PartitionIndex = 1
				topic.Partitions = append(topic.Partitions, p)
				m.Topics = append(m.Topics, topic)
				return m
			},
			want: "kafka encode ListOffsetsRequest.Topics[0].Partitions[0].MaxNumOffsets v10: non-default value in a field absent from this version: " +
				"attempted to write a non-default MaxNumOffsets at version 10: MaxNumOffsets has versions 0; New and Make set its default, 1",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.wrong().AppendTo(nil, c.version)
			require.ErrorIs(t, err, runtime.ErrNonDefault)
			assert.EqualError(t, err, c.want)
			_, err = c.right().AppendTo(nil, c.version)
			assert.NoError(t, err)
		})
	}
}
