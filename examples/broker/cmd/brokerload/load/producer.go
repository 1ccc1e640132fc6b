package load

import (
	"context"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// producer is one producer connection with its idempotent producer id.
type producer struct {
	index int
	conn  *wire.Conn
	id    int64
	epoch int16
	// topicID names the topic from Produce 13 on.
	topicID runtime.UUID
	// streams[slot] is what the slot sends to its partition.
	streams []*stream
	// byPartition finds a stream from a record read back (nil where no
	// slot of this producer writes).
	byPartition []*stream
}

// dialProducers connects the producers and gives each a producer id.
func dialProducers(ctx context.Context, cfg Config) ([]*producer, error) {
	var out []*producer
	for i := range cfg.Producers {
		conn, err := dial(ctx, cfg.Addr, fmt.Sprintf("brokerload-producer-%d", i))
		if err != nil {
			return out, err
		}
		p := &producer{index: i, conn: conn, byPartition: make([]*stream, cfg.Partitions)}
		out = append(out, p)
		req := kafkamsg.NewInitProducerIDRequest()
		req.TransactionalID = runtime.NullString{} // null: idempotent only
		resp := kafkamsg.NewInitProducerIDResponse()
		callCtx, cancel := context.WithTimeout(ctx, callTimeout)
		err = conn.Do(callCtx, req, resp)
		cancel()
		if err == nil && resp.ErrorCode != 0 {
			err = kerrors.ErrorCode(resp.ErrorCode)
		}
		if err != nil {
			return out, fmt.Errorf("load: producer %d: InitProducerId: %w", i, err)
		}
		p.id, p.epoch = resp.ProducerID, resp.ProducerEpoch
		for slot := range cfg.InFlight {
			// Consecutive partitions: a producer's slots never share one.
			s := &stream{producer: i, partition: int32((i*cfg.InFlight + slot) % cfg.Partitions)}
			p.streams = append(p.streams, s)
			p.byPartition[s.partition] = s
		}
	}
	return out, nil
}

// send is one slot: batches to its partition, one at a time, until
// sendUntil ends or a request fails (what it sent may then be in the log or
// not, so the stream stops there).
func (p *producer) send(ctx, sendUntil context.Context, cfg Config, slot int) {
	s := p.streams[slot]
	b := records.NewBatchBuilder()
	b.ProducerID, b.ProducerEpoch = p.id, p.epoch
	value := make([]byte, cfg.ValueBytes)
	for i := valueHeader; i < len(value); i++ {
		value[i] = 'v'
	}
	var blob []byte
	req := kafkamsg.NewProduceRequest()
	req.Acks, req.TimeoutMs = cfg.Acks, int32(callTimeout/time.Millisecond)
	// Name up to Produce 12, TopicID from 13 (both ignorable): the
	// version Conn.Do picks writes the one it has.
	req.TopicData = []kafkamsg.ProduceRequestTopicProduceData{{Name: cfg.Topic, TopicID: p.topicID,
		PartitionData: []kafkamsg.ProduceRequestPartitionProduceData{{Index: s.partition}}}}
	resp := kafkamsg.NewProduceResponse()
	for batch := 0; sendUntil.Err() == nil; batch++ {
		n := cfg.MinRecords + (p.index+slot+batch*7)%(cfg.MaxRecords-cfg.MinRecords+1)
		b.Reset()
		b.ProducerID, b.ProducerEpoch, b.BaseSequence = p.id, p.epoch, s.nextSeq
		now := time.Now()
		for r := range n {
			putValueHeader(value, p.index, s.partition, s.nextSeq+int32(r))
			b.Append(now.UnixMilli(), nil, value)
		}
		var err error
		if blob, err = b.AppendTo(blob[:0]); err != nil {
			s.failed(n, fmt.Errorf("building a batch: %w", err))
			return
		}
		req.TopicData[0].PartitionData[0].Records = blob
		// The request's own deadline, not sendUntil's: a request sent
		// is waited for, so that the stream ends on a known state.
		callCtx, cancel := context.WithTimeout(ctx, callTimeout)
		err = p.conn.Do(callCtx, req, resp)
		cancel()
		latency := time.Since(now)
		if err == nil {
			err = answerError(resp)
		}
		if err != nil {
			s.failed(n, err)
			return
		}
		s.acked = append(s.acked, ackedBatch{firstSeq: s.nextSeq, baseOffset: resp.Responses[0].PartitionResponses[0].BaseOffset, count: int32(n)})
		s.latencies = append(s.latencies, latency)
		s.nextSeq += int32(n)
	}
}

// answerError is the error of a one-partition Produce answer, or nil.
func answerError(resp *kafkamsg.ProduceResponse) error {
	if len(resp.Responses) != 1 || len(resp.Responses[0].PartitionResponses) != 1 {
		return fmt.Errorf("Produce answer with %d topics, want one of one partition", len(resp.Responses))
	}
	pr := resp.Responses[0].PartitionResponses[0]
	if pr.ErrorCode != 0 {
		return fmt.Errorf("Produce: %w: %s", kerrors.ErrorCode(pr.ErrorCode), pr.ErrorMessage.Value)
	}
	return nil
}

// valueHeader is the bytes at the start of each value naming its record:
// producer index, partition and sequence, big-endian 32-bit each.
const valueHeader = 12

func putValueHeader(v []byte, producer int, partition, seq int32) {
	binary.BigEndian.PutUint32(v, uint32(producer))
	binary.BigEndian.PutUint32(v[4:], uint32(partition))
	binary.BigEndian.PutUint32(v[8:], uint32(seq))
}
