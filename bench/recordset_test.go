package bench

import (
	"testing"

	"github.com/kafkagen/kafkagen/records"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Record-set benchmarks (issue 9): the records of a ~1 MiB Fetch response
// (rsBatches uncompressed v2 batches of rsRecords records with a header
// each), read record by record and built, by the records package and by
// franz-go's kmsg and sarama, with the floors under both; each codec
// against its library called directly on the same bytes
// (recordset_codec_test.go); the CRC against hash/crc32.
//
//	BenchmarkRecordsetRead/op=read         kafkagen: Reader + RecordReader, aliased
//	                                       kmsg: RecordBatch.ReadFrom, CRC, Record.ReadFrom per record
//	                                       kmsg-unsafe: the same with UnsafeReadFrom (header keys aliased, as ours are)
//	                                       sarama: its Fetch response decoder (v4)
//	BenchmarkRecordsetRead/op=walk         floor: the CRC, then the record lengths followed
//	BenchmarkRecordsetRead/op=walk-fields  floor: the CRC, then every field's varint followed
//	BenchmarkRecordsetRead/op=walk-record  floor: the CRC, then every field stored in a Record, a call per record
//	BenchmarkRecordsetRead/op=walk-record-inline  floor: the same without a call
//
// The floors check the CRC with records.CRC32C, the fastest on this
// machine; kmsg's harnesses with hash/crc32, as franz-go's kgo does.
//	BenchmarkRecordsetBuild/op=build       kafkagen: BatchBuilder Start/Finish; kafkagen-buffered: AppendTo
//	                                       kmsg: RecordBatch and Record AppendTo, length and CRC patched
//	BenchmarkRecordsetBuild/op=copy        floor: each finished record copied, then the CRC
//
// Every reader touches the same things (the length of every key, value,
// header key and header value, summed into an rsSummary), and every
// builder writes the same bytes: TestRecordsetSameWork checks both.

// rsSummary is what a read saw: records and bytes of keys, values and
// headers, so that every library is checked to do the same work.
type rsSummary struct{ records, bytes int }

func TestRecordsetSameWork(t *testing.T) {
	blob := rsBlob()
	var r records.Reader
	var rr records.RecordReader
	var rec records.Record
	ours := rsReadOurs(&r, &rr, &rec, blob)
	require.Equal(t, rsBatches*rsRecords, ours.records)
	var kb kmsg.RecordBatch
	var kr kmsg.Record
	require.Equal(t, ours, rsReadKmsg(&kb, &kr, blob, false))
	require.Equal(t, ours, rsReadKmsg(&kb, &kr, blob, true))
	require.Equal(t, ours, rsReadSarama(rsFetchBody(blob)))
	require.Equal(t, ours.records, rsWalk(blob).records)
	require.Equal(t, ours, rsWalkFields(blob))
	require.Equal(t, ours, rsWalkRecords(&rsRecordWalker{}, &records.Record{Headers: make([]records.Header, 1)}, blob))
	require.Equal(t, ours, rsWalkRecordsInline(&records.Record{Headers: make([]records.Header, 1)}, blob))

	content := rsContents()
	require.Equal(t, blob, rsBuildKmsg(&kmsg.Record{}, nil, content), "kmsg builds the same bytes")
	require.Equal(t, blob, rsBuildOurs(records.NewBatchBuilder(), nil, content))
	require.Equal(t, blob, rsBuildOursBuffered(records.NewBatchBuilder(), nil, content))
	require.Equal(t, blob, rsCopyFloor(nil, rsFinishedRecords(blob)))
}
