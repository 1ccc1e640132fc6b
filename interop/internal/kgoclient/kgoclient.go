// Package kgoclient runs the interop scenarios with franz-go's kgo client:
// every compression codec, acks 0, 1 and all, a consumer group that commits,
// the idempotent producer, and a transaction committed and one aborted read
// by a read_committed consumer.
package kgoclient

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/kafkagen/kafkagen/interop/internal/scenario"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Name is the client's name in the harness, the captures and the client ids.
const Name = "franz-go"

// client runs the steps against one broker.
type client struct {
	broker string
	n      int
	sec    scenario.Security // plaintext unless SecureSteps set it
}

// Steps returns the scenarios, n records each, against broker (host:port).
func Steps(broker string, n int) []scenario.Step {
	c := client{broker: broker, n: n}
	steps := scenario.CodecSteps(func(ctx context.Context, codec string) (string, error) {
		return c.produceConsumeAt(ctx, codec, kgo.LeaderAck(), compression(codec))
	})
	steps = append(steps, c.pinnedSteps()...)
	return append(steps,
		scenario.Step{Name: "acks0", Run: func(ctx context.Context) (string, error) {
			return c.produceConsumeAt(ctx, "acks0", kgo.NoAck(), kgo.NoCompression())
		}},
		scenario.Step{Name: "idempotent", Run: c.idempotent},
		scenario.Step{Name: "group", Run: c.group},
		scenario.Step{Name: "txn", Run: c.transactions},
		scenario.Step{Name: "eos", Run: c.groupTransact},
		scenario.Step{Name: "delete-topic", Run: c.deleteTopic},
	)
}

func compression(codec string) kgo.CompressionCodec {
	switch codec {
	case "gzip":
		return kgo.GzipCompression()
	case "snappy":
		return kgo.SnappyCompression()
	case "lz4":
		return kgo.Lz4Compression()
	case "zstd":
		return kgo.ZstdCompression()
	}
	return kgo.NoCompression()
}

// newClient opens a kgo client for one step; its client id names the step.
func (c client) newClient(step string, opts ...kgo.Opt) (*kgo.Client, error) {
	base := []kgo.Opt{
		kgo.SeedBrokers(c.broker),
		kgo.ClientID(scenario.ClientID(Name, step)),
		kgo.RecordPartitioner(kgo.ManualPartitioner()),
		kgo.RetryTimeout(20 * time.Second),
		kgo.FetchMaxWait(200 * time.Millisecond),
	}
	secure, err := securityOpts(c.sec)
	if err != nil {
		return nil, err
	}
	return kgo.NewClient(append(append(base, secure...), opts...)...)
}

// clientWithTopics opens a client for step (newClient) and creates topics
// with it; the caller closes the client.
func (c client) clientWithTopics(ctx context.Context, step string, topics []string, opts ...kgo.Opt) (*kgo.Client, error) {
	cl, err := c.newClient(step, opts...)
	if err != nil {
		return nil, err
	}
	for _, topic := range topics {
		if err := createTopic(ctx, cl, topic); err != nil {
			cl.Close()
			return nil, err
		}
	}
	return cl, nil
}

// produceConsumeAt creates a topic, produces the records in one batch and
// reads them back from offset 0; extra options go to both clients.
func (c client) produceConsumeAt(ctx context.Context, step string, acks kgo.Acks, codec kgo.CompressionCodec, extra ...kgo.Opt) (string, error) {
	topic := scenario.ClientID(Name, step)
	cl, err := c.clientWithTopics(ctx, step, []string{topic}, append([]kgo.Opt{kgo.RequiredAcks(acks), kgo.DisableIdempotentWrite(),
		kgo.ProducerBatchCompression(codec), kgo.ProducerLinger(50 * time.Millisecond)}, extra...)...)
	if err != nil {
		return "", err
	}
	defer cl.Close()
	want := scenario.Records(topic, c.n, true)
	if err := produce(ctx, cl, topic, want); err != nil {
		return "", err
	}
	got, err := c.consume(ctx, step, topic, c.n, kgo.ReadUncommitted(), extra...)
	if err != nil {
		return "", err
	}
	if err := scenario.Check(got, want, 0); err != nil {
		return "", err
	}
	return fmt.Sprintf("%d records produced and read back from %s", len(want), topic), nil
}

// idempotent produces with kgo's default producer (idempotent, acks all) in
// two rounds, so the second round carries sequence numbers after the first.
func (c client) idempotent(ctx context.Context) (string, error) {
	const step = "idempotent"
	topic := scenario.ClientID(Name, step)
	cl, err := c.clientWithTopics(ctx, step, []string{topic})
	if err != nil {
		return "", err
	}
	defer cl.Close()
	want := scenario.Records(topic, c.n, true)
	half := len(want) / 2
	for _, part := range [][]scenario.Record{want[:half], want[half:]} {
		if err := produce(ctx, cl, topic, part); err != nil {
			return "", err
		}
	}
	got, err := c.consume(ctx, step, topic, len(want), kgo.ReadUncommitted())
	if err != nil {
		return "", err
	}
	if err := scenario.Check(got, want, 0); err != nil {
		return "", err
	}
	return fmt.Sprintf("%d records in two idempotent rounds read back", len(want)), nil
}

// produce sends records to partition 0 of topic and waits for every ack.
func produce(ctx context.Context, cl *kgo.Client, topic string, records []scenario.Record) error {
	rs := make([]*kgo.Record, len(records))
	for i, r := range records {
		kr := &kgo.Record{Topic: topic, Partition: 0, Key: r.Key, Value: r.Value}
		for _, h := range r.Headers {
			kr.Headers = append(kr.Headers, kgo.RecordHeader{Key: h.Key, Value: h.Value})
		}
		rs[i] = kr
	}
	if err := cl.ProduceSync(ctx, rs...).FirstErr(); err != nil {
		return fmt.Errorf("produce to %s: %w", topic, err)
	}
	return nil
}

// consume reads n records of partition 0 of topic from its start, with its
// own client.
func (c client) consume(ctx context.Context, step, topic string, n int, isolation kgo.IsolationLevel, extra ...kgo.Opt) ([]scenario.Record, error) {
	cl, err := c.newClient(step+"-consumer", append([]kgo.Opt{
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: {0: kgo.NewOffset().AtStart()}}),
		kgo.FetchIsolationLevel(isolation)}, extra...)...)
	if err != nil {
		return nil, err
	}
	defer cl.Close()
	return poll(ctx, cl, topic, n)
}

// poll collects records until it has n of them.
func poll(ctx context.Context, cl *kgo.Client, topic string, n int) ([]scenario.Record, error) {
	var got []scenario.Record
	for len(got) < n {
		fetches := cl.PollFetches(ctx)
		if err := ctx.Err(); err != nil {
			return got, fmt.Errorf("consume %s: %d of %d records before %w", topic, len(got), n, err)
		}
		for _, fe := range fetches.Errors() {
			return got, fmt.Errorf("consume %s partition %d: %w", fe.Topic, fe.Partition, fe.Err)
		}
		fetches.EachRecord(func(r *kgo.Record) {
			rec := scenario.Record{Offset: r.Offset, Key: r.Key, Value: r.Value}
			for _, h := range r.Headers {
				rec.Headers = append(rec.Headers, scenario.Header{Key: h.Key, Value: h.Value})
			}
			got = append(got, rec)
		})
	}
	return got, nil
}

// createTopic creates topic with one partition through CreateTopics.
func createTopic(ctx context.Context, cl *kgo.Client, topic string) error {
	req := kmsg.NewPtrCreateTopicsRequest()
	t := kmsg.NewCreateTopicsRequestTopic()
	t.Topic, t.NumPartitions, t.ReplicationFactor = topic, 1, 1
	req.Topics = append(req.Topics, t)
	req.TimeoutMillis = 10000
	resp, err := req.RequestWith(ctx, cl)
	if err != nil {
		return fmt.Errorf("create topic %s: %w", topic, err)
	}
	for _, rt := range resp.Topics {
		if err := kerr.ErrorForCode(rt.ErrorCode); err != nil && !errors.Is(err, kerr.TopicAlreadyExists) {
			return fmt.Errorf("create topic %s: %w", rt.Topic, err)
		}
	}
	return nil
}
