package kgoclient

import (
	"context"
	"fmt"

	"github.com/kafkagen/kafkagen/interop/internal/scenario"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kversion"
)

// pinned is a Kafka release franz-go is told to speak (kgo.MaxVersions)
// and the codec it produces with there, so that older versions of every
// request the scenario sends cross the wire too.
type pinned struct {
	release  string
	versions func() *kversion.Versions
	codec    string
}

var pinnedReleases = []pinned{
	{"0.11", kversion.V0_11_0, "gzip"},
	{"1.1", kversion.V1_1_0, "snappy"},
	{"2.4", kversion.V2_4_0, "zstd"},
	{"3.0", kversion.V3_0_0, "lz4"},
}

// pinnedSteps produces and consumes at each pinned release.
func (c client) pinnedSteps() []scenario.Step {
	var steps []scenario.Step
	for _, p := range pinnedReleases {
		step := "v" + p.release + "-" + p.codec
		steps = append(steps, scenario.Step{Name: step, Run: func(ctx context.Context) (string, error) {
			detail, err := c.produceConsumeAt(ctx, step, kgo.LeaderAck(), compression(p.codec), kgo.MaxVersions(p.versions()))
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("%s, at Kafka %s's versions", detail, p.release), nil
		}})
	}
	return steps
}
