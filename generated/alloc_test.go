package generated_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/runtime"
)

// allocCases are populated messages with nested arrays, strings, nullable
// and tagged fields, and unknown tags.
func allocCases() []struct {
	name    string
	msg     runtime.Message
	fresh   func() runtime.Message
	version int16
} {
	mirrors := generated.NewDescribeMirrorsResponse()
	mirrors.ErrorMessage = runtime.NewNullString("partly failed")
	for m := 0; m < 3; m++ {
		mirror := generated.DescribeMirrorsResponseDescribedMirror{MirrorName: fmt.Sprintf("mirror-%d", m)}
		for t := 0; t < 4; t++ {
			topic := generated.DescribeMirrorsResponseTopicPartitions{TopicName: fmt.Sprintf("topic-%d", t)}
			for p := 0; p < 5; p++ {
				topic.Partitions = append(topic.Partitions, generated.DescribeMirrorsResponsePartitionDetail{
					PartitionIndex: int32(p), SourceOffset: 100, DestinationOffset: 90, Lag: 10, State: "MIRRORING",
				})
			}
			mirror.Topics = append(mirror.Topics, topic)
		}
		mirrors.Mirrors = append(mirrors.Mirrors, mirror)
	}
	mirrors.UnknownTags = runtime.Tags{{Tag: 7, Data: []byte{1, 2, 3}}}

	change := generated.NewPartitionChangeRecord()
	change.PartitionID = 3
	change.Isr = []int32{1, 2, 3}
	change.Replicas = []int32{1, 2, 3, 4}
	change.Leader = 2
	change.IsUnclean = 1

	return []struct {
		name    string
		msg     runtime.Message
		fresh   func() runtime.Message
		version int16
	}{
		{"DescribeMirrorsResponse", mirrors, func() runtime.Message { return generated.NewDescribeMirrorsResponse() }, 0},
		{"PartitionChangeRecord", change, func() runtime.Message { return generated.NewPartitionChangeRecord() }, 0},
	}
}

// TestAllocations pins the allocation contracts: encoding into a buffer with
// room and decoding into a reused message allocate nothing.
func TestAllocations(t *testing.T) {
	for _, c := range allocCases() {
		t.Run(c.name, func(t *testing.T) {
			enc, err := c.msg.AppendTo(nil, c.version)
			require.NoError(t, err)
			buf := make([]byte, 0, len(enc))

			allocs := testing.AllocsPerRun(100, func() {
				buf, _ = c.msg.AppendTo(buf[:0], c.version)
			})
			require.Zero(t, allocs, "AppendTo into a buffer with room")

			allocs = testing.AllocsPerRun(100, func() {
				_, _ = c.msg.AppendTo(nil, c.version)
			})
			require.Equal(t, 1.0, allocs, "AppendTo into nil")

			reused := c.fresh()
			_, err = reused.Decode(enc, c.version)
			require.NoError(t, err)
			allocs = testing.AllocsPerRun(100, func() {
				_, _ = reused.Decode(enc, c.version)
			})
			require.Zero(t, allocs, "Decode into a reused message, same values")

			aliased := c.fresh()
			_, err = aliased.DecodeAliased(enc, c.version)
			require.NoError(t, err)
			allocs = testing.AllocsPerRun(100, func() {
				_, _ = aliased.DecodeAliased(enc, c.version)
			})
			require.Zero(t, allocs, "DecodeAliased into a reused message")

			again, err := aliased.AppendTo(nil, c.version)
			require.NoError(t, err)
			require.Equal(t, enc, again)
		})
	}
}
