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
	return append(steps, scenario.Step{Name: "v0.9-group-gzip", Run: c.groupOld})
}

// groupOld produces gzip at the 0.9 protocol and reads back in a balanced
// consumer group at the same protocol (JoinGroup v0, OffsetCommit v2).
func (c client) groupOld(ctx context.Context) (string, error) {
	const step = "v0.9-group-gzip"
	topic := scenario.ClientID(Name, step)
	want := scenario.Records(topic, c.n, false)
	if err := c.produceOld(ctx, step+"-producer", topic, want, "gzip"); err != nil {
		return "", err
	}
	return c.groupRead(ctx, step, topic, want, oldProtocol...)
}

// produceConsumeOld produces records without headers (magic 0 has none)
// and reads them back, both at the 0.9 protocol.
func (c client) produceConsumeOld(ctx context.Context, step, codec string) (string, error) {
	topic := scenario.ClientID(Name, step)
	want := scenario.Records(topic, c.n, false)
	if err := c.produceOld(ctx, step, topic, want, codec); err != nil {
		return "", err
	}
	got, err := c.consume(ctx, step+"-consumer", topic, oldProtocol...)
	if err != nil {
		return "", err
	}
	if err := scenario.Check(got, want, 0); err != nil {
		return "", err
	}
	if err := scenario.CheckTimestamps(got, scenario.WithoutTimestamps(want)); err != nil {
		return "", fmt.Errorf("magic 0 has no timestamps: %w", err)
	}
	return fmt.Sprintf("%d records produced (%s, Kafka 0.9 protocol) and read back from %s, without timestamps", len(want), codec, topic), nil
}

// ConsumeOld reads partition 0 of topic from the beginning at the Kafka
// 0.9 protocol (Fetch v1: message sets of magic 0), as client id
// kcat-<step>.
func ConsumeOld(ctx context.Context, broker, step, topic string) ([]scenario.Record, error) {
	return client{broker: broker}.consume(ctx, step, topic, oldProtocol...)
}

// produceOld writes rs (without headers) to partition 0 of topic at the 0.9
// protocol, compressed with codec.
func (c client) produceOld(ctx context.Context, step, topic string, rs []scenario.Record, codec string) error {
	var in []byte
	for _, r := range rs {
		in = fmt.Appendf(in, "%s\t%s\n", r.Key, r.Value)
	}
	args := append([]string{"-P", "-t", topic, "-p", "0", "-K", "\t", "-X", "linger.ms=50", "-X", "compression.codec=" + codec}, oldProtocol...)
	_, err := c.run(ctx, step, in, args...)
	return err
}
