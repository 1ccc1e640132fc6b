package kcatclient

import (
	"context"
	"fmt"

	"github.com/kafkagen/kafkagen/interop/internal/scenario"
)

// OldName is kcat speaking the Kafka 0.9 protocol, for the bridge runs:
// no ApiVersions request, Produce v1 and Fetch v1 with message sets of
// magic 0, which Kafka 4 no longer serves.
const OldName = "kcat-0.9"

// oldProtocol are the librdkafka settings of a Kafka 0.9 client; a
// producer whose requests are never answered gives up after 15 seconds.
var oldProtocol = []string{"-X", "api.version.request=false", "-X", "broker.version.fallback=0.9.0.1", "-X", "message.timeout.ms=15000"}

// OldSteps returns kcat's produce and read-back at the Kafka 0.9 protocol,
// with each codec message sets of magic 0 have (no zstd), against broker.
func OldSteps(broker string, n int) []scenario.Step {
	c := client{broker: broker, n: n}
	var steps []scenario.Step
	for _, codec := range []string{"none", "gzip", "snappy", "lz4"} {
		step := "v0.9-" + codec
		steps = append(steps, scenario.Step{Name: step, Run: func(ctx context.Context) (string, error) {
			return c.produceConsumeOld(ctx, step, codec)
		}})
	}
	return steps
}

// produceConsumeOld produces records without headers (magic 0 has none)
// and reads them back, both at the 0.9 protocol.
func (c client) produceConsumeOld(ctx context.Context, step, codec string) (string, error) {
	topic := scenario.ClientID(Name, step)
	want := scenario.Records(topic, c.n, false)
	var in []byte
	for _, r := range want {
		in = fmt.Appendf(in, "%s\t%s\n", r.Key, r.Value)
	}
	args := append([]string{"-P", "-t", topic, "-p", "0", "-K", "\t", "-X", "linger.ms=50", "-X", "compression.codec=" + codec}, oldProtocol...)
	if _, err := c.run(ctx, step, in, args...); err != nil {
		return "", err
	}
	got, err := c.consume(ctx, step+"-consumer", topic, oldProtocol...)
	if err != nil {
		return "", err
	}
	if err := scenario.Check(got, want, 0); err != nil {
		return "", err
	}
	return fmt.Sprintf("%d records produced (%s, Kafka 0.9 protocol) and read back from %s", len(want), codec, topic), nil
}

// ConsumeOld reads partition 0 of topic from the beginning at the Kafka
// 0.9 protocol (Fetch v1: message sets of magic 0), as client id
// kcat-<step>.
func ConsumeOld(ctx context.Context, broker, step, topic string) ([]scenario.Record, error) {
	return client{broker: broker}.consume(ctx, step, topic, oldProtocol...)
}
