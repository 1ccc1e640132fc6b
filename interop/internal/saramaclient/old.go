package saramaclient

import (
	"context"
	"fmt"
	"strings"

	"github.com/kafkagen/kafkagen/interop/internal/scenario"
)

// OldName is sarama at Versions 0.8.2 and 0.10.2 only, for the bridge runs.
const OldName = "sarama-old"

// OldSteps returns the steps of Steps at Versions 0.8.2 and 0.10.2:
// message sets v0 and v1, ListOffsets v0, and at 0.10.2 a group (JoinGroup
// v1, OffsetCommit v2, OffsetFetch v1).
func OldSteps(broker string, n int) []scenario.Step {
	var out []scenario.Step
	for _, s := range Steps(broker, n) {
		if strings.HasPrefix(s.Name, "v0.") {
			out = append(out, s)
		}
	}
	return out
}

// ConsumeOld reads the n records of partition 0 of topic from the oldest
// offset at Version label ("v0.8.2" or "v0.10.2": Fetch v0 with magic 0, or
// v3 with magic 1), as client id sarama-<step>. The records carry the
// timestamps sarama reports (NoTimestamp for magic 0).
func ConsumeOld(ctx context.Context, broker, label, step, topic string, n int) ([]scenario.Record, error) {
	for _, p := range protocols {
		if p.label == label+"-" {
			return consume(ctx, client{broker: broker}.config(p, step), broker, topic, n)
		}
	}
	return nil, fmt.Errorf("sarama has no old protocol %q (have v0.8.2, v0.10.2)", label)
}
