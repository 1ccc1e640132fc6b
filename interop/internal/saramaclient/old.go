package saramaclient

import (
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
