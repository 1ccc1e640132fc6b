package generated_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/runtime"
)

// TestFixedElementFastPath pins the fast path of array elements made of
// fixed-width fields only (one bounds check when the tag section is empty)
// against the general path it falls back to: elements with and without
// unknown tags in one array, decoded fresh and into a message whose
// elements held tags before, and every truncation failing cleanly.
func TestFixedElementFastPath(t *testing.T) {
	withTag := runtime.Tags{{Tag: 7, Data: []byte("x")}}
	msg := generated.NewLastMirroredEpochsRequest()
	msg.MirrorName = "mirror"
	msg.Topics = []generated.LastMirroredEpochsRequestTopicData{{
		Name: "topic",
		Partitions: []generated.LastMirroredEpochsRequestPartitionData{
			{PartitionIndex: 1},
			{PartitionIndex: 2, UnknownTags: withTag},
			{PartitionIndex: 3},
		},
	}}
	wire, err := msg.AppendTo(nil, 0)
	require.NoError(t, err)

	// The same elements with tags and without them swapped: decoding the
	// wire into it must clear the tags the fast path skips.
	used := generated.NewLastMirroredEpochsRequest()
	used.Topics = []generated.LastMirroredEpochsRequestTopicData{{
		Partitions: []generated.LastMirroredEpochsRequestPartitionData{
			{PartitionIndex: 9, UnknownTags: withTag},
			{PartitionIndex: 9},
			{PartitionIndex: 9, UnknownTags: withTag},
		},
	}}
	for name, into := range map[string]*generated.LastMirroredEpochsRequest{"fresh": generated.NewLastMirroredEpochsRequest(), "used": used} {
		n, err := into.Decode(wire, 0)
		require.NoError(t, err, name)
		require.Equal(t, len(wire), n, name)
		got := into.Topics[0].Partitions
		require.Len(t, got, 3, name)
		for i, want := range msg.Topics[0].Partitions {
			require.Equal(t, want.PartitionIndex, got[i].PartitionIndex, "%s: partition %d", name, i)
			require.Len(t, got[i].UnknownTags, len(want.UnknownTags), "%s: partition %d", name, i)
		}
		require.Equal(t, withTag, got[1].UnknownTags, name)
		again, err := into.AppendTo(nil, 0)
		require.NoError(t, err, name)
		require.Equal(t, wire, again, name)
	}

	for cut := range len(wire) {
		_, err := generated.NewLastMirroredEpochsRequest().Decode(wire[:cut:cut], 0)
		var decodeErr *runtime.Error
		require.ErrorAs(t, err, &decodeErr, "cut at %d", cut)
		require.Contains(t, []error{runtime.ErrShortBuffer, runtime.ErrInvalidLength}, decodeErr.Err, "cut at %d", cut)
	}
}
