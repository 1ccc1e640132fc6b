package main

import (
	"math"
	"time"

	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/wire"
)

// Isolation levels of Fetch and ListOffsets.
const (
	readUncommitted int8 = 0
	readCommitted   int8 = 1
)

// fetchMagic is the newest record format a Fetch version can carry: older
// consumers get batches converted down, as Kafka does.
func fetchMagic(version int16) int8 {
	switch {
	case version <= 1:
		return 0
	case version <= 3:
		return 1
	}
	return 2
}

// handleFetch answers a Fetch, waiting up to MaxWaitMs for MinBytes of data
// (a long poll) unless the first look already has enough or finds an error.
func (b *Broker) handleFetch(c *call, req *kafkamsg.FetchRequest) *kafkamsg.FetchResponse {
	resp := kafkamsg.NewFetchResponse()
	// Fetch sessions (v7+) are not kept: a session id of 0 in the answer
	// tells the client so, and it keeps sending full fetches. An
	// incremental fetch of a session this broker never created is refused.
	if c.version >= 7 && (req.SessionID != 0 || req.SessionEpoch > 0) {
		resp.ErrorCode = wire.FetchSessionIDNotFound.Code
		return resp
	}
	deadline := time.Now().Add(time.Duration(req.MaxWaitMs) * time.Millisecond)
	for {
		b.mu.Lock()
		wake := b.appended
		size, failed := b.fillFetch(c, req, resp)
		b.mu.Unlock()
		wait := time.Until(deadline)
		if failed || size >= int(req.MinBytes) || wait <= 0 {
			return resp
		}
		timer := time.NewTimer(wait)
		select {
		case <-wake:
		case <-timer.C:
		case <-c.ctx.Done():
		}
		timer.Stop()
		if c.ctx.Err() != nil {
			return resp
		}
	}
}

// fillFetch (re)builds the response from the logs and returns the bytes of
// records it holds and whether a partition failed. b.mu must be held.
func (b *Broker) fillFetch(c *call, req *kafkamsg.FetchRequest, resp *kafkamsg.FetchResponse) (size int, failed bool) {
	resp.Responses = resp.Responses[:0]
	maxBytes := int(req.MaxBytes)
	if c.version < 3 { // no response limit before v3
		maxBytes = math.MaxInt32
	}
	magic := fetchMagic(c.version)
	for _, ft := range req.Topics {
		var t *topic
		rt := kafkamsg.FetchResponseFetchableTopicResponse{}
		missing := wire.UnknownTopicOrPartition.Code
		if c.version >= 13 {
			t, rt.TopicID, missing = b.topicIDs[ft.TopicID], ft.TopicID, wire.UnknownTopicID.Code
		} else {
			t, rt.Topic = b.topics[ft.Topic], ft.Topic
		}
		for _, fp := range ft.Partitions {
			p := defaults[kafkamsg.FetchResponsePartitionData]()
			p.PartitionIndex = fp.Partition
			p.AbortedTransactions = nil // null unless read_committed, as Kafka answers
			log := t.partition(fp.Partition)
			if log == nil {
				p.ErrorCode, p.HighWatermark = missing, -1
				if c.version < 4 {
					p.LastStableOffset = -1
				}
				rt.Partitions = append(rt.Partitions, p)
				failed = true
				continue
			}
			p.HighWatermark = log.next
			if c.version >= 4 {
				p.LastStableOffset = log.lastStable()
			}
			if c.version >= 5 {
				p.LogStartOffset = log.start
			}
			if fp.FetchOffset < log.start || fp.FetchOffset > log.next {
				p.ErrorCode = wire.OffsetOutOfRange.Code
				rt.Partitions = append(rt.Partitions, p)
				failed = true
				continue
			}
			upTo := log.next
			if req.IsolationLevel == readCommitted {
				upTo = log.lastStable()
			}
			limit := min(int(fp.PartitionMaxBytes), maxBytes-size)
			var last int64
			p.Records, last = c.rec.fetchRecords(log, fp.FetchOffset, upTo, limit, size == 0, magic)
			size += len(p.Records)
			if c.version >= 4 && req.IsolationLevel == readCommitted {
				p.AbortedTransactions = []kafkamsg.FetchResponseAbortedTransaction{}
				if len(p.Records) > 0 {
					for _, a := range log.abortedIn(fp.FetchOffset, last) {
						p.AbortedTransactions = append(p.AbortedTransactions, kafkamsg.FetchResponseAbortedTransaction{ProducerID: a.producerID, FirstOffset: a.firstOffset})
					}
				}
			}
			rt.Partitions = append(rt.Partitions, p)
		}
		resp.Responses = append(resp.Responses, rt)
	}
	return size, failed
}
