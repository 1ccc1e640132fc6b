// Package saramaclient runs the interop scenarios with IBM's sarama: every
// codec at sarama's default protocol version (Kafka 2.8), the idempotent
// producer, a consumer group, and produce/consume at Version 0.8.2 and 0.10.2
// so that message sets v0 and v1 cross the wire.
package saramaclient

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"time"

	"github.com/IBM/sarama"
	"github.com/kafkagen/kafkagen/interop/internal/scenario"
)

// Name is the client's name in the harness, the captures and the client ids.
const Name = "sarama"

// client runs the steps against one broker.
type client struct {
	broker string
	n      int
	sec    scenario.Security // plaintext unless SecureSteps set it
	tls    *tls.Config       // sec's, loaded once
}

// protocol is one Kafka version sarama is told to speak and the codecs it
// can use there.
type protocol struct {
	label      string // step prefix, "" for the default version
	version    sarama.KafkaVersion
	codecs     []string
	headers    bool // record batches (v2) only: message sets have no headers
	group      bool // sarama's consumer groups need 0.10.2 or later
	timestamps bool // false for message sets of magic 0, before Kafka 0.10
}

var protocols = []protocol{
	{"", sarama.DefaultVersion, scenario.Codecs, true, true, true},
	{"v0.10.2-", sarama.V0_10_2_0, []string{"none", "gzip", "snappy", "lz4"}, false, true, true},
	{"v0.8.2-", sarama.V0_8_2_0, []string{"none", "gzip", "snappy"}, false, false, false},
}

// readTimestamps is what a reader at p must see of want's timestamps: none
// (NoTimestamp) in message sets of magic 0.
func (p protocol) readTimestamps(want []scenario.Record) []scenario.Record {
	if p.timestamps {
		return want
	}
	return scenario.WithoutTimestamps(want)
}

// Steps returns the scenarios, n records each, against broker (host:port).
func Steps(broker string, n int) []scenario.Step {
	c := client{broker: broker, n: n}
	var steps []scenario.Step
	for _, p := range protocols {
		for _, codec := range p.codecs {
			steps = append(steps, scenario.Step{Name: p.label + codec, Run: func(ctx context.Context) (string, error) {
				return c.produceConsume(ctx, p, p.label+codec, codec, false)
			}})
		}
		if p.group {
			steps = append(steps, scenario.Step{Name: p.label + "group", Run: func(ctx context.Context) (string, error) {
				return c.group(ctx, p, p.label+"group")
			}})
		}
	}
	return append(steps,
		scenario.Step{Name: "idempotent", Run: func(ctx context.Context) (string, error) {
			return c.produceConsume(ctx, protocols[0], "idempotent", "none", true)
		}},
		scenario.Step{Name: "delete-topic", Run: c.deleteTopic},
	)
}

// deleteTopic creates a topic, deletes it, and checks that Metadata no
// longer knows it.
func (c client) deleteTopic(context.Context) (string, error) {
	topic := scenario.ClientID(Name, "delete-topic")
	if err := c.createTopic(topic); err != nil {
		return "", err
	}
	admin, err := sarama.NewClusterAdmin([]string{c.broker}, c.config(protocols[0], "delete-topic"))
	if err != nil {
		return "", fmt.Errorf("admin client: %w", err)
	}
	defer admin.Close()
	if err := admin.DeleteTopic(topic); err != nil {
		return "", fmt.Errorf("delete topic %s: %w", topic, err)
	}
	// Not ListTopics: it also sends DescribeConfigs, which the broker does
	// not implement. DescribeTopics is a Metadata request for the topic.
	meta, err := admin.DescribeTopics([]string{topic})
	if err != nil {
		return "", fmt.Errorf("describe topics: %w", err)
	}
	if len(meta) != 1 || !errors.Is(meta[0].Err, sarama.ErrUnknownTopicOrPartition) {
		return "", fmt.Errorf("describe topics after deleting %s: %+v, want UNKNOWN_TOPIC_OR_PARTITION", topic, meta)
	}
	return fmt.Sprintf("deleted %s; Metadata answers UNKNOWN_TOPIC_OR_PARTITION", topic), nil
}

// config is a sarama configuration for one step at a protocol version.
func (c client) config(p protocol, step string) *sarama.Config {
	cfg := sarama.NewConfig()
	cfg.Version = p.version
	cfg.ClientID = scenario.ClientID(Name, step)
	cfg.Net.DialTimeout = 10 * time.Second
	cfg.Metadata.Retry.Backoff = 100 * time.Millisecond
	cfg.Producer.Return.Successes = true
	cfg.Producer.Partitioner = sarama.NewManualPartitioner
	cfg.Producer.RequiredAcks = sarama.WaitForLocal
	cfg.Producer.Flush.Frequency = 50 * time.Millisecond
	cfg.Consumer.Offsets.Initial = sarama.OffsetOldest
	cfg.Consumer.MaxWaitTime = 200 * time.Millisecond
	c.secure(cfg)
	return cfg
}

// createTopic creates a one-partition topic through an admin client at the
// default version: CreateTopics does not exist at 0.8.2.
func (c client) createTopic(topic string) error {
	cfg := c.config(protocols[0], "admin")
	admin, err := sarama.NewClusterAdmin([]string{c.broker}, cfg)
	if err != nil {
		return fmt.Errorf("admin client: %w", err)
	}
	defer admin.Close()
	err = admin.CreateTopic(topic, &sarama.TopicDetail{NumPartitions: 1, ReplicationFactor: 1}, false)
	if err != nil && !errors.Is(err, sarama.ErrTopicAlreadyExists) {
		return fmt.Errorf("create topic %s: %w", topic, err)
	}
	return nil
}

// produceConsume creates a topic, sends the records in one batch and reads
// them back from offset 0.
func (c client) produceConsume(ctx context.Context, p protocol, step, codec string, idempotent bool) (string, error) {
	topic := scenario.ClientID(Name, step)
	if err := c.createTopic(topic); err != nil {
		return "", err
	}
	cfg := c.config(p, step)
	if err := cfg.Producer.Compression.UnmarshalText([]byte(codec)); err != nil {
		return "", err
	}
	if idempotent {
		cfg.Producer.Idempotent = true
		cfg.Producer.RequiredAcks = sarama.WaitForAll
		cfg.Net.MaxOpenRequests = 1
	}
	want := scenario.Records(topic, c.n, p.headers)
	if err := produce(cfg, c.broker, topic, want); err != nil {
		return "", err
	}
	got, err := consume(ctx, c.config(p, step+"-consumer"), c.broker, topic, len(want))
	if err != nil {
		return "", err
	}
	if err := scenario.Check(got, want, 0); err != nil {
		return "", err
	}
	if err := scenario.CheckTimestamps(got, p.readTimestamps(want)); err != nil {
		return "", err
	}
	return fmt.Sprintf("%d records produced and read back from %s at %s, timestamps included", len(want), topic, p.version), nil
}

// produce sends records to partition 0 with a sync producer, each with its
// timestamp (which sarama leaves out of messages of magic 0).
func produce(cfg *sarama.Config, broker, topic string, records []scenario.Record) error {
	producer, err := sarama.NewSyncProducer([]string{broker}, cfg)
	if err != nil {
		return fmt.Errorf("producer: %w", err)
	}
	msgs := make([]*sarama.ProducerMessage, len(records))
	for i, r := range records {
		m := &sarama.ProducerMessage{Topic: topic, Partition: 0, Key: sarama.ByteEncoder(r.Key), Value: sarama.ByteEncoder(r.Value),
			Timestamp: time.UnixMilli(r.Timestamp)}
		for _, h := range r.Headers {
			m.Headers = append(m.Headers, sarama.RecordHeader{Key: []byte(h.Key), Value: h.Value})
		}
		msgs[i] = m
	}
	err = producer.SendMessages(msgs)
	if cerr := producer.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("produce to %s: %w", topic, err)
	}
	return nil
}

// consume reads n records of partition 0 from the oldest offset.
func consume(ctx context.Context, cfg *sarama.Config, broker, topic string, n int) ([]scenario.Record, error) {
	consumer, err := sarama.NewConsumer([]string{broker}, cfg)
	if err != nil {
		return nil, fmt.Errorf("consumer: %w", err)
	}
	defer consumer.Close()
	pc, err := consumer.ConsumePartition(topic, 0, sarama.OffsetOldest)
	if err != nil {
		return nil, fmt.Errorf("consume %s: %w", topic, err)
	}
	defer pc.Close()
	var got []scenario.Record
	for len(got) < n {
		select {
		case m := <-pc.Messages():
			got = append(got, fromMessage(m))
		case err := <-pc.Errors():
			return got, fmt.Errorf("consume %s: %w", topic, err)
		case <-ctx.Done():
			return got, fmt.Errorf("consume %s: %d of %d records before %w", topic, len(got), n, ctx.Err())
		}
	}
	return got, nil
}

// fromMessage is m as a scenario record; sarama reports a message without
// timestamp (magic 0, or a negative one) as the zero time.
func fromMessage(m *sarama.ConsumerMessage) scenario.Record {
	r := scenario.Record{Offset: m.Offset, Timestamp: scenario.NoTimestamp, Key: m.Key, Value: m.Value}
	if !m.Timestamp.IsZero() {
		r.Timestamp = m.Timestamp.UnixMilli()
	}
	for _, h := range m.Headers {
		r.Headers = append(r.Headers, scenario.Header{Key: string(h.Key), Value: h.Value})
	}
	return r
}
