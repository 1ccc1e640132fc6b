// Package kafkagoclient runs the interop scenarios with segmentio/kafka-go:
// its Writer with every codec, its Reader on a partition and in a consumer
// group that commits, and InitProducerId through its Client. kafka-go has no
// idempotent producer: its record batches always carry producer id -1.
package kafkagoclient

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"time"

	"github.com/kafkagen/kafkagen/interop/internal/scenario"
	"github.com/segmentio/kafka-go"
	"github.com/segmentio/kafka-go/compress"
	"github.com/segmentio/kafka-go/sasl"
)

// Name is the client's name in the harness, the captures and the client ids.
const Name = "kafka-go"

// client runs the steps against one broker.
type client struct {
	broker string
	n      int
	tls    *tls.Config    // nil: plaintext
	sasl   sasl.Mechanism // nil: no authentication
}

// Steps returns the scenarios, n records each, against broker (host:port).
func Steps(broker string, n int) []scenario.Step {
	c := client{broker: broker, n: n}
	return append(scenario.CodecSteps(func(ctx context.Context, codec string) (string, error) {
		return c.produceConsume(ctx, codec, codec)
	}),
		scenario.Step{Name: "group", Run: c.group},
		scenario.Step{Name: "init-producer-id", Run: c.initProducerID},
	)
}

var codecs = map[string]compress.Compression{
	"gzip": compress.Gzip, "snappy": compress.Snappy, "lz4": compress.Lz4, "zstd": compress.Zstd,
}

// adminClient is kafka-go's request/response Client with the step's id.
func (c client) adminClient(step string) *kafka.Client {
	return &kafka.Client{
		Addr:      kafka.TCP(c.broker),
		Timeout:   20 * time.Second,
		Transport: c.transport(step),
	}
}

// transport is the Transport of a step's Client and Writer.
func (c client) transport(step string) *kafka.Transport {
	return &kafka.Transport{ClientID: scenario.ClientID(Name, step), TLS: c.tls, SASL: c.sasl}
}

func (c client) dialer(step string) *kafka.Dialer {
	return &kafka.Dialer{ClientID: scenario.ClientID(Name, step), Timeout: 10 * time.Second, TLS: c.tls, SASLMechanism: c.sasl}
}

func (c client) createTopic(ctx context.Context, step, topic string) error {
	resp, err := c.adminClient(step).CreateTopics(ctx, &kafka.CreateTopicsRequest{
		Topics: []kafka.TopicConfig{{Topic: topic, NumPartitions: 1, ReplicationFactor: 1}},
	})
	if err != nil {
		return fmt.Errorf("create topic %s: %w", topic, err)
	}
	if err := resp.Errors[topic]; err != nil && !errors.Is(err, kafka.TopicAlreadyExists) {
		return fmt.Errorf("create topic %s: %w", topic, err)
	}
	return nil
}

// produce writes the records in one batch with the Writer.
func (c client) produce(ctx context.Context, step, topic string, codec compress.Compression, records []scenario.Record) error {
	w := &kafka.Writer{
		Addr:         kafka.TCP(c.broker),
		Topic:        topic,
		Balancer:     &kafka.LeastBytes{},
		BatchSize:    len(records),
		BatchTimeout: 50 * time.Millisecond,
		RequiredAcks: kafka.RequireOne,
		Compression:  codec,
		Transport:    c.transport(step),
	}
	msgs := make([]kafka.Message, len(records))
	for i, r := range records {
		m := kafka.Message{Key: r.Key, Value: r.Value}
		for _, h := range r.Headers {
			m.Headers = append(m.Headers, kafka.Header{Key: h.Key, Value: h.Value})
		}
		msgs[i] = m
	}
	err := w.WriteMessages(ctx, msgs...)
	if cerr := w.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("produce to %s: %w", topic, err)
	}
	return nil
}

// produceConsume creates the step's topic, writes the records with codec
// and reads them back from offset 0.
func (c client) produceConsume(ctx context.Context, step, codec string) (string, error) {
	topic := scenario.ClientID(Name, step)
	if err := c.createTopic(ctx, step+"-admin", topic); err != nil {
		return "", err
	}
	want := scenario.Records(topic, c.n, true)
	if err := c.produce(ctx, step, topic, codecs[codec], want); err != nil {
		return "", err
	}
	r := kafka.NewReader(kafka.ReaderConfig{
		Brokers:   []string{c.broker},
		Topic:     topic,
		Partition: 0,
		Dialer:    c.dialer(step + "-consumer"),
		MaxWait:   200 * time.Millisecond,
	})
	defer r.Close()
	if err := r.SetOffset(kafka.FirstOffset); err != nil {
		return "", err
	}
	got, err := read(ctx, r.ReadMessage, len(want))
	if err != nil {
		return "", fmt.Errorf("consume %s: %w", topic, err)
	}
	if err := scenario.Check(got, want, 0); err != nil {
		return "", err
	}
	return fmt.Sprintf("%d records produced and read back from %s", len(want), topic), nil
}

// read collects n messages from a Reader's ReadMessage or FetchMessage.
func read(ctx context.Context, next func(context.Context) (kafka.Message, error), n int) ([]scenario.Record, error) {
	var got []scenario.Record
	for len(got) < n {
		m, err := next(ctx)
		if err != nil {
			return got, fmt.Errorf("%d of %d records: %w", len(got), n, err)
		}
		r := scenario.Record{Offset: m.Offset, Key: m.Key, Value: m.Value}
		for _, h := range m.Headers {
			r.Headers = append(r.Headers, scenario.Header{Key: h.Key, Value: h.Value})
		}
		got = append(got, r)
	}
	return got, nil
}

// initProducerID asks for a producer id, the first step of an idempotent
// producer, which kafka-go offers only as a bare request.
func (c client) initProducerID(ctx context.Context) (string, error) {
	resp, err := c.adminClient("init-producer-id").InitProducerID(ctx, &kafka.InitProducerIDRequest{})
	if err != nil {
		return "", fmt.Errorf("init producer id: %w", err)
	}
	if resp.Error != nil {
		return "", fmt.Errorf("init producer id: %w", resp.Error)
	}
	if resp.Producer == nil || resp.Producer.ProducerID < 0 {
		return "", fmt.Errorf("init producer id: no producer id in %+v", resp)
	}
	return fmt.Sprintf("producer id %d epoch %d", resp.Producer.ProducerID, resp.Producer.ProducerEpoch), nil
}
