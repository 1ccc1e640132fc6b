package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// TestFetchDownConversion: Fetch v0-3 get the log's v2 batches as message
// sets converted as Kafka did (docs/protocol.md, "Down-conversion"): an
// uncompressed batch from the fetch offset on, a compressed one whole in
// one wrapper of its codec, timestamps kept in magic 1 and absent in magic
// 0, zstd refused with UNSUPPORTED_COMPRESSION_TYPE, the first batch whole
// and the next ones within the partition's limit.
func TestFetchDownConversion(t *testing.T) {
	tb := startBroker(t, Config{AutoCreate: true})
	cl := tb.client(t, "down")
	ts := time.Date(2020, 9, 13, 12, 26, 40, 0, time.UTC).UnixMilli()
	three := func(codec records.Compression) []byte {
		return v2Batch(t, codec, testRecord{value: []byte("r0"), timestamp: ts}, testRecord{value: []byte("r1"), timestamp: ts + 1},
			testRecord{value: []byte("r2"), timestamp: ts + 2, headers: []records.Header{{Key: []byte("h"), Value: []byte("dropped")}}})
	}
	for topic, codec := range map[string]records.Compression{"plain": records.CompressionNone, "gzip": records.CompressionGzip, "zstd": records.CompressionZstd} {
		require.Equal(t, codeNone, produce(t, cl, 9, topic, 0, three(codec)).ErrorCode, topic)
	}
	require.Equal(t, codeNone, produce(t, cl, 9, "plain", 0, three(records.CompressionNone)).ErrorCode)
	type got struct {
		offset, timestamp int64
		value             string
	}
	tests := []struct {
		name         string
		topic        string
		version      int16
		offset       int64
		partitionMax int32
		code         int16
		magic        int8
		compression  records.Compression
		want         []got
	}{
		{"uncompressed, magic 1, from the fetch offset", "plain", 3, 1, 1 << 20, codeNone, records.MagicV1, records.CompressionNone,
			[]got{{1, ts + 1, "r1"}, {2, ts + 2, "r2"}, {3, ts, "r0"}, {4, ts + 1, "r1"}, {5, ts + 2, "r2"}}},
		{"uncompressed, magic 0, no timestamps", "plain", 1, 4, 1 << 20, codeNone, records.MagicV0, records.CompressionNone,
			[]got{{4, records.NoTimestamp, "r1"}, {5, records.NoTimestamp, "r2"}}},
		{"the first batch whole past the limit, not the next", "plain", 2, 0, 10, codeNone, records.MagicV1, records.CompressionNone,
			[]got{{0, ts, "r0"}, {1, ts + 1, "r1"}, {2, ts + 2, "r2"}}},
		{"gzip whole in one wrapper, magic 1", "gzip", 3, 1, 1 << 20, codeNone, records.MagicV1, records.CompressionGzip,
			[]got{{0, ts, "r0"}, {1, ts + 1, "r1"}, {2, ts + 2, "r2"}}},
		{"gzip whole in one wrapper, magic 0", "gzip", 0, 2, 1 << 20, codeNone, records.MagicV0, records.CompressionGzip,
			[]got{{0, records.NoTimestamp, "r0"}, {1, records.NoTimestamp, "r1"}, {2, records.NoTimestamp, "r2"}}},
		{"zstd has no message set", "zstd", 3, 0, 1 << 20, kerrors.UnsupportedCompressionType.Code, 0, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := fetchReq(tt.version, tt.topic, runtime.UUID{}, 0, tt.offset)
			req.Topics[0].Partitions[0].PartitionMaxBytes = tt.partitionMax
			p := fetchOne(t, cl, tt.version, req)
			require.Equal(t, tt.code, p.ErrorCode)
			if tt.want == nil {
				assert.Empty(t, p.Records)
				return
			}
			var r records.Reader
			r.Reset(p.Records)
			require.True(t, r.Next())
			assert.Equal(t, tt.magic, r.Batch().Magic)
			assert.Equal(t, tt.compression, r.Batch().Compression())
			var out []got
			for _, rec := range readRecords(t, p.Records) {
				assert.Empty(t, rec.Headers, "message sets have no headers")
				out = append(out, got{rec.Offset, rec.Timestamp, string(rec.Value)})
			}
			assert.Equal(t, tt.want, out)
		})
	}
}
