package bench

import (
	"encoding/binary"
	"hash/crc32"
	"testing"

	"github.com/kafkagen/kafkagen/records"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Building the records of a Fetch response (see recordset_test.go): every
// builder encodes the same content (rsContents) into the same bytes.

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

// rsFinishedRecords splits blob into its batches' headers and records, as
// the copy floor writes them.
func rsFinishedRecords(blob []byte) [][][]byte {
	var out [][][]byte
	for len(blob) > 0 {
		n := 12 + int(binary.BigEndian.Uint32(blob[8:]))
		parts := [][]byte{blob[:61]}
		for raw := blob[61:n]; len(raw) > 0; {
			length, k := rsVarint(raw)
			parts = append(parts, raw[:k+length])
			raw = raw[k+length:]
		}
		out = append(out, parts)
		blob = blob[n:]
	}
	return out
}

// rsCopyFloor is the floor under building: every batch's header and each
// of its finished records copied to dst, then the CRC (records.CRC32C,
// the fastest this machine has); no record encoded.
func rsCopyFloor(dst []byte, batches [][][]byte) []byte {
	for _, parts := range batches {
		at := len(dst)
		for _, p := range parts {
			dst = append(dst, p...)
		}
		binary.BigEndian.PutUint32(dst[at+17:], records.CRC32C(dst[at+21:]))
	}
	return dst
}

func BenchmarkRecordsetBuild(b *testing.B) {
	content := rsContents()
	blob := rsBlob()
	run := func(op, impl string, f func(dst []byte) []byte) {
		b.Run("op="+op+"/impl="+impl, func(b *testing.B) {
			b.SetBytes(int64(len(blob)))
			b.ReportAllocs()
			// Room to spare: no builder grows dst in steady state (ours
			// reserves an upper bound of each record before writing it).
			dst := make([]byte, 0, len(blob)+64<<10)
			for b.Loop() {
				dst = f(dst[:0])
			}
		})
	}
	bb := records.NewBatchBuilder()
	run("build", "kafkagen", func(dst []byte) []byte { return rsBuildOurs(bb, dst, content) })
	run("build", "kafkagen-buffered", func(dst []byte) []byte { return rsBuildOursBuffered(bb, dst, content) })
	var kr kmsg.Record
	run("build", "kmsg", func(dst []byte) []byte { return rsBuildKmsg(&kr, dst, content) })
	finished := rsFinishedRecords(blob)
	run("copy", "floor", func(dst []byte) []byte { return rsCopyFloor(dst, finished) })
}
