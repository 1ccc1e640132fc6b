package load

import (
	"encoding/binary"
	"fmt"
	"time"
)

// stream is one producer's records to one partition: what was
// acknowledged (written by the producer's slot) and what was read back
// (written by the partition's consumer), compared once both are done.
type stream struct {
	producer  int
	partition int32

	// The producer's side.
	nextSeq   int32
	acked     []ackedBatch
	latencies []time.Duration
	uncertain int   // records of the failed request: in the log or not
	err       error // why the stream stopped early

	// The consumer's side: read[seq] is the offset the record with that
	// sequence was read at (-1: skipped over, a gap).
	read      []int64
	dup, gaps int
}

// ackedBatch is an acknowledged batch: its sequences and where the broker
// said it put them.
type ackedBatch struct {
	firstSeq   int32
	baseOffset int64
	count      int32
}

// failed ends the stream on a request whose n records may or may not be in
// the log.
func (s *stream) failed(n int, err error) {
	s.uncertain, s.err = n, fmt.Errorf("producer %d partition %d: %w", s.producer, s.partition, err)
}

// readBack notes the record with sequence seq read at offset: the next one
// expected, one after a gap (out of order), one that fills a gap, or an
// earlier one again (a duplicate).
func (s *stream) readBack(seq int32, offset int64) {
	switch next := int32(len(s.read)); {
	case seq == next:
		s.read = append(s.read, offset)
	case seq < next && s.read[seq] < 0: // late, after a gap counted
		s.read[seq] = offset
	case seq < next:
		s.dup++
	default:
		s.gaps++
		for range seq - next {
			s.read = append(s.read, -1)
		}
		s.read = append(s.read, offset)
	}
}

// tally compares what was acknowledged with what was read: an acknowledged
// record not read is lost; one read at another offset than acknowledged
// counts as reordered, and so does each jump over a gap in the sequence; a
// record read twice, or never sent (beyond the acknowledged and the
// uncertain ones), is a duplicate.
func (s *stream) tally() (acked, lost, dup, reordered int) {
	reordered, dup = s.gaps, s.dup
	for _, b := range s.acked {
		for j := range b.count {
			acked++
			seq := int(b.firstSeq + j)
			switch {
			case seq >= len(s.read) || s.read[seq] < 0:
				lost++
			case s.read[seq] != b.baseOffset+int64(j):
				reordered++
			}
		}
	}
	if extra := len(s.read) - acked - s.uncertain; extra > 0 {
		dup += extra
	}
	return acked, lost, dup, reordered
}

// recordOf reads the producer, partition and sequence a value names.
func recordOf(value []byte) (producer int, partition, seq int32, ok bool) {
	if len(value) < valueHeader {
		return 0, 0, 0, false
	}
	return int(binary.BigEndian.Uint32(value)), int32(binary.BigEndian.Uint32(value[4:])), int32(binary.BigEndian.Uint32(value[8:])), true
}
