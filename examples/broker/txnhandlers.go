package main

import (
	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

func (b *Broker) handleInitProducerID(c *call, req *kafkamsg.InitProducerIDRequest) *kafkamsg.InitProducerIDResponse {
	res := b.txns.initProducerID(req.TransactionalID.Value, req.TransactionalID.Valid, req.TransactionTimeoutMs, req.ProducerID, req.ProducerEpoch)
	resp := kafkamsg.NewInitProducerIDResponse()
	resp.ErrorCode, resp.ProducerID, resp.ProducerEpoch = res.errorCode, res.producerID, res.epoch
	if c.version < 3 && res.errorCode == kerrors.ProducerFenced.Code {
		resp.ErrorCode = kerrors.InvalidProducerEpoch.Code // PRODUCER_FENCED is new in v3's era
	}
	return resp
}

func (b *Broker) handleAddPartitionsToTxn(c *call, req *kafkamsg.AddPartitionsToTxnRequest) *kafkamsg.AddPartitionsToTxnResponse {
	resp := kafkamsg.NewAddPartitionsToTxnResponse()
	if c.version < 4 {
		resp.ResultsByTopicV3AndBelow = b.addPartitions(c, req.V3AndBelowTransactionalID, req.V3AndBelowProducerID,
			req.V3AndBelowProducerEpoch, req.V3AndBelowTopics, false)
		return resp
	}
	for _, t := range req.Transactions {
		resp.ResultsByTransaction = append(resp.ResultsByTransaction, kafkamsg.AddPartitionsToTxnResponseAddPartitionsToTxnResult{
			TransactionalID: t.TransactionalID,
			TopicResults:    b.addPartitions(c, t.TransactionalID, t.ProducerID, t.ProducerEpoch, t.Topics, t.VerifyOnly),
		})
	}
	return resp
}

// addPartitions adds one transaction's partitions and answers per topic.
func (b *Broker) addPartitions(c *call, txnID string, producerID int64, epoch int16, topics []kafkamsg.AddPartitionsToTxnRequestAddPartitionsToTxnTopic, verifyOnly bool) []kafkamsg.AddPartitionsToTxnResponseAddPartitionsToTxnTopicResult {
	var parts []topicPartition
	for _, t := range topics {
		for _, p := range t.Partitions {
			parts = append(parts, topicPartition{t.Name, p})
		}
	}
	codes := b.txns.addPartitions(txnID, producerID, epoch, parts, verifyOnly)
	var out []kafkamsg.AddPartitionsToTxnResponseAddPartitionsToTxnTopicResult
	i := 0
	for _, t := range topics {
		rt := kafkamsg.AddPartitionsToTxnResponseAddPartitionsToTxnTopicResult{Name: t.Name}
		for _, p := range t.Partitions {
			code := codes[i]
			if c.version < 3 && code == kerrors.ProducerFenced.Code {
				code = kerrors.InvalidProducerEpoch.Code
			}
			rt.ResultsByPartition = append(rt.ResultsByPartition, kafkamsg.AddPartitionsToTxnResponseAddPartitionsToTxnPartitionResult{PartitionIndex: p, PartitionErrorCode: code})
			i++
		}
		out = append(out, rt)
	}
	return out
}

func (b *Broker) handleAddOffsetsToTxn(c *call, req *kafkamsg.AddOffsetsToTxnRequest) *kafkamsg.AddOffsetsToTxnResponse {
	resp := kafkamsg.NewAddOffsetsToTxnResponse()
	resp.ErrorCode = fenced(c, b.txns.addGroup(req.TransactionalID, req.ProducerID, req.ProducerEpoch, req.GroupID))
	return resp
}

func (b *Broker) handleTxnOffsetCommit(c *call, req *kafkamsg.TxnOffsetCommitRequest) *kafkamsg.TxnOffsetCommitResponse {
	var parts []topicPartition
	var offsets []committedOffset
	for _, t := range req.Topics {
		for _, p := range t.Partitions {
			parts = append(parts, topicPartition{t.Name, p.PartitionIndex})
			offsets = append(offsets, committedOffset{offset: p.CommittedOffset, leaderEpoch: p.CommittedLeaderEpoch, metadata: p.CommittedMetadata})
		}
	}
	code := fenced(c, b.txns.checkOffsets(req.TransactionalID, req.ProducerID, req.ProducerEpoch, req.GroupID))
	owner := offsetOwner{groupID: req.GroupID, memberID: req.MemberID, generation: req.GenerationID}
	codes := b.commitKnown(parts, offsets, func(known []topicPartition, offsets []committedOffset) []int16 {
		if code != codeNone {
			out := make([]int16, len(known))
			for i := range out {
				out[i] = code
			}
			return out
		}
		return b.groups.txnCommit(owner, req.ProducerID, known, offsets)
	})
	resp := kafkamsg.NewTxnOffsetCommitResponse()
	i := 0
	for _, t := range req.Topics {
		rt := kafkamsg.TxnOffsetCommitResponseTopic{Name: t.Name}
		for _, p := range t.Partitions {
			rt.Partitions = append(rt.Partitions, kafkamsg.TxnOffsetCommitResponsePartition{PartitionIndex: p.PartitionIndex, ErrorCode: codes[i]})
			i++
		}
		resp.Topics = append(resp.Topics, rt)
	}
	return resp
}

func (b *Broker) handleEndTxn(c *call, req *kafkamsg.EndTxnRequest) *kafkamsg.EndTxnResponse {
	resp := kafkamsg.NewEndTxnResponse()
	resp.ErrorCode = fenced(c, b.txns.end(req.TransactionalID, req.ProducerID, req.ProducerEpoch, req.Committed))
	return resp
}

// fenced answers PRODUCER_FENCED as INVALID_PRODUCER_EPOCH to the request
// versions that predate it (Kafka does the same for v0-2 of the txn APIs).
func fenced(c *call, code int16) int16 {
	if code == kerrors.ProducerFenced.Code && c.version < 3 {
		return kerrors.InvalidProducerEpoch.Code
	}
	return code
}
