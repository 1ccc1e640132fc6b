package main

import (
	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// Special timestamps of ListOffsets.
const (
	latestTimestamp        = -1 // the log end (the last stable offset for read_committed)
	earliestTimestamp      = -2 // the log start
	maxTimestamp           = -3 // the record with the largest timestamp (v7+)
	earliestLocalTimestamp = -4 // the start of local storage (v8+): the log start here
	latestTiered           = -5 // the last tiered offset (v9+, KIP-1005): nothing is tiered here
	earliestPendingUpload  = -6 // the first offset not yet tiered (v11+, KIP-1023): none here
)

// timeLookup is a ListOffsets by timestamp finished after the broker's lock
// is released: the batch holding the answer, and where the answer goes.
type timeLookup struct {
	topic, partition int
	batch            storedBatch
	timestamp        int64
}

func (b *Broker) handleListOffsets(c *call, req *kafkamsg.ListOffsetsRequest) *kafkamsg.ListOffsetsResponse {
	resp := kafkamsg.NewListOffsetsResponse()
	var lookups []timeLookup
	b.mu.Lock()
	for _, rt := range req.Topics {
		t := b.topics[rt.Name]
		out := kafkamsg.ListOffsetsResponseListOffsetsTopicResponse{Name: rt.Name}
		for _, rp := range rt.Partitions {
			p := defaults[kafkamsg.ListOffsetsResponseListOffsetsPartitionResponse]()
			p.PartitionIndex = rp.PartitionIndex
			log := t.partition(rp.PartitionIndex)
			if log == nil {
				p.ErrorCode = kerrors.UnknownTopicOrPartition.Code
				if c.version == 0 {
					p.OldStyleOffsets = []int64{}
				}
				out.Partitions = append(out.Partitions, p)
				continue
			}
			offset, timestamp := int64(-1), int64(-1)
			switch rp.Timestamp {
			case latestTimestamp:
				offset = log.next
				if req.IsolationLevel == readCommitted {
					offset = log.lastStable()
				}
			case earliestTimestamp, earliestLocalTimestamp:
				offset = log.start
			case maxTimestamp:
				offset, timestamp = log.maxTimestamp()
			case latestTiered, earliestPendingUpload:
			default:
				if sb, ok := log.firstBatchReaching(rp.Timestamp); ok {
					lookups = append(lookups, timeLookup{topic: len(resp.Topics), partition: len(out.Partitions), batch: sb, timestamp: rp.Timestamp})
				}
			}
			if c.version == 0 {
				// v0 answers a list of offsets (at most MaxNumOffsets).
				p.OldStyleOffsets = []int64{}
				if offset >= 0 && rp.MaxNumOffsets > 0 {
					p.OldStyleOffsets = append(p.OldStyleOffsets, offset)
				}
			} else {
				p.Offset, p.Timestamp = offset, timestamp
			}
			if c.version >= 4 {
				p.LeaderEpoch = 0
			}
			out.Partitions = append(out.Partitions, p)
		}
		resp.Topics = append(resp.Topics, out)
	}
	b.mu.Unlock()
	for _, l := range lookups {
		offset, timestamp := c.rec.offsetForTime(&l.batch, l.timestamp)
		p := &resp.Topics[l.topic].Partitions[l.partition]
		if c.version == 0 {
			if offset >= 0 && len(p.OldStyleOffsets) == 0 && req.Topics[l.topic].Partitions[l.partition].MaxNumOffsets > 0 {
				p.OldStyleOffsets = append(p.OldStyleOffsets, offset)
			}
		} else {
			p.Offset, p.Timestamp = offset, timestamp
		}
	}
	return resp
}
