package bench

import (
	"encoding/binary"
	"hash/crc32"
	"testing"

	"github.com/IBM/sarama"
	"github.com/kafkagen/kafkagen/conformance/diff/saramashim"
	"github.com/kafkagen/kafkagen/records"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Reading the records of a Fetch response (see recordset_test.go). Every
// reader sums the same lengths, headers walked by index (a range loop's
// copy of each header would cost the harness more than some readers).

func rsReadOurs(r *records.Reader, rr *records.RecordReader, rec *records.Record, blob []byte) rsSummary {
	var s rsSummary
	r.Reset(blob)
	for r.Next() {
		if rr.Reset(r.Batch(), nil) != nil {
			panic(rr.Err())
		}
		for rr.Next(rec) {
			s.records++
			s.bytes += len(rec.Key) + len(rec.Value)
			for i := range rec.Headers {
				s.bytes += len(rec.Headers[i].Key) + len(rec.Headers[i].Value)
			}
		}
		if rr.Err() != nil {
			panic(rr.Err())
		}
	}
	if r.Err() != nil {
		panic(r.Err())
	}
	return s
}

// rsReadKmsg reads each batch with kmsg (ReadFrom, or UnsafeReadFrom when
// unsafe, which aliases header keys as strings), checks its CRC, and reads
// each record from its length.
func rsReadKmsg(batch *kmsg.RecordBatch, rec *kmsg.Record, blob []byte, unsafe bool) rsSummary {
	var s rsSummary
	for len(blob) > 0 {
		n := 12 + int(binary.BigEndian.Uint32(blob[8:]))
		if err := batch.ReadFrom(blob[:n]); err != nil {
			panic(err)
		}
		if uint32(batch.CRC) != crc32.Checksum(blob[21:n], castagnoli) {
			panic("crc")
		}
		blob = blob[n:]
		raw := batch.Records
		for i := int32(0); i < batch.NumRecords; i++ {
			length, k := binary.Varint(raw)
			end := k + int(length)
			var err error
			if unsafe {
				err = rec.UnsafeReadFrom(raw[:end])
			} else {
				err = rec.ReadFrom(raw[:end])
			}
			if err != nil {
				panic(err)
			}
			raw = raw[end:]
			s.records++
			s.bytes += len(rec.Key) + len(rec.Value)
			for i := range rec.Headers {
				s.bytes += len(rec.Headers[i].Key) + len(rec.Headers[i].Value)
			}
		}
	}
	return s
}

// rsFetchBody wraps blob in a v4 Fetch response for sarama's decoder.
func rsFetchBody(blob []byte) []byte {
	resp := kmsg.NewFetchResponse()
	resp.Version = 4
	p := kmsg.NewFetchResponseTopicPartition()
	p.RecordBatches = blob
	t := kmsg.NewFetchResponseTopic()
	t.Topic = "t"
	t.Partitions = append(t.Partitions, p)
	resp.Topics = append(resp.Topics, t)
	return resp.AppendTo(nil)
}

func rsReadSarama(body []byte) rsSummary {
	resp := &sarama.FetchResponse{}
	if err := saramashim.Decode(body, saramashim.Decoder(resp), 4); err != nil {
		panic(err)
	}
	var s rsSummary
	for _, set := range resp.GetBlock("t", 0).RecordsSet {
		for _, r := range set.RecordBatch.Records {
			s.records++
			s.bytes += len(r.Key) + len(r.Value)
			for i := range r.Headers {
				s.bytes += len(r.Headers[i].Key) + len(r.Headers[i].Value)
			}
		}
	}
	return s
}

// rsVarint reads a zigzag varint, its one- and two-byte forms inline (as
// the floors' fastest way to follow a length), and its length.
func rsVarint(b []byte) (int, int) {
	if len(b) > 0 && b[0] < 0x80 {
		return int(b[0]>>1) ^ -int(b[0]&1), 1
	}
	if len(b) > 1 && b[1] < 0x80 {
		u := int(b[0]&0x7f) | int(b[1])<<7
		return u>>1 ^ -(u & 1), 2
	}
	v, n := binary.Varint(b)
	return int(v), n
}

// The floors check each batch's CRC with records.CRC32C, the fastest
// CRC-32C this machine has (VPCLMULQDQ where the CPU has it), so that no
// reader can check it faster.

// rsWalk is the floor under reading: each batch's CRC, then its records'
// lengths followed to the end, nothing else read.
func rsWalk(blob []byte) rsSummary {
	var s rsSummary
	for len(blob) > 0 {
		n := 12 + int(binary.BigEndian.Uint32(blob[8:]))
		if binary.BigEndian.Uint32(blob[17:]) != records.CRC32C(blob[21:n]) {
			panic("crc")
		}
		raw := blob[61:n]
		for len(raw) > 0 {
			length, k := rsVarint(raw)
			raw = raw[k+length:]
			s.records++
		}
		blob = blob[n:]
	}
	return s
}

// rsWalkFields is the floor under any reader that finds every key, value
// and header: each batch's CRC, then every varint of every record
// followed, one and two bytes in line, the lengths summed as the readers
// sum them; nothing stored and nothing checked but Go's bounds (a null is
// length 0). Written as tightly as a loop can be.
func rsWalkFields(blob []byte) rsSummary {
	var s rsSummary
	for len(blob) > 0 {
		n := 12 + int(binary.BigEndian.Uint32(blob[8:]))
		if binary.BigEndian.Uint32(blob[17:]) != records.CRC32C(blob[21:n]) {
			panic("crc")
		}
		data := blob[61:n]
		blob = blob[n:]
		for p := 0; p < len(data); {
			u := uint(data[p])
			if p++; u >= 0x80 {
				u = u&0x7f | uint(data[p])<<7
				p++
			}
			end := p + int(u>>1)
			rec := data[:end]
			i := p + 1 // after the attributes: the two deltas
			if rec[i] >= 0x80 {
				i++
			}
			if i++; rec[i] >= 0x80 {
				i++
			}
			i++
			for range 2 { // key and value
				if u, i = uint(rec[i]), i+1; u >= 0x80 {
					u, i = u&0x7f|uint(rec[i])<<7, i+1
				}
				i += int(u >> 1)
				s.bytes += int(u >> 1)
			}
			headers := int(rec[i] >> 1)
			i++
			for range 2 * headers {
				if u, i = uint(rec[i]), i+1; u >= 0x80 {
					u, i = u&0x7f|uint(rec[i])<<7, i+1
				}
				i += int(u >> 1)
				s.bytes += int(u >> 1)
			}
			p = end
			s.records++
		}
	}
	return s
}

// rsRecordWalker fills a records.Record as an iterator does, a call per
// record: the floor under any reader with RecordReader.Next's contract
// (every field of the caller's Record set, the header in its room), with
// nothing checked but Go's bounds. Its records have one header each.
type rsRecordWalker struct {
	data         []byte
	p            int
	base, baseTS int64
	baseSeq      int32
}

// next fills r with the next record; it is not inlined, as no reader's
// Next is.
//
//go:noinline
func (w *rsRecordWalker) next(r *records.Record) bool {
	data, p := w.data, w.p
	if p >= len(data) {
		return false
	}
	u := uint(data[p])
	if p++; u >= 0x80 {
		u = u&0x7f | uint(data[p])<<7
		p++
	}
	end := p + int(u>>1)
	rec := data[:end]
	r.Size = end - p
	r.Attributes = int8(rec[p])
	i := p + 1
	if u, i = uint(rec[i]), i+1; u >= 0x80 {
		u, i = u&0x7f|uint(rec[i])<<7, i+1
	}
	r.TimestampDelta = int64(u>>1) ^ -int64(u&1)
	if u, i = uint(rec[i]), i+1; u >= 0x80 {
		u, i = u&0x7f|uint(rec[i])<<7, i+1
	}
	r.OffsetDelta = int32(u>>1) ^ -int32(u&1)
	if u, i = uint(rec[i]), i+1; u >= 0x80 {
		u, i = u&0x7f|uint(rec[i])<<7, i+1
	}
	k := i + int(u>>1)
	r.Key, i = rec[i:k:k], k
	if u, i = uint(rec[i]), i+1; u >= 0x80 {
		u, i = u&0x7f|uint(rec[i])<<7, i+1
	}
	k = i + int(u>>1)
	r.Value, i = rec[i:k:k], k+1 // and the header count
	h := &r.Headers[0]
	if u, i = uint(rec[i]), i+1; u >= 0x80 {
		u, i = u&0x7f|uint(rec[i])<<7, i+1
	}
	k = i + int(u>>1)
	h.Key, i = rec[i:k:k], k
	if u, i = uint(rec[i]), i+1; u >= 0x80 {
		u, i = u&0x7f|uint(rec[i])<<7, i+1
	}
	k = i + int(u>>1)
	h.Value = rec[i:k:k]
	r.Offset = w.base + int64(r.OffsetDelta)
	r.Timestamp = w.baseTS + r.TimestampDelta
	r.Sequence = w.baseSeq + r.OffsetDelta
	w.p = end
	return true
}

// rsWalkRecordsInline is rsWalkRecords with the walker's next written
// out in the loop: the floor under filling a Record with no call at all.
func rsWalkRecordsInline(r *records.Record, blob []byte) rsSummary {
	var s rsSummary
	for len(blob) > 0 {
		n := 12 + int(binary.BigEndian.Uint32(blob[8:]))
		if binary.BigEndian.Uint32(blob[17:]) != records.CRC32C(blob[21:n]) {
			panic("crc")
		}
		base, baseTS := int64(binary.BigEndian.Uint64(blob)), int64(binary.BigEndian.Uint64(blob[27:]))
		baseSeq := int32(binary.BigEndian.Uint32(blob[53:]))
		data := blob[61:n]
		blob = blob[n:]
		for p := 0; p < len(data); {
			u := uint(data[p])
			if p++; u >= 0x80 {
				u = u&0x7f | uint(data[p])<<7
				p++
			}
			end := p + int(u>>1)
			rec := data[:end]
			r.Size = end - p
			r.Attributes = int8(rec[p])
			i := p + 1
			if u, i = uint(rec[i]), i+1; u >= 0x80 {
				u, i = u&0x7f|uint(rec[i])<<7, i+1
			}
			r.TimestampDelta = int64(u>>1) ^ -int64(u&1)
			if u, i = uint(rec[i]), i+1; u >= 0x80 {
				u, i = u&0x7f|uint(rec[i])<<7, i+1
			}
			r.OffsetDelta = int32(u>>1) ^ -int32(u&1)
			if u, i = uint(rec[i]), i+1; u >= 0x80 {
				u, i = u&0x7f|uint(rec[i])<<7, i+1
			}
			k := i + int(u>>1)
			r.Key, i = rec[i:k:k], k
			if u, i = uint(rec[i]), i+1; u >= 0x80 {
				u, i = u&0x7f|uint(rec[i])<<7, i+1
			}
			k = i + int(u>>1)
			r.Value, i = rec[i:k:k], k+1 // and the header count
			h := &r.Headers[0]
			if u, i = uint(rec[i]), i+1; u >= 0x80 {
				u, i = u&0x7f|uint(rec[i])<<7, i+1
			}
			k = i + int(u>>1)
			h.Key, i = rec[i:k:k], k
			if u, i = uint(rec[i]), i+1; u >= 0x80 {
				u, i = u&0x7f|uint(rec[i])<<7, i+1
			}
			k = i + int(u>>1)
			h.Value = rec[i:k:k]
			r.Offset = base + int64(r.OffsetDelta)
			r.Timestamp = baseTS + r.TimestampDelta
			r.Sequence = baseSeq + r.OffsetDelta
			p = end

			s.records++
			s.bytes += len(r.Key) + len(r.Value)
			for i := range r.Headers {
				s.bytes += len(r.Headers[i].Key) + len(r.Headers[i].Value)
			}
		}
	}
	return s
}

// rsWalkRecords reads blob with rsRecordWalker, summed as the readers sum.
func rsWalkRecords(w *rsRecordWalker, r *records.Record, blob []byte) rsSummary {
	var s rsSummary
	for len(blob) > 0 {
		n := 12 + int(binary.BigEndian.Uint32(blob[8:]))
		if binary.BigEndian.Uint32(blob[17:]) != records.CRC32C(blob[21:n]) {
			panic("crc")
		}
		*w = rsRecordWalker{data: blob[61:n], base: int64(binary.BigEndian.Uint64(blob)),
			baseTS: int64(binary.BigEndian.Uint64(blob[27:])), baseSeq: int32(binary.BigEndian.Uint32(blob[53:]))}
		blob = blob[n:]
		for w.next(r) {
			s.records++
			s.bytes += len(r.Key) + len(r.Value)
			for i := range r.Headers {
				s.bytes += len(r.Headers[i].Key) + len(r.Headers[i].Value)
			}
		}
	}
	return s
}

func BenchmarkRecordsetRead(b *testing.B) {
	blob := rsBlob()
	run := func(op, impl string, f func()) {
		b.Run("op="+op+"/impl="+impl, func(b *testing.B) {
			b.SetBytes(int64(len(blob)))
			b.ReportAllocs()
			for b.Loop() {
				f()
			}
		})
	}
	var r records.Reader
	var rr records.RecordReader
	var rec records.Record
	run("read", "kafkagen", func() { rsReadOurs(&r, &rr, &rec, blob) })
	var kb kmsg.RecordBatch
	var kr kmsg.Record
	run("read", "kmsg", func() { rsReadKmsg(&kb, &kr, blob, false) })
	run("read", "kmsg-unsafe", func() { rsReadKmsg(&kb, &kr, blob, true) })
	body := rsFetchBody(blob)
	run("read", "sarama", func() { rsReadSarama(body) })
	run("walk", "floor", func() { rsWalk(blob) })
	run("walk-fields", "floor", func() { rsWalkFields(blob) })
	var w rsRecordWalker
	wrec := records.Record{Headers: make([]records.Header, 1)}
	run("walk-record", "floor", func() { rsWalkRecords(&w, &wrec, blob) })
	run("walk-record-inline", "floor", func() { rsWalkRecordsInline(&wrec, blob) })
}
