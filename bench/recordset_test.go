package bench

import (
	"encoding/binary"
	"hash/crc32"
	"testing"

	"github.com/IBM/sarama"
	"github.com/kafkagen/kafkagen/records"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Record-set benchmarks (issue 9): the records of a ~1 MiB Fetch response
// (rsBatches uncompressed v2 batches of rsRecords records with a header
// each), read record by record and built, by the records package and by
// franz-go's kmsg and sarama; the floor under reading; each codec against
// its library called directly on the same bytes; the CRC against
// hash/crc32.
//
//	BenchmarkRecordsetRead/op=read   kafkagen: Reader + RecordReader, aliased
//	                                 kmsg: RecordBatch.ReadFrom, CRC, Record.ReadFrom per record
//	                                 sarama: its Fetch response decoder (v4)
//	BenchmarkRecordsetRead/op=walk   floor: the CRC, then the record lengths
//	BenchmarkRecordsetBuild/op=build kafkagen: BatchBuilder; kmsg: Record and RecordBatch AppendTo, CRC

// rsSummary is what a read saw: records and bytes of keys, values and
// headers, so that every library is checked to do the same work.
type rsSummary struct{ records, bytes int }

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
			for _, h := range rec.Headers {
				s.bytes += len(h.Key) + len(h.Value)
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

func rsReadKmsg(batch *kmsg.RecordBatch, rec *kmsg.Record, blob []byte) rsSummary {
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
			if err := rec.ReadFrom(raw[:end]); err != nil {
				panic(err)
			}
			raw = raw[end:]
			s.records++
			s.bytes += len(rec.Key) + len(rec.Value)
			for _, h := range rec.Headers {
				s.bytes += len(h.Key) + len(h.Value)
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
	if err := saramaDecodeBody(body, saramaDecoder(resp), 4); err != nil {
		panic(err)
	}
	var s rsSummary
	for _, set := range resp.GetBlock("t", 0).RecordsSet {
		for _, r := range set.RecordBatch.Records {
			s.records++
			s.bytes += len(r.Key) + len(r.Value)
			for _, h := range r.Headers {
				s.bytes += len(h.Key) + len(h.Value)
			}
		}
	}
	return s
}

// rsWalk is the floor under reading: each batch's CRC, then its records'
// lengths followed to the end, nothing else read.
func rsWalk(blob []byte) rsSummary {
	var s rsSummary
	for len(blob) > 0 {
		n := 12 + int(binary.BigEndian.Uint32(blob[8:]))
		if binary.BigEndian.Uint32(blob[17:]) != crc32.Checksum(blob[21:n], castagnoli) {
			panic("crc")
		}
		raw := blob[61:n]
		for len(raw) > 0 {
			length, k := binary.Varint(raw)
			raw = raw[k+int(length):]
			s.records++
		}
		blob = blob[n:]
	}
	return s
}

func TestRecordsetSameWork(t *testing.T) {
	blob := rsBlob()
	var r records.Reader
	var rr records.RecordReader
	var rec records.Record
	ours := rsReadOurs(&r, &rr, &rec, blob)
	require.Equal(t, rsBatches*rsRecords, ours.records)
	var kb kmsg.RecordBatch
	var kr kmsg.Record
	require.Equal(t, ours, rsReadKmsg(&kb, &kr, blob))
	require.Equal(t, ours, rsReadSarama(rsFetchBody(blob)))
	require.Equal(t, ours.records, rsWalk(blob).records)
	require.Equal(t, blob, rsBuildKmsg(&kmsg.Record{}, nil, rsContents()), "kmsg builds the same bytes")
	require.Equal(t, blob, rsBuildOurs(records.NewBatchBuilder(), nil, rsContents()))
	require.Equal(t, blob, rsBuildOursBuffered(records.NewBatchBuilder(), nil, rsContents()))
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
	run("read", "kmsg", func() { rsReadKmsg(&kb, &kr, blob) })
	body := rsFetchBody(blob)
	run("read", "sarama", func() { rsReadSarama(body) })
	run("walk", "floor", func() { rsWalk(blob) })
}

func rsContents() [][]rsRecord {
	out := make([][]rsRecord, rsBatches)
	for i := range out {
		out[i] = rsContent(i)
	}
	return out
}

// rsBuildOurs builds the batches straight into dst (Start, Append,
// Finish).
func rsBuildOurs(bb *records.BatchBuilder, dst []byte, content [][]rsRecord) []byte {
	for b, recs := range content {
		bb.Start(dst)
		bb.BaseOffset = int64(b * rsRecords)
		bb.ProducerID, bb.ProducerEpoch, bb.BaseSequence = 1000, 1, int32(b*rsRecords)
		for i := range recs {
			r := &recs[i]
			bb.Append(1700000000000+r.tsDelta+int64(i), r.key, r.value, records.Header{Key: r.hkey, Value: r.hvalue})
		}
		var err error
		if dst, err = bb.Finish(); err != nil {
			panic(err)
		}
	}
	return dst
}

// rsBuildOursBuffered builds each batch in the builder's buffer and copies
// it to dst (AppendTo).
func rsBuildOursBuffered(bb *records.BatchBuilder, dst []byte, content [][]rsRecord) []byte {
	for b, recs := range content {
		bb.Reset()
		bb.BaseOffset = int64(b * rsRecords)
		bb.ProducerID, bb.ProducerEpoch, bb.BaseSequence = 1000, 1, int32(b*rsRecords)
		for i := range recs {
			r := &recs[i]
			bb.Append(1700000000000+r.tsDelta+int64(i), r.key, r.value, records.Header{Key: r.hkey, Value: r.hvalue})
		}
		var err error
		if dst, err = bb.AppendTo(dst); err != nil {
			panic(err)
		}
	}
	return dst
}

// rsVarintSize is the size of v zigzag-varint encoded.
func rsVarintSize(v int64) int {
	u := uint64(v<<1) ^ uint64(v>>63)
	n := 1
	for ; u >= 0x80; u >>= 7 {
		n++
	}
	return n
}

// rsBuildKmsg builds the batches with kmsg as franz-go's producer lays
// them out: the batch header (RecordBatch.AppendTo with no records yet),
// each record's length computed and the record appended straight after it
// (Record.AppendTo), then the length and CRC patched. kr is reused, as a
// producer would.
func rsBuildKmsg(kr *kmsg.Record, dst []byte, content [][]rsRecord) []byte {
	if len(kr.Headers) != 1 {
		kr.Headers = make([]kmsg.Header, 1)
	}
	for b, recs := range content {
		first := int64(1700000000000)
		maxTS := first
		for i := range recs {
			maxTS = max(maxTS, first+recs[i].tsDelta+int64(i))
		}
		at := len(dst)
		batch := kmsg.RecordBatch{
			FirstOffset: int64(b * rsRecords), PartitionLeaderEpoch: -1, Magic: 2,
			LastOffsetDelta: int32(len(recs) - 1), FirstTimestamp: first, MaxTimestamp: maxTS,
			ProducerID: 1000, ProducerEpoch: 1, FirstSequence: int32(b * rsRecords), NumRecords: int32(len(recs)),
		}
		dst = batch.AppendTo(dst)
		for i := range recs {
			r := &recs[i]
			kr.TimestampDelta64, kr.OffsetDelta, kr.Key, kr.Value = r.tsDelta+int64(i), int32(i), r.key, r.value
			kr.Headers[0] = kmsg.Header{Key: r.hkeyString, Value: r.hvalue}
			kr.Length = int32(1 + rsVarintSize(kr.TimestampDelta64) + rsVarintSize(int64(i)) +
				rsVarintSize(int64(len(r.key))) + len(r.key) + rsVarintSize(int64(len(r.value))) + len(r.value) +
				1 + rsVarintSize(int64(len(r.hkey))) + len(r.hkey) + rsVarintSize(int64(len(r.hvalue))) + len(r.hvalue))
			dst = kr.AppendTo(dst)
		}
		binary.BigEndian.PutUint32(dst[at+8:], uint32(len(dst)-at-12))
		binary.BigEndian.PutUint32(dst[at+17:], crc32.Checksum(dst[at+21:], castagnoli))
	}
	return dst
}

func BenchmarkRecordsetBuild(b *testing.B) {
	content := rsContents()
	size := len(rsBlob())
	run := func(impl string, f func(dst []byte) []byte) {
		b.Run("op=build/impl="+impl, func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			dst := make([]byte, 0, size)
			for b.Loop() {
				dst = f(dst[:0])
			}
		})
	}
	bb := records.NewBatchBuilder()
	run("kafkagen", func(dst []byte) []byte { return rsBuildOurs(bb, dst, content) })
	run("kafkagen-buffered", func(dst []byte) []byte { return rsBuildOursBuffered(bb, dst, content) })
	var kr kmsg.Record
	run("kmsg", func(dst []byte) []byte { return rsBuildKmsg(&kr, dst, content) })
}
