// Package load runs one phase of the example broker's load test: producer
// connections with pipelined idempotent Produce requests and consumers
// fetching concurrently, then checks that every acknowledged record was read
// back once, in order, at the offset it was acknowledged at.
//
// Each producer connection has its own producer id and InFlight requests in
// flight at once, each to a different partition: as in Kafka's producers,
// pipelining spreads over partitions, so every (producer id, partition)
// stream has one request in flight and its sequence numbers arrive in order.
package load

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
)

// Config is one phase.
type Config struct {
	Addr       string // the broker, 127.0.0.1:port
	Topic      string // created with Partitions partitions
	Partitions int
	Producers  int // connections
	InFlight   int // Produce requests in flight per producer, at most Partitions
	Consumers  int // connections; partition p is read by consumer p % Consumers
	Acks       int16
	Duration   time.Duration // how long producers send
	// MinRecords and MaxRecords bound the records of a batch; ValueBytes
	// is the size of each record's value.
	MinRecords, MaxRecords, ValueBytes int
	// Timeout bounds the whole phase, reading back included.
	Timeout time.Duration
}

// callTimeout bounds each request.
const callTimeout = 10 * time.Second

// Check refuses a Config a phase cannot run (Addr, Topic and Acks aside).
func (c Config) Check() error {
	switch {
	case c.Partitions < 1 || c.Producers < 1 || c.Consumers < 1:
		return fmt.Errorf("load: partitions %d, producers %d, consumers %d: each must be at least 1", c.Partitions, c.Producers, c.Consumers)
	case c.InFlight < 1 || c.InFlight > c.Partitions:
		return fmt.Errorf("load: in flight %d: must be between 1 and the partitions (%d), one request per partition", c.InFlight, c.Partitions)
	case c.MinRecords < 1 || c.MaxRecords < c.MinRecords:
		return fmt.Errorf("load: records per batch %d-%d: need 1 <= min <= max", c.MinRecords, c.MaxRecords)
	case c.ValueBytes < valueHeader:
		return fmt.Errorf("load: value bytes %d: at least %d (the producer, partition and sequence)", c.ValueBytes, valueHeader)
	case c.Duration <= 0 || c.Timeout <= c.Duration:
		return fmt.Errorf("load: duration %v, timeout %v: need 0 < duration < timeout", c.Duration, c.Timeout)
	}
	return nil
}

// Run runs one phase and returns what it measured. An error means the
// phase could not run or finish (a connection failed, the timeout passed);
// losses, duplicates and reorderings are counted in the Result.
func Run(ctx context.Context, cfg Config) (Result, error) {
	if err := cfg.Check(); err != nil {
		return Result{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	topicID, err := createTopic(ctx, cfg)
	if err != nil {
		return Result{}, err
	}
	producers, err := dialProducers(ctx, cfg)
	for _, p := range producers {
		p.topicID = topicID
	}
	defer func() {
		for _, p := range producers {
			p.conn.Close()
		}
	}()
	if err != nil {
		return Result{}, err
	}
	consumers, err := dialConsumers(ctx, cfg, topicID, producers)
	defer func() {
		for _, c := range consumers {
			c.conn.Close()
		}
	}()
	if err != nil {
		return Result{}, err
	}

	var produced atomic.Bool // set once every producer has its last answer
	var readers sync.WaitGroup
	readErrs := make([]error, len(consumers))
	for i, c := range consumers {
		readers.Add(1)
		go func() {
			defer readers.Done()
			readErrs[i] = c.run(ctx, &produced)
		}()
	}
	start := time.Now()
	sendUntil, stopSending := context.WithTimeout(ctx, cfg.Duration)
	var writers sync.WaitGroup
	for _, p := range producers {
		for slot := range cfg.InFlight {
			writers.Add(1)
			go func() {
				defer writers.Done()
				p.send(ctx, sendUntil, cfg, slot)
			}()
		}
	}
	writers.Wait()
	elapsed := time.Since(start)
	stopSending()
	produced.Store(true)
	readers.Wait()
	res := measure(cfg, producers, elapsed)
	return res, errors.Join(readErrs...)
}

// createTopic creates cfg.Topic through CreateTopics and returns its id.
func createTopic(ctx context.Context, cfg Config) (runtime.UUID, error) {
	conn, err := dial(ctx, cfg.Addr, "brokerload-admin")
	if err != nil {
		return runtime.UUID{}, err
	}
	defer conn.Close()
	req := kafkamsg.NewCreateTopicsRequest()
	var t kafkamsg.CreateTopicsRequestCreatableTopic
	t.Reset()
	t.Name, t.NumPartitions, t.ReplicationFactor = cfg.Topic, int32(cfg.Partitions), 1
	req.Topics = append(req.Topics, t)
	resp := kafkamsg.NewCreateTopicsResponse()
	if err := conn.Do(ctx, req, resp); err != nil {
		return runtime.UUID{}, fmt.Errorf("load: CreateTopics %s: %w", cfg.Topic, err)
	}
	if len(resp.Topics) != 1 || resp.Topics[0].ErrorCode != 0 {
		return runtime.UUID{}, fmt.Errorf("load: CreateTopics %s: %+v", cfg.Topic, resp.Topics)
	}
	return resp.Topics[0].TopicID, nil
}

// dial connects to the broker within callTimeout.
func dial(ctx context.Context, addr, clientID string) (*wire.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	conn, err := wire.Dial(ctx, addr, wire.ConnConfig{ClientID: clientID, RequestTimeout: callTimeout})
	if err != nil {
		return nil, fmt.Errorf("load: %s: %w", clientID, err)
	}
	return conn, nil
}
