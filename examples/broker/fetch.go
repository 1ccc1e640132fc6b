package main

import (
	"errors"
	"time"

	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/wire/kerrors"
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

// partitionRead is a partition of a Fetch answer whose records are
// gathered once the broker's lock is released: the batches chosen under it,
// and where the answer sits in the response.
type partitionRead struct {
	topic, partition int // indices into the response
	batches          []storedBatch
	offset           int64
	maxBytes         int
	takeFirst        bool
}

// handleFetch answers a Fetch, waiting up to MaxWaitMs for MinBytes of data
// (a long poll) unless the first look already has enough or finds an error.
// Under the broker's lock it only chooses the batches; their bytes are
// copied (or converted down) into the answer after it, once they fit in
// the server's answer budget.
func (b *Broker) handleFetch(c *call, req *kafkamsg.FetchRequest) *kafkamsg.FetchResponse {
	resp := kafkamsg.NewFetchResponse()
	// Fetch sessions (v7+) are not kept: a session id of 0 in the answer
	// tells the client so, and it keeps sending full fetches. An
	// incremental fetch of a session this broker never created is refused.
	if c.version >= 7 && (req.SessionID != 0 || req.SessionEpoch > 0) {
		resp.ErrorCode = kerrors.FetchSessionIDNotFound.Code
		return resp
	}
	deadline := time.Now().Add(time.Duration(req.MaxWaitMs) * time.Millisecond)
	var reads []partitionRead
	var size int
	for {
		b.mu.Lock()
		wake := b.appended
		var failed bool
		reads, size, failed = b.fillFetch(c, req, resp, reads[:0])
		b.mu.Unlock()
		wait := time.Until(deadline)
		if failed || size >= int(req.MinBytes) || wait <= 0 {
			break
		}
		timer := time.NewTimer(wait)
		select {
		case <-wake:
		case <-timer.C:
		case <-c.ctx.Done():
		}
		timer.Stop()
		if c.ctx.Err() != nil {
			break
		}
	}
	if c.answer != nil {
		if err := c.answer.take(c.ctx, int64(size)); err != nil {
			return resp // the connection or the server is closing: no records
		}
	}
	magic := fetchMagic(c.version)
	for _, r := range reads {
		p := &resp.Responses[r.topic].Partitions[r.partition]
		var err error
		if p.Records, err = c.rec.fetchRecords(r.batches, r.offset, r.maxBytes, r.takeFirst, magic); err != nil {
			p.ErrorCode = downConvertError(err)
		}
	}
	if b.versions.release != "" {
		recordsNeverNull(resp)
	}
	return resp
}

// fillFetch (re)builds the response from the logs, but for the records,
// which it chooses into reads. It returns the bytes of records chosen and
// whether a partition failed. b.mu must be held.
func (b *Broker) fillFetch(c *call, req *kafkamsg.FetchRequest, resp *kafkamsg.FetchResponse, reads []partitionRead) (_ []partitionRead, size int, failed bool) {
	resp.Responses = resp.Responses[:0]
	maxBytes := b.fetchMaxBytes // the broker's clamp (fetch.max.bytes)
	if c.version >= 3 {         // no response limit of the client's before v3
		maxBytes = min(maxBytes, int(req.MaxBytes))
	}
	for _, ft := range req.Topics {
		var t *topic
		rt := kafkamsg.FetchResponseFetchableTopicResponse{}
		missing := kerrors.UnknownTopicOrPartition.Code
		if c.version >= 13 {
			t, rt.TopicID, missing = b.topicIDs[ft.TopicID], ft.TopicID, kerrors.UnknownTopicID.Code
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
				p.ErrorCode = kerrors.OffsetOutOfRange.Code
				rt.Partitions = append(rt.Partitions, p)
				failed = true
				continue
			}
			upTo := log.next
			if req.IsolationLevel == readCommitted {
				upTo = log.lastStable()
			}
			r := partitionRead{topic: len(resp.Responses), partition: len(rt.Partitions), offset: fp.FetchOffset,
				maxBytes: max(0, min(int(fp.PartitionMaxBytes), maxBytes-size)), takeFirst: size == 0}
			var n int
			r.batches, n = log.batchesFor(fp.FetchOffset, upTo, r.maxBytes, r.takeFirst)
			size += n
			reads = append(reads, r)
			if c.version >= 4 && req.IsolationLevel == readCommitted {
				p.AbortedTransactions = []kafkamsg.FetchResponseAbortedTransaction{}
				if len(r.batches) > 0 {
					last := r.batches[len(r.batches)-1].LastOffset
					for _, a := range log.abortedIn(fp.FetchOffset, last) {
						p.AbortedTransactions = append(p.AbortedTransactions, kafkamsg.FetchResponseAbortedTransaction{ProducerID: a.producerID, FirstOffset: a.firstOffset})
					}
				}
			}
			rt.Partitions = append(rt.Partitions, p)
		}
		resp.Responses = append(resp.Responses, rt)
	}
	return reads, size, failed
}

// recordsNeverNull gives every partition without records an empty records
// field, as Kafka 4 answers (no null records, even beside an error).
func recordsNeverNull(resp *kafkamsg.FetchResponse) {
	for i := range resp.Responses {
		for j := range resp.Responses[i].Partitions {
			if p := &resp.Responses[i].Partitions[j]; p.Records == nil {
				p.Records = []byte{}
			}
		}
	}
}

// downConvertError is the error code of a partition whose batches could not
// be converted for a Fetch before v4: UNSUPPORTED_COMPRESSION_TYPE for
// zstd, which no message set carries (docs/protocol.md,
// "Down-conversion"), else CORRUPT_MESSAGE (the log holds only batches it
// read back, so unexpected).
func downConvertError(err error) int16 {
	if errors.Is(err, records.ErrZstdDownConvert) {
		return kerrors.UnsupportedCompressionType.Code
	}
	return kerrors.CorruptMessage.Code
}
