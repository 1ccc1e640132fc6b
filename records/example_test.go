package records_test

import (
	"fmt"

	"github.com/kafkagen/kafkagen/records"
)

// Build a gzip-compressed batch of two records, then read it back.
func Example() {
	bb := records.NewBatchBuilder()
	bb.BaseOffset = 100
	bb.Compression = records.CompressionGzip
	bb.Append(1700000000000, []byte("k1"), []byte("hello"), records.Header{Key: []byte("trace"), Value: []byte("1")})
	bb.Append(1700000000005, nil, []byte("world"))
	blob, err := bb.AppendTo(nil)
	if err != nil {
		panic(err)
	}

	var (
		r   records.Reader
		rr  records.RecordReader
		d   records.Decompressor // reused: its buffer holds decompressed records
		rec records.Record       // reused: Headers keeps its capacity
	)
	r.Reset(blob)
	for r.Next() {
		b := r.Batch()
		fmt.Printf("batch offsets %d-%d, %d records, %s\n", b.BaseOffset, b.LastOffset(), b.NumRecords, b.Compression())
		if err := rr.Reset(b, &d); err != nil {
			panic(err)
		}
		for rr.Next(&rec) {
			fmt.Printf("%d %d key=%q value=%q headers=%d\n", rec.Offset, rec.Timestamp, rec.Key, rec.Value, len(rec.Headers))
		}
		if err := rr.Err(); err != nil {
			panic(err)
		}
	}
	if err := r.Err(); err != nil {
		panic(err)
	}
	// Output:
	// batch offsets 100-101, 2 records, gzip
	// 100 1700000000000 key="k1" value="hello" headers=1
	// 101 1700000000005 key="" value="world" headers=0
}

// A Fetch response cut at its byte limit ends with part of a batch: Reader
// stops there without an error and Tail returns the bytes.
func ExampleReader_Tail() {
	bb := records.NewBatchBuilder()
	bb.Append(0, nil, []byte("a"))
	blob, _ := bb.AppendTo(nil)
	bb.Reset()
	bb.BaseOffset = 1
	bb.Append(0, nil, []byte("b"))
	blob, _ = bb.AppendTo(blob)
	cut := blob[:len(blob)-10]

	var r records.Reader
	r.Reset(cut)
	n := 0
	for r.Next() {
		n++
	}
	fmt.Println(n, "whole batch,", len(r.Tail()), "bytes of tail, error:", r.Err())
	// Output: 1 whole batch, 59 bytes of tail, error: <nil>
}

// Write a transaction's commit marker, as a partition leader does when the
// coordinator asks.
func ExampleAppendEndTxnMarker() {
	blob := records.AppendEndTxnMarker(nil, records.EndTxnMarker{
		ProducerID: 4000, ProducerEpoch: 2, Commit: true, CoordinatorEpoch: 7, Timestamp: 1700000000000,
	})
	var r records.Reader
	var rr records.RecordReader
	var rec records.Record
	r.Reset(blob)
	for r.Next() {
		b := r.Batch()
		_ = rr.Reset(b, nil)
		for rr.Next(&rec) {
			t, _ := rec.ControlType()
			epoch, _ := records.ParseEndTxnMarker(rec.Value)
			fmt.Println(b.IsControl(), b.IsTransactional(), b.ProducerID, t, epoch)
		}
	}
	// Output: true true 4000 COMMIT 7
}

// Build two batches straight into a request's buffer: Start begins each
// at the end of the buffer and Finish completes it there, without the
// copy AppendTo makes.
func ExampleBatchBuilder_Start() {
	buf := []byte("request header ...")
	bb := records.NewBatchBuilder()
	for i := range 2 {
		bb.Start(buf)
		bb.BaseOffset = int64(i * 10)
		bb.ProducerID, bb.ProducerEpoch, bb.BaseSequence = 7, 0, int32(i*10)
		bb.Append(1700000000000, nil, []byte("first"))
		bb.Append(1700000000001, nil, []byte("second"))
		var err error
		if buf, err = bb.Finish(); err != nil {
			panic(err)
		}
	}

	var r records.Reader
	r.Reset(buf[len("request header ..."):])
	for r.Next() {
		b := r.Batch()
		fmt.Printf("batch offsets %d-%d, sequence %d-%d\n", b.BaseOffset, b.LastOffset(), b.BaseSequence, b.LastSequence())
	}
	// Output:
	// batch offsets 0-1, sequence 0-1
	// batch offsets 10-11, sequence 10-11
}

// The records of one Produce partition, from the producer to the log: an
// idempotent producer builds a batch (the ProduceRequest's
// partitionData[].records field holds these bytes), the broker reads its
// producer fields, assigns offsets at the end of its log, and a consumer
// reads the stored batch back with offsets and the old client's message
// set beside it.
func Example_produce() {
	// The producer: producer id 4000, epoch 0, sequence 0.
	bb := records.NewBatchBuilder()
	bb.ProducerID, bb.ProducerEpoch, bb.BaseSequence = 4000, 0, 0
	bb.Compression = records.CompressionZstd
	bb.Append(1700000000000, []byte("order-1"), []byte(`{"qty":1}`))
	bb.Append(1700000000002, []byte("order-2"), []byte(`{"qty":5}`))
	produced, err := bb.AppendTo(nil)
	if err != nil {
		panic(err)
	}
	// An old client (magic 1) sends a gzip message set instead.
	m := records.NewMessageSetBuilder(records.MagicV1, records.CompressionGzip)
	m.Append(0, 1700000000003, []byte("order-3"), []byte(`{"qty":2}`))
	old, err := m.AppendTo(nil)
	if err != nil {
		panic(err)
	}

	// The broker: check each batch, then append it at the log end offset.
	var r records.Reader
	r.Reset(produced)
	for r.Next() {
		b := r.Batch()
		fmt.Printf("produced: producer %d epoch %d sequence %d-%d, %d records\n",
			b.ProducerID, b.ProducerEpoch, b.BaseSequence, b.LastSequence(), b.NumRecords)
	}
	var d records.Decompressor
	log, next, err := records.AssignOffsets(nil, produced, 500, &d, nil)
	if err != nil {
		panic(err)
	}
	log, next, err = records.AssignOffsets(log, old, next, &d, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println("log end offset:", next)

	// The consumer: what a Fetch response's records field carries.
	var rr records.RecordReader
	var rec records.Record
	r.Reset(log)
	for r.Next() {
		if err := rr.Reset(r.Batch(), &d); err != nil {
			panic(err)
		}
		for rr.Next(&rec) {
			fmt.Printf("magic %d offset %d %s=%s\n", r.Batch().Magic, rec.Offset, rec.Key, rec.Value)
		}
	}
	if err := r.Err(); err != nil {
		panic(err)
	}
	// Output:
	// produced: producer 4000 epoch 0 sequence 0-1, 2 records
	// log end offset: 503
	// magic 2 offset 500 order-1={"qty":1}
	// magic 2 offset 501 order-2={"qty":5}
	// magic 1 offset 502 order-3={"qty":2}
}
