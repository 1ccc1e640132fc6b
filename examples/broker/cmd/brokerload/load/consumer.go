package load

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// consumer reads its partitions from offset 0 while the producers send,
// and on until it has everything the producers were answered for.
type consumer struct {
	conn       *wire.Conn
	topic      string
	topicID    runtime.UUID
	partitions []int32
	next       []int64 // per partition, the next offset to read
	producers  []*producer

	reader  records.Reader
	records records.RecordReader
	dec     records.Decompressor
}

// dialConsumers connects the consumers; partition p goes to consumer
// p % Consumers.
func dialConsumers(ctx context.Context, cfg Config, topicID runtime.UUID, producers []*producer) ([]*consumer, error) {
	var out []*consumer
	for i := range cfg.Consumers {
		conn, err := dial(ctx, cfg.Addr, fmt.Sprintf("brokerload-consumer-%d", i))
		if err != nil {
			return out, err
		}
		c := &consumer{conn: conn, topic: cfg.Topic, topicID: topicID, producers: producers}
		for p := i; p < cfg.Partitions; p += cfg.Consumers {
			c.partitions = append(c.partitions, int32(p))
		}
		c.next = make([]int64, len(c.partitions))
		out = append(out, c)
	}
	return out, nil
}

// run fetches until produced is set and a Fetch sent after that reaches
// every partition's high watermark (every acknowledged record is below it).
func (c *consumer) run(ctx context.Context, produced *atomic.Bool) error {
	if len(c.partitions) == 0 {
		return nil
	}
	req := kafkamsg.NewFetchRequest()
	version, err := c.conn.Version(req)
	if err != nil {
		return err
	}
	resp := kafkamsg.NewFetchResponse()
	for {
		last := produced.Load()
		c.request(req, version)
		callCtx, cancel := context.WithTimeout(ctx, callTimeout)
		err := c.conn.DoAt(callCtx, req, version, resp)
		cancel()
		if err != nil {
			return fmt.Errorf("load: Fetch of partitions %v: %w", c.partitions, err)
		}
		caughtUp, err := c.readAnswer(resp)
		if err != nil {
			return err
		}
		if last && caughtUp {
			return nil
		}
	}
}

// request fills req for every partition from its next offset, waiting up
// to 100 ms for data.
func (c *consumer) request(req *kafkamsg.FetchRequest, version int16) {
	req.MaxWaitMs, req.MinBytes, req.MaxBytes = 100, 1, 8<<20
	t := kafkamsg.FetchRequestFetchTopic{Topic: c.topic}
	if version >= 13 { // topics by id from v13
		t = kafkamsg.FetchRequestFetchTopic{TopicID: c.topicID}
	}
	for i, p := range c.partitions {
		var fp kafkamsg.FetchRequestFetchPartition
		fp.Reset()
		fp.Partition, fp.FetchOffset, fp.PartitionMaxBytes = p, c.next[i], 1<<20
		t.Partitions = append(t.Partitions, fp)
	}
	req.Topics = append(req.Topics[:0], t)
}

// readAnswer reads every record of resp and reports whether every
// partition is read up to its high watermark.
func (c *consumer) readAnswer(resp *kafkamsg.FetchResponse) (bool, error) {
	if resp.ErrorCode != 0 {
		return false, fmt.Errorf("load: Fetch: %w", kerrors.ErrorCode(resp.ErrorCode))
	}
	caughtUp := true
	for _, t := range resp.Responses {
		for _, pd := range t.Partitions {
			i := c.slot(pd.PartitionIndex)
			if i < 0 || pd.ErrorCode != 0 {
				return false, fmt.Errorf("load: Fetch partition %d: error %v", pd.PartitionIndex, kerrors.ErrorCode(pd.ErrorCode))
			}
			if err := c.readRecords(i, pd.Records); err != nil {
				return false, err
			}
			caughtUp = caughtUp && c.next[i] >= pd.HighWatermark
		}
	}
	return caughtUp, nil
}

// slot is the index of partition p in c.partitions, or -1.
func (c *consumer) slot(p int32) int {
	for i, q := range c.partitions {
		if q == p {
			return i
		}
	}
	return -1
}

// readRecords reads a partition's record batches (a partial tail batch is
// left for the next Fetch) and hands each record to its stream.
func (c *consumer) readRecords(i int, blob []byte) error {
	partition := c.partitions[i]
	c.reader.Reset(blob)
	for c.reader.Next() {
		batch := c.reader.Batch()
		if err := c.records.Reset(batch, &c.dec); err != nil {
			return fmt.Errorf("load: partition %d offset %d: %w", partition, batch.BaseOffset, err)
		}
		var rec records.Record
		for c.records.Next(&rec) {
			if rec.Offset < c.next[i] {
				continue // the start of a batch read before
			}
			if rec.Offset != c.next[i] {
				return fmt.Errorf("load: partition %d: offset %d after %d", partition, rec.Offset, c.next[i]-1)
			}
			s, seq, err := c.streamOf(batch, &rec, partition)
			if err != nil {
				return err
			}
			s.readBack(seq, rec.Offset)
			c.next[i]++
		}
		if err := c.records.Err(); err != nil {
			return fmt.Errorf("load: partition %d offset %d: %w", partition, batch.BaseOffset, err)
		}
	}
	if err := c.reader.Err(); err != nil {
		return fmt.Errorf("load: partition %d: %w", partition, err)
	}
	return nil
}

// streamOf finds the stream of a record read back and its sequence,
// checking that the value and the batch header name the same.
func (c *consumer) streamOf(batch *records.Batch, rec *records.Record, partition int32) (*stream, int32, error) {
	producer, valuePartition, seq, ok := recordOf(rec.Value)
	var s *stream
	if ok && producer < len(c.producers) && valuePartition == partition {
		s = c.producers[producer].byPartition[partition]
	}
	if s == nil || batch.ProducerID != c.producers[producer].id || batch.BaseSequence+rec.OffsetDelta != seq {
		return nil, 0, fmt.Errorf("load: partition %d offset %d: a record this run did not send (producer id %d, sequence %d)",
			partition, rec.Offset, batch.ProducerID, batch.BaseSequence+rec.OffsetDelta)
	}
	return s, seq, nil
}
