package main

import (
	"encoding/binary"
	"sort"
)

// batchMeta is what the log keeps about a stored v2 batch besides its bytes:
// enough to answer Fetch, ListOffsets and the transaction questions without
// reading the batch again.
type batchMeta struct {
	BaseOffset     int64
	LastOffset     int64
	FirstTimestamp int64
	MaxTimestamp   int64
	ProducerID     int64
	ProducerEpoch  int16
	BaseSequence   int32
	Transactional  bool
	Control        bool
}

// storedBatch is one v2 record batch in a partition's log.
type storedBatch struct {
	batchMeta
	data []byte // the whole batch, its base offset set to BaseOffset
}

// abortedTxn is an aborted transaction's span in one partition, as Fetch
// reports it to read_committed consumers.
type abortedTxn struct {
	producerID  int64
	firstOffset int64
	lastOffset  int64 // the offset of the abort marker
}

// partitionLog is one partition's log: v2 batches in offset order, held
// in memory and, with -data-dir, in segment files. It is not safe for
// concurrent use; the broker's lock guards it.
type partitionLog struct {
	file     *segmentLog // nil: memory only
	batches  []storedBatch
	next     int64 // the log end offset (the high watermark: one replica)
	start    int64 // the log start offset
	bytes    int64
	ongoing  map[int64]int64 // producer id -> first offset of its open transaction
	aborted  []abortedTxn
	sequence map[int64]*producerSequence
}

func newPartitionLog() *partitionLog {
	return &partitionLog{ongoing: map[int64]int64{}, sequence: map[int64]*producerSequence{}}
}

// v2 batch header positions (Kafka's DefaultRecordBatch). The checksum
// covers the bytes from the attributes on.
const (
	batchBaseOffsetPos   = 0
	batchLeaderEpochPos  = 12
	batchCRCPos          = 17
	batchAttributesPos   = 21
	batchMaxTimestampPos = 35
)

// appendBatch assigns the batch the next offsets and stores it, in the
// segment files first when there are some: it returns the base offset and
// the position syncTo must reach for the batch to be durable. data must be
// a whole v2 batch that the log may keep (not aliasing a reused buffer);
// meta.LastOffset-meta.BaseOffset is the batch's last offset delta. On an
// error nothing was stored.
func (l *partitionLog) appendBatch(meta batchMeta, data []byte) (base, syncPos int64, err error) {
	delta := meta.LastOffset - meta.BaseOffset
	meta.BaseOffset = l.next
	meta.LastOffset = l.next + delta
	// The base offset and leader epoch are outside the CRC (it covers the
	// attributes onward), so a broker rewrites them in place.
	binary.BigEndian.PutUint64(data[batchBaseOffsetPos:], uint64(meta.BaseOffset))
	binary.BigEndian.PutUint32(data[batchLeaderEpochPos:], 0)
	if l.file != nil {
		if syncPos, err = l.file.append(meta.BaseOffset, data); err != nil {
			return -1, 0, err
		}
	}
	l.store(meta, data)
	return meta.BaseOffset, syncPos, nil
}

// store adds a batch whose offsets are set to the in-memory log.
func (l *partitionLog) store(meta batchMeta, data []byte) {
	l.batches = append(l.batches, storedBatch{batchMeta: meta, data: data})
	l.next = meta.LastOffset + 1
	l.bytes += int64(len(data))
	if meta.Transactional && !meta.Control {
		if _, open := l.ongoing[meta.ProducerID]; !open {
			l.ongoing[meta.ProducerID] = meta.BaseOffset
		}
	}
}

// syncPosition is where syncTo makes everything appended so far durable
// (0 without segment files).
func (l *partitionLog) syncPosition() int64 {
	if l.file == nil {
		return 0
	}
	return l.file.written.Load()
}

// endTxn closes a producer's open transaction on this partition after its
// marker was appended at markerOffset. It reports whether one was open.
func (l *partitionLog) endTxn(producerID int64, markerOffset int64, commit bool) bool {
	first, open := l.ongoing[producerID]
	if !open {
		return false
	}
	delete(l.ongoing, producerID)
	if !commit {
		l.aborted = append(l.aborted, abortedTxn{producerID: producerID, firstOffset: first, lastOffset: markerOffset})
	}
	return true
}

// lastStable is the last stable offset: the first offset of the oldest open
// transaction, or the log end when none is open.
func (l *partitionLog) lastStable() int64 {
	lso := l.next
	for _, first := range l.ongoing {
		lso = min(lso, first)
	}
	return lso
}

// find returns the index of the batch holding offset, or len(batches) when
// offset is at or past the log end.
func (l *partitionLog) find(offset int64) int {
	return sort.Search(len(l.batches), func(i int) bool { return l.batches[i].LastOffset >= offset })
}

// batchesFor returns the batches a read from offset gets: whole batches
// from the one holding offset, ending before upTo, while their total stays
// within maxBytes (the first one even when larger, KIP-74, if takeFirst),
// and their total size. The result shares the log's array: a stored batch
// never changes once appended and the log only grows, so the caller may
// read it after releasing the broker's lock, which is what keeps copying
// records out of that lock.
func (l *partitionLog) batchesFor(offset, upTo int64, maxBytes int, takeFirst bool) ([]storedBatch, int) {
	first := l.find(offset)
	end, size := first, 0
	for ; end < len(l.batches); end++ {
		b := &l.batches[end]
		if b.LastOffset >= upTo || size+len(b.data) > maxBytes && !(takeFirst && end == first) {
			break
		}
		size += len(b.data)
	}
	return l.batches[first:end:end], size
}

// joinBatches is the records blob of whole batches: the one batch's own
// bytes (read only), or a copy of them all one after the other.
func joinBatches(batches []storedBatch) []byte {
	switch len(batches) {
	case 0:
		return []byte{}
	case 1:
		return batches[0].data
	}
	size := 0
	for i := range batches {
		size += len(batches[i].data)
	}
	out := make([]byte, 0, size)
	for i := range batches {
		out = append(out, batches[i].data...)
	}
	return out
}

// abortedIn lists the aborted transactions whose span overlaps
// [from, to], as Fetch returns them to read_committed consumers.
func (l *partitionLog) abortedIn(from, to int64) []abortedTxn {
	var out []abortedTxn
	for _, a := range l.aborted {
		if a.lastOffset >= from && a.firstOffset <= to {
			out = append(out, a)
		}
	}
	return out
}

// firstBatchReaching returns the first data batch whose max timestamp is at
// or after ts: the one holding the first record at or after ts, since a
// stored batch's max timestamp is its records' largest.
func (l *partitionLog) firstBatchReaching(ts int64) (storedBatch, bool) {
	for _, b := range l.batches {
		if !b.Control && b.MaxTimestamp >= ts {
			return b, true
		}
	}
	return storedBatch{}, false
}

// maxTimestamp is the offset and timestamp of the batch with the largest
// timestamp (ListOffsets' MAX_TIMESTAMP), or -1, -1 for an empty log.
func (l *partitionLog) maxTimestamp() (offset, timestamp int64) {
	offset, timestamp = -1, -1
	for _, b := range l.batches {
		if !b.Control && b.MaxTimestamp > timestamp {
			offset, timestamp = b.LastOffset, b.MaxTimestamp
		}
	}
	return offset, timestamp
}
