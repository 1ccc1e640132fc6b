package records

import (
	"encoding/binary"
	"strconv"
)

// RecordReader iterates the records of one batch. Uncompressed batches are
// read in place; compressed ones are decompressed into the Decompressor's
// buffer. Either way nothing is allocated in steady state, and each Record
// aliases the batch or the buffer until the next Reset.
//
//	var rr records.RecordReader
//	var rec records.Record
//	if err := rr.Reset(batch, &dec); err != nil { ... }
//	for rr.Next(&rec) { ... }
//	if err := rr.Err(); err != nil { ... }
type RecordReader struct {
	data  []byte // the records, decompressed
	p     int    // position of the next record in data
	i     int    // index of the next record
	count int    // records in a v2 batch; -1 for a legacy inner set
	err   error

	pos       int   // the batch's position in its blob, for errors
	base      int64 // the batch's base offset
	magic     int8
	baseTime  int64
	maxTime   int64
	appendTS  bool // LogAppendTime: every record has maxTime
	baseSeq   int32
	attrs     Attributes
	single    bool  // an uncompressed legacy message: one record, data is its key and value
	rawSize   int   // that message's whole size
	innerBase int64 // what magic 1 adds to its relative inner offsets

	// fast is count in a v2 batch until an error, else 0: Next tries its
	// fast path while i is below it.
	fast int
	// general counts the v2 records read by the general decoder.
	general int
	// A v2 record's timestamp is tsBase + TimestampDelta&tsMask: the base
	// timestamp and all ones, or for LogAppendTime the max timestamp and 0.
	tsBase, tsMask int64
	// A v2 record's sequence is baseSeq + OffsetDelta, its top bit flipped
	// when the delta as a uint32 is above seqWrap (Kafka's
	// incrementSequence wrapping past MaxInt32; a negative delta always
	// wraps there), or'ed with seqNone: -1 without a base sequence.
	seqWrap uint32
	seqNone int32
}

// Reset starts reading the records of b, decompressing them with d when b
// is compressed (d may be nil for uncompressed batches). It reports
// decompression errors and, for a compressed legacy wrapper, an inner
// message set it cannot find the last offset of.
func (rr *RecordReader) Reset(b *Batch, d *Decompressor) error {
	*rr = RecordReader{
		data: b.Records, count: int(b.NumRecords), pos: b.Pos, base: b.BaseOffset, magic: b.Magic,
		baseTime: b.BaseTimestamp, maxTime: b.MaxTimestamp, appendTS: b.TimestampType() == LogAppendTime,
		baseSeq: b.BaseSequence, attrs: b.Attributes,
	}
	codec := b.Compression()
	if b.Magic < MagicV2 && codec == CompressionNone {
		rr.single, rr.rawSize = true, len(b.Raw)
		return nil
	}
	if codec != CompressionNone {
		if d == nil {
			return rr.fail(batchError(b.Pos, b.BaseOffset, "records", ErrCompression, codec.String()+" batch read without a Decompressor"))
		}
		data, err := d.Decompress(codec, b.Magic, b.Records)
		if err != nil {
			return rr.fail(atBatch(err, b.Pos, b.BaseOffset, "records"))
		}
		rr.data = data
	}
	if b.Magic < MagicV2 {
		return rr.findInnerBase()
	}
	rr.startV2()
	return nil
}

// startV2 readies Next's fast path for the records of a v2 batch, from the
// batch's count, timestamps and base sequence.
func (rr *RecordReader) startV2() {
	rr.fast, rr.tsBase, rr.tsMask = rr.count, rr.baseTime, -1
	if rr.appendTS {
		rr.tsBase, rr.tsMask = rr.maxTime, 0
	}
	rr.seqWrap, rr.seqNone = uint32(1<<31-1-rr.baseSeq), 0
	if rr.baseSeq < 0 {
		rr.seqNone = NoSequence
	}
}

// sequence is the sequence of the record at offsetDelta in a v2 batch:
// addSequence(rr.baseSeq, offsetDelta), or -1 without a base sequence,
// computed without a branch. Kafka's wrap subtracts 1<<31 from the int32
// sum, which flips its top bit.
func (rr *RecordReader) sequence(offsetDelta int32) int32 {
	seq := rr.baseSeq + offsetDelta
	if uint32(offsetDelta) > rr.seqWrap {
		seq ^= -1 << 31
	}
	return seq | rr.seqNone
}

// findInnerBase walks a legacy inner message set by its lengths to find its
// last offset: magic 1 stores inner offsets relative to it, the wrapper's
// offset being the last inner message's absolute offset.
func (rr *RecordReader) findInnerBase() error {
	last, n := int64(-1), 0
	for p := 0; p < len(rr.data); n++ {
		if len(rr.data)-p < logOverhead {
			return rr.fail(rr.recordError(n, p, "length", ErrTruncated, strconv.Itoa(len(rr.data)-p)+" bytes after the last inner message"))
		}
		size := int32(binary.BigEndian.Uint32(rr.data[p+legacyLengthPos:]))
		if size < legacyMinSizeV0 || int(size) > len(rr.data)-p-logOverhead {
			return rr.fail(rr.recordError(n, p, "length", ErrInvalidLength, "inner message length "+strconv.Itoa(int(size))+
				" with "+strconv.Itoa(len(rr.data)-p-logOverhead)+" bytes left"))
		}
		last = int64(binary.BigEndian.Uint64(rr.data[p:]))
		p += logOverhead + int(size)
	}
	if n == 0 {
		return rr.fail(batchError(rr.pos, rr.base, "records", ErrInvalidRecord, "a compressed wrapper with no inner messages"))
	}
	if rr.magic == MagicV1 {
		rr.innerBase = rr.base - last
	}
	return nil
}

// next is Next for legacy messages, the end of a batch, and the v2 records
// Next's fast path leaves to the general decoder (which also finds the
// errors).
func (rr *RecordReader) next(r *Record) bool {
	if rr.err != nil {
		return false
	}
	switch {
	case rr.single:
		return rr.nextSingle(r)
	case rr.magic < MagicV2:
		return rr.nextInner(r)
	}
	if rr.i >= rr.count {
		if rr.p != len(rr.data) && rr.i == rr.count {
			rr.err = rr.recordError(rr.i, rr.p, "records", ErrRecordCount,
				strconv.Itoa(len(rr.data)-rr.p)+" bytes after the batch's "+strconv.Itoa(rr.count)+" records")
		}
		rr.i = rr.count + 1
		return false
	}
	if rr.p >= len(rr.data) {
		rr.err, rr.fast = rr.recordError(rr.i, rr.p, "records", ErrRecordCount,
			"the records end after "+strconv.Itoa(rr.i)+" of the batch's "+strconv.Itoa(rr.count)), 0
		return false
	}
	rr.general++
	next, fe := r.decodeV2(rr.data, rr.p)
	if fe != nil {
		rr.err, rr.fast = rr.recordError(rr.i, rr.p, fe.field, fe.err, fe.detail), 0
		return false
	}
	r.Offset = rr.base + int64(r.OffsetDelta)
	r.Timestamp = rr.tsBase + r.TimestampDelta&rr.tsMask
	r.Sequence = rr.sequence(r.OffsetDelta)
	rr.p = next
	rr.i++
	return true
}

// nextSingle returns an uncompressed legacy message as its one record.
func (rr *RecordReader) nextSingle(r *Record) bool {
	if rr.i > 0 {
		return false
	}
	rr.i++
	key, value, fe := splitKeyValue(rr.data) // checked when the batch was read
	if fe != nil {
		rr.err = rr.recordError(0, 0, fe.field, fe.err, fe.detail)
		return false
	}
	*r = Record{Offset: rr.base, Timestamp: rr.baseTime, Key: key, Value: value, Headers: r.Headers[:0],
		Attributes: int8(rr.attrs), Sequence: NoSequence, Size: rr.rawSize}
	return true
}

// nextInner reads the next message of a decompressed legacy wrapper.
func (rr *RecordReader) nextInner(r *Record) bool {
	if rr.p >= len(rr.data) {
		return false
	}
	var inner Batch
	res, err := inner.parse(rr.data[rr.p:], rr.p, true)
	switch {
	case res == readPartial:
		rr.err = rr.recordError(rr.i, rr.p, "length", ErrTruncated, "inner message past the end of the wrapper")
	case err != nil:
		e := err.(*Error)
		rr.err = rr.recordError(rr.i, rr.p, e.Field, e.Err, e.Detail)
	case inner.Magic != rr.magic:
		rr.err = rr.recordError(rr.i, rr.p, "magic", ErrMagic, "inner magic "+strconv.Itoa(int(inner.Magic))+
			" in a magic "+strconv.Itoa(int(rr.magic))+" wrapper")
	case inner.Compression() != CompressionNone:
		rr.err = rr.recordError(rr.i, rr.p, "attributes", ErrInvalidRecord, "a compressed message inside a compressed wrapper")
	}
	if rr.err != nil {
		return false
	}
	key, value, _ := splitKeyValue(inner.Records) // checked by parse
	ts := inner.BaseTimestamp
	if rr.appendTS {
		ts = rr.maxTime
	}
	*r = Record{Offset: rr.innerBase + inner.BaseOffset, Timestamp: ts, Key: key, Value: value, Headers: r.Headers[:0],
		Attributes: int8(inner.Attributes), Sequence: NoSequence, Size: len(inner.Raw)}
	rr.p += len(inner.Raw)
	rr.i++
	return true
}

// Err is the error that stopped Next, or the one Reset returned.
func (rr *RecordReader) Err() error { return rr.err }

func (rr *RecordReader) fail(err error) error {
	rr.err, rr.fast = err, 0
	rr.single, rr.count, rr.data, rr.magic = false, 0, nil, MagicV2
	return err
}

func (rr *RecordReader) recordError(i, p int, field string, err error, detail string) error {
	return &Error{Pos: rr.pos, BaseOffset: rr.base, Record: i, RecordPos: p, Field: field, Err: err, Detail: detail}
}

// atBatch places a codec's error at a batch.
func atBatch(err error, pos int, base int64, field string) error {
	e, ok := err.(*Error)
	if !ok {
		return batchError(pos, base, field, ErrCorrupt, err.Error())
	}
	out := *e
	out.Pos, out.BaseOffset = pos, base
	if out.Field == "" {
		out.Field = field
	}
	return &out
}
