package main

import "github.com/kafkagen/kafkagen/wire/kerrors"

// Idempotent producers: per partition and producer id, the broker remembers
// the last few batches' sequence ranges so that a retried batch is answered
// with its first offset instead of being written twice, and a gap is refused.

// recentBatches is how many batches per producer Kafka keeps for duplicate
// detection (it also caps in-flight requests of idempotent producers at 5).
const recentBatches = 5

type sequencedBatch struct {
	firstSeq, lastSeq int32
	baseOffset        int64
}

type producerSequence struct {
	epoch  int16
	recent []sequencedBatch // oldest first, at most recentBatches
}

// sequenceCheck is the outcome of checking a batch's sequence numbers.
type sequenceCheck struct {
	duplicateOffset int64 // base offset of the earlier copy, or -1
	errorCode       int16 // 0 when the batch may be appended
}

// checkSequence decides whether a batch of an idempotent producer may be
// appended: in order, a retried duplicate, or out of order.
func (l *partitionLog) checkSequence(m batchMeta) sequenceCheck {
	ok := sequenceCheck{duplicateOffset: -1}
	if m.ProducerID < 0 || m.Control {
		return ok
	}
	s := l.sequence[m.ProducerID]
	switch {
	case s == nil || m.ProducerEpoch > s.epoch:
		// A new producer, or a new epoch, starts where it likes (Kafka
		// requires 0 there but accepts the first batch of an unknown
		// producer on a log that lost its state, as this one never does).
		return ok
	case m.ProducerEpoch < s.epoch:
		return sequenceCheck{duplicateOffset: -1, errorCode: kerrors.InvalidProducerEpoch.Code}
	}
	last := m.BaseSequence + int32(m.LastOffset-m.BaseOffset)
	for _, r := range s.recent {
		if r.firstSeq == m.BaseSequence && r.lastSeq == last {
			return sequenceCheck{duplicateOffset: r.baseOffset}
		}
	}
	want := s.recent[len(s.recent)-1].lastSeq + 1
	if want < 0 { // sequences wrap after MaxInt32
		want = 0
	}
	if m.BaseSequence != want {
		return sequenceCheck{duplicateOffset: -1, errorCode: kerrors.OutOfOrderSequenceNumber.Code}
	}
	return ok
}

// recordSequence remembers an appended batch of an idempotent producer.
func (l *partitionLog) recordSequence(m batchMeta, baseOffset int64) {
	if m.ProducerID < 0 || m.Control {
		return
	}
	s := l.sequence[m.ProducerID]
	if s == nil || m.ProducerEpoch > s.epoch {
		s = &producerSequence{epoch: m.ProducerEpoch}
		l.sequence[m.ProducerID] = s
	}
	last := m.BaseSequence + int32(m.LastOffset-m.BaseOffset)
	if len(s.recent) == recentBatches {
		s.recent = append(s.recent[:0], s.recent[1:]...)
	}
	s.recent = append(s.recent, sequencedBatch{firstSeq: m.BaseSequence, lastSeq: last, baseOffset: baseOffset})
}
