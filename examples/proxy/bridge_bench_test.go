package main

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/examples/proxy/kafkamsg"
	"github.com/kafkagen/kafkagen/records"
)

// benchRecords is how many records one converted batch holds.
const benchRecords = 1000

// benchValues are the records of the benchmarks: 100-byte values, 8-byte
// keys, one timestamp each.
func benchValues() (keys, values [][]byte) {
	for i := range benchRecords {
		keys = append(keys, []byte("key-"+strconv.Itoa(10000+i)))
		v := make([]byte, 100)
		for j := range v {
			v[j] = byte('a' + (i+j)%26)
		}
		values = append(values, v)
	}
	return keys, values
}

// report adds records/s and seconds per GiB of input (wall time of the one goroutine: CPU time on an idle machine) to b's output.
func report(b *testing.B, inputBytes int) {
	b.SetBytes(int64(inputBytes))
	secs := b.Elapsed().Seconds()
	b.ReportMetric(float64(benchRecords)*float64(b.N)/secs, "records/s")
	b.ReportMetric(secs/(float64(inputBytes)*float64(b.N)/(1<<30)), "s/GiB")
}

// BenchmarkBridgeProduce: a Produce v2 partition (a message set of magic 1,
// uncompressed) turned into v3's v2 batch by the bridge, against the floor:
// records reading the same message set and building the same batch.
func BenchmarkBridgeProduce(b *testing.B) {
	keys, values := benchValues()
	var set []byte
	for i := range keys {
		var err error
		set, err = records.AppendMessage(set, 1, int64(i), 1700000000000+int64(i), 0, keys[i], values[i])
		require.NoError(b, err)
	}
	b.Run("bridge-v2-to-v3", func(b *testing.B) {
		_, c := newBridgeConn(&testing.T{})
		req := kafkamsg.NewProduceRequest()
		req.Acks = 1
		req.TopicData = []kafkamsg.ProduceRequestTopicProduceData{{Name: "t", PartitionData: []kafkamsg.ProduceRequestPartitionProduceData{{Index: 0}}}}
		b.ReportAllocs()
		for b.Loop() {
			req.TopicData[0].PartitionData = req.TopicData[0].PartitionData[:1]
			req.TopicData[0].PartitionData[0].Records = set
			if _, err := c.Request(req, 2, 3); err != nil {
				b.Fatal(err)
			}
		}
		report(b, len(set))
	})
	b.Run("floor-read-and-build", func(b *testing.B) {
		var r records.Reader
		var rr records.RecordReader
		var rec records.Record
		var d records.Decompressor
		var bb records.BatchBuilder
		var out []byte
		b.ReportAllocs()
		for b.Loop() {
			r.Reset(set)
			bb.Reset()
			for r.Next() {
				if err := rr.Reset(r.Batch(), &d); err != nil {
					b.Fatal(err)
				}
				for rr.Next(&rec) {
					bb.Append(rec.Timestamp, rec.Key, rec.Value)
				}
			}
			var err error
			if out, err = bb.AppendTo(out[:0]); err != nil {
				b.Fatal(err)
			}
		}
		report(b, len(set))
	})
}

// BenchmarkBridgeFetch: a Fetch v12 answer's v2 batch (uncompressed)
// turned into v3's message set of magic 1 by the bridge, against the
// floor: records reading the batch and building a v2 batch of it.
func BenchmarkBridgeFetch(b *testing.B) {
	keys, values := benchValues()
	bb := records.NewBatchBuilder()
	for i := range keys {
		bb.Append(1700000000000+int64(i), keys[i], values[i])
	}
	batch, err := bb.AppendTo(nil)
	require.NoError(b, err)
	b.Run("bridge-v12-to-v3", func(b *testing.B) {
		_, c := newBridgeConn(&testing.T{})
		req := fetchRequest(3, 64<<20, fetchPart(0, 0, 64<<20))
		state, err := c.Request(req, 3, 12)
		require.NoError(b, err)
		resp := fetchAnswer(kafkamsg.FetchResponsePartitionData{PartitionIndex: 0})
		b.ReportAllocs()
		for b.Loop() {
			resp.Responses[0].Partitions[0].Records = batch
			if err := c.Response(resp, 12, 3, state); err != nil {
				b.Fatal(err)
			}
		}
		report(b, len(batch))
	})
	b.Run("floor-read-and-build", func(b *testing.B) {
		var r records.Reader
		var rr records.RecordReader
		var rec records.Record
		var d records.Decompressor
		var out records.BatchBuilder
		var dst []byte
		b.ReportAllocs()
		for b.Loop() {
			r.Reset(batch)
			out.Reset()
			for r.Next() {
				if err := rr.Reset(r.Batch(), &d); err != nil {
					b.Fatal(err)
				}
				for rr.Next(&rec) {
					out.Append(rec.Timestamp, rec.Key, rec.Value)
				}
			}
			var err error
			if dst, err = out.AppendTo(dst[:0]); err != nil {
				b.Fatal(err)
			}
		}
		report(b, len(batch))
	})
}
