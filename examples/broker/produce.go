package main

import (
	"fmt"
	"time"

	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/kerrors"
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
	// file and syncPos are where an acks=-1 answer waits for the batch to
	// be durable (file is nil without -data-dir).
	file    *segmentLog
	syncPos int64
}

func (b *Broker) handleProduce(c *call, req *kafkamsg.ProduceRequest) *kafkamsg.ProduceResponse {
	resp := kafkamsg.NewProduceResponse()
	var durable []durableWait
	for _, t := range req.TopicData {
		rt := kafkamsg.ProduceResponseTopicProduceResponse{Name: t.Name}
		name, known := t.Name, true
		if c.version >= 13 {
			// Produce 13 names topics by id (KIP-516), answered by id; an
			// unknown id is UNKNOWN_TOPIC_ID and never creates a topic.
			rt.TopicID = t.TopicID
			name, known = b.topicNameByID(t.TopicID)
		}
		for _, p := range t.PartitionData {
			if !known {
				rp := defaults[kafkamsg.ProduceResponsePartitionProduceResponse]()
				rp.Index, rp.ErrorCode, rp.BaseOffset, rp.LogStartOffset = p.Index, kerrors.UnknownTopicID.Code, -1, -1
				rp.ErrorMessage = runtime.NewNullString(fmt.Sprintf("no topic with id %s", t.TopicID))
				rt.PartitionResponses = append(rt.PartitionResponses, rp)
				continue
			}
			res := b.producePartition(c, req, topicPartition{name, p.Index}, p.Records)
			if res.file != nil && req.Acks == -1 {
				durable = append(durable, durableWait{topic: len(resp.Responses), partition: len(rt.PartitionResponses), file: res.file, pos: res.syncPos})
			}
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
	// acks=-1: answered once durable, the fsync done outside every lock.
	for _, d := range durable {
		if err := d.file.syncTo(d.pos); err != nil {
			rp := &resp.Responses[d.topic].PartitionResponses[d.partition]
			b.cfg.Logger.Printf("produce %s[%d] from %q: %v", resp.Responses[d.topic].Name, rp.Index, c.clientID, err)
			rp.ErrorCode, rp.BaseOffset = kerrors.KafkaStorageError.Code, -1
			if c.version >= 8 {
				rp.ErrorMessage = runtime.NewNullString(err.Error())
			}
		}
	}
	return resp
}

// topicNameByID is the name of the topic with id, and whether there is one.
func (b *Broker) topicNameByID(id runtime.UUID) (string, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if t := b.topicIDs[id]; t != nil {
		return t.name, true
	}
	return "", false
}

// durableWait is a partition of an acks=-1 Produce whose answer waits for
// its batch to be on disk.
type durableWait struct {
	topic, partition int // indices into the response
	file             *segmentLog
	pos              int64
}

// producePartition checks and appends one partition's records.
func (b *Broker) producePartition(c *call, req *kafkamsg.ProduceRequest, tp topicPartition, blob []byte) partitionResult {
	fail := func(code int16, format string, args ...any) partitionResult {
		msg := fmt.Sprintf(format, args...)
		b.cfg.Logger.Printf("produce %s[%d] from %q: %s", tp.topic, tp.partition, c.clientID, msg)
		return partitionResult{code: code, message: msg, baseOffset: -1, logStart: -1}
	}
	if req.Acks != 0 && req.Acks != 1 && req.Acks != -1 {
		return fail(kerrors.InvalidRequiredAcks.Code, "acks %d: must be 0, 1 or -1", req.Acks)
	}
	b.mu.Lock()
	t, code := b.topicForWrite(tp.topic, true)
	exists := t.partition(tp.partition) != nil
	b.mu.Unlock()
	switch {
	case code != codeNone:
		return fail(code, "topic %q: %s", tp.topic, kerrors.ErrorCode(code))
	case !exists:
		return fail(kerrors.UnknownTopicOrPartition.Code, "topic %q has no partition %d", tp.topic, tp.partition)
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
			return fail(code, "transactional batch of producer %d epoch %d: %s", in.meta.ProducerID, in.meta.ProducerEpoch, kerrors.ErrorCode(code))
		}
	}

	b.mu.Lock()
	defer b.mu.Unlock()
	log := b.topics[tp.topic].partition(tp.partition)
	if log == nil { // deleted meanwhile
		return fail(kerrors.UnknownTopicOrPartition.Code, "topic %q was deleted", tp.topic)
	}
	res := partitionResult{baseOffset: -1, logStart: log.start, file: log.file}
	check := log.checkSequence(in.meta)
	switch {
	case check.errorCode != codeNone:
		return fail(check.errorCode, "batch of producer %d epoch %d, sequence %d: %s",
			in.meta.ProducerID, in.meta.ProducerEpoch, in.meta.BaseSequence, kerrors.ErrorCode(check.errorCode))
	case check.duplicateOffset >= 0: // durable once what is written now is
		res.baseOffset, res.syncPos = check.duplicateOffset, log.syncPosition()
		return res
	}
	res.baseOffset, res.syncPos, err = log.appendBatch(in.meta, in.data)
	if err != nil {
		return fail(kerrors.KafkaStorageError.Code, "%v", err)
	}
	log.recordSequence(in.meta, res.baseOffset)
	b.notifyAppend()
	return res
}

// writeMarker appends a transaction's commit or abort marker to a partition
// and closes the transaction there; it returns once the marker is durable.
func (b *Broker) writeMarker(tp topicPartition, producerID int64, epoch int16, commit bool) {
	b.mu.Lock()
	log := b.topics[tp.topic].partition(tp.partition)
	if log == nil {
		b.mu.Unlock()
		return // the topic was deleted
	}
	now := time.Now().UnixMilli()
	data := controlBatch(producerID, epoch, commit, now)
	meta := batchMeta{LastOffset: 0, FirstTimestamp: now, MaxTimestamp: now, ProducerID: producerID,
		ProducerEpoch: epoch, BaseSequence: -1, Transactional: true, Control: true}
	offset, syncPos, err := log.appendBatch(meta, data)
	if err == nil {
		log.endTxn(producerID, offset, commit)
		b.notifyAppend()
	}
	b.mu.Unlock()
	if err == nil && log.file != nil {
		err = log.file.syncTo(syncPos)
	}
	if err != nil {
		b.cfg.Logger.Printf("writing the transaction marker of producer %d to %s[%d]: %v", producerID, tp.topic, tp.partition, err)
	}
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
