package main

import (
	"fmt"
	"time"

	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
)

// incomingBatch is a batch of a Produce request ready to append: v2, with
// bytes the log may keep.
type incomingBatch struct {
	meta batchMeta
	data []byte
}

// partitionResult is one partition's answer to Produce.
type partitionResult struct {
	code       int16
	message    string
	records    []recordError // the records at fault, where Kafka lists them
	baseOffset int64
	logStart   int64
}

func (b *Broker) handleProduce(c *call, req *kafkamsg.ProduceRequest) *kafkamsg.ProduceResponse {
	resp := kafkamsg.NewProduceResponse()
	for _, t := range req.TopicData {
		rt := kafkamsg.ProduceResponseTopicProduceResponse{Name: t.Name}
		for _, p := range t.PartitionData {
			res := b.producePartition(c, req, topicPartition{t.Name, p.Index}, p.Records)
			rp := defaults[kafkamsg.ProduceResponsePartitionProduceResponse]()
			rp.Index, rp.ErrorCode, rp.BaseOffset = p.Index, res.code, res.baseOffset
			if c.version >= 5 {
				rp.LogStartOffset = res.logStart
			}
			if c.version >= 8 && res.message != "" {
				rp.ErrorMessage = runtime.NewNullString(res.message)
				for _, e := range res.records {
					rp.RecordErrors = append(rp.RecordErrors, kafkamsg.ProduceResponseBatchIndexAndErrorMessage{
						BatchIndex: e.index, BatchIndexErrorMessage: runtime.NewNullString(e.message)})
				}
			}
			rt.PartitionResponses = append(rt.PartitionResponses, rp)
		}
		resp.Responses = append(resp.Responses, rt)
	}
	return resp
}

// producePartition checks and appends one partition's records.
func (b *Broker) producePartition(c *call, req *kafkamsg.ProduceRequest, tp topicPartition, blob []byte) partitionResult {
	fail := func(code int16, format string, args ...any) partitionResult {
		msg := fmt.Sprintf(format, args...)
		b.cfg.Logger.Printf("produce %s[%d] from %q: %s", tp.topic, tp.partition, c.clientID, msg)
		return partitionResult{code: code, message: msg, baseOffset: -1, logStart: -1}
	}
	if req.Acks != 0 && req.Acks != 1 && req.Acks != -1 {
		return fail(wire.InvalidRequiredAcks.Code, "acks %d: must be 0, 1 or -1", req.Acks)
	}
	b.mu.Lock()
	t, code := b.topicForWrite(tp.topic, true)
	exists := t.partition(tp.partition) != nil
	b.mu.Unlock()
	switch {
	case code != codeNone:
		return fail(code, "topic %q: %s", tp.topic, wire.ErrorCode(code))
	case !exists:
		return fail(wire.UnknownTopicOrPartition.Code, "topic %q has no partition %d", tp.topic, tp.partition)
	}
	in, err := c.rec.incoming(blob, c.version, b.limits, time.Now().UnixMilli())
	if err != nil {
		res := fail(produceErrorCode(err), "%v", err)
		if r, ok := err.(*rejection); ok {
			res.records = r.records
		}
		return res
	}
	if in.meta.Transactional {
		// The coordinator stays locked until the batch is appended, so that
		// no EndTxn or timeout abort writes its marker between the check and
		// the append: a batch after its transaction's marker would keep the
		// partition's last stable offset back for ever. (Lock order: txns,
		// then b, as the coordinator's markers take them.)
		b.txns.mu.Lock()
		defer b.txns.mu.Unlock()
		if code := b.txns.producingLocked(in.meta.ProducerID, in.meta.ProducerEpoch, tp); code != codeNone {
			return fail(code, "transactional batch of producer %d epoch %d: %s", in.meta.ProducerID, in.meta.ProducerEpoch, wire.ErrorCode(code))
		}
	}

	b.mu.Lock()
	defer b.mu.Unlock()
	log := b.topics[tp.topic].partition(tp.partition)
	if log == nil { // deleted meanwhile
		return fail(wire.UnknownTopicOrPartition.Code, "topic %q was deleted", tp.topic)
	}
	res := partitionResult{baseOffset: -1, logStart: log.start}
	check := log.checkSequence(in.meta)
	switch {
	case check.errorCode != codeNone:
		return fail(check.errorCode, "batch of producer %d epoch %d, sequence %d: %s",
			in.meta.ProducerID, in.meta.ProducerEpoch, in.meta.BaseSequence, wire.ErrorCode(check.errorCode))
	case check.duplicateOffset >= 0:
		res.baseOffset = check.duplicateOffset
		return res
	}
	res.baseOffset = log.appendBatch(in.meta, in.data)
	log.recordSequence(in.meta, res.baseOffset)
	b.notifyAppend()
	return res
}

// writeMarker appends a transaction's commit or abort marker to a partition
// and closes the transaction there.
func (b *Broker) writeMarker(tp topicPartition, producerID int64, epoch int16, commit bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	log := b.topics[tp.topic].partition(tp.partition)
	if log == nil {
		return // the topic was deleted
	}
	now := time.Now().UnixMilli()
	data := controlBatch(producerID, epoch, commit, now)
	meta := batchMeta{LastOffset: 0, FirstTimestamp: now, MaxTimestamp: now, ProducerID: producerID,
		ProducerEpoch: epoch, BaseSequence: -1, Transactional: true, Control: true}
	offset := log.appendBatch(meta, data)
	log.endTxn(producerID, offset, commit)
	b.notifyAppend()
}

// metaOf is what the log keeps of a v2 batch.
func metaOf(rb *records.Batch) batchMeta {
	return batchMeta{
		BaseOffset: rb.BaseOffset, LastOffset: rb.LastOffset(),
		FirstTimestamp: rb.BaseTimestamp, MaxTimestamp: rb.MaxTimestamp,
		ProducerID: rb.ProducerID, ProducerEpoch: rb.ProducerEpoch, BaseSequence: rb.BaseSequence,
		Transactional: rb.IsTransactional(), Control: rb.IsControl(),
	}
}
