package main

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

func TestFetchLimits(t *testing.T) {
	tb := startBroker(t, Config{AutoCreate: true})
	cl := tb.client(t, "limits")
	var sizes []int
	for i := 0; i < 3; i++ {
		blob := v2Batch(t, records.CompressionNone, testRecord{value: make([]byte, 100)})
		sizes = append(sizes, len(blob))
		require.Equal(t, codeNone, produce(t, cl, 9, "big", 0, blob).ErrorCode)
	}
	tests := []struct {
		name            string
		partitionMax    int32
		responseMax     int32
		wantPartition0  int // batches
		wantPartition0b int // batches of the same partition asked twice (second entry)
	}{
		{"all", 1 << 20, 1 << 20, 3, 3},
		{"first batch even when larger (KIP-74)", 10, 1 << 20, 1, 0},
		{"two fit", int32(sizes[0] + sizes[1]), 1 << 20, 2, 2},
		{"response limit", 1 << 20, int32(sizes[0] + sizes[1]), 2, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := fetchReq(12, "big", runtime.UUID{}, 0, 0)
			req.MaxBytes = tt.responseMax
			req.Topics[0].Partitions[0].PartitionMaxBytes = tt.partitionMax
			req.Topics[0].Partitions = append(req.Topics[0].Partitions, req.Topics[0].Partitions[0])
			resp := do(t, cl, req, 12, kafkamsg.NewFetchResponse())
			parts := resp.Responses[0].Partitions
			require.Len(t, parts, 2)
			assert.Len(t, readRecords(t, parts[0].Records), tt.wantPartition0)
			assert.Len(t, readRecords(t, parts[1].Records), tt.wantPartition0b)
		})
	}
}

// TestFetchBrokerClamp: the broker's -fetch-max-bytes caps an answer
// whatever the client asks, at every version, the first batch aside.
func TestFetchBrokerClamp(t *testing.T) {
	blob := v2Batch(t, records.CompressionNone, testRecord{value: make([]byte, 100)})
	tests := []struct {
		name    string
		clamp   int
		version int16
		want    int // records, one per batch
	}{
		{"two batches fit", 2 * len(blob), 12, 2},
		{"two batches fit, v2 without a response limit", 2 * len(blob), 2, 2},
		{"the first batch even when larger (KIP-74)", len(blob) / 2, 12, 1},
		{"no clamp reached", 10 * len(blob), 12, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := startBroker(t, Config{AutoCreate: true, FetchMaxBytes: tt.clamp})
			cl := tb.client(t, "clamp")
			for i := 0; i < 3; i++ {
				require.Equal(t, codeNone, produce(t, cl, 9, "c", 0, blob).ErrorCode)
			}
			req := fetchReq(tt.version, "c", runtime.UUID{}, 0, 0)
			req.MaxBytes = 64 << 20
			p := fetchOne(t, cl, tt.version, req)
			assert.Len(t, readRecords(t, p.Records), tt.want)
		})
	}
}

func TestFetchErrors(t *testing.T) {
	tb := startBroker(t, Config{})
	cl := tb.client(t, "errors")
	id := createTopic(t, cl, "t", 1)

	p := fetchOne(t, cl, 12, fetchReq(12, "t", id, 0, 7))
	assert.Equal(t, kerrors.OffsetOutOfRange.Code, p.ErrorCode)
	p = fetchOne(t, cl, 12, fetchReq(12, "nope", id, 0, 0))
	assert.Equal(t, kerrors.UnknownTopicOrPartition.Code, p.ErrorCode)
	p = fetchOne(t, cl, 13, fetchReq(13, "", runtime.UUID{1}, 0, 0))
	assert.Equal(t, kerrors.UnknownTopicID.Code, p.ErrorCode)

	req := fetchReq(12, "t", id, 0, 0)
	req.SessionID, req.SessionEpoch = 42, 3
	resp := do(t, cl, req, 12, kafkamsg.NewFetchResponse())
	assert.Equal(t, kerrors.FetchSessionIDNotFound.Code, resp.ErrorCode, "incremental fetch sessions are not kept")
	req.SessionID, req.SessionEpoch = 0, 0
	resp = do(t, cl, req, 12, kafkamsg.NewFetchResponse())
	assert.Equal(t, codeNone, resp.ErrorCode)
	assert.Equal(t, int32(0), resp.SessionID, "a new session is declined with session id 0")
}

func TestFetchLongPoll(t *testing.T) {
	tb := startBroker(t, Config{AutoCreate: true})
	cl := tb.client(t, "poller")
	producer := tb.client(t, "producer")
	require.Equal(t, codeNone, produce(t, producer, 9, "poll", 0, v2Batch(t, records.CompressionNone, testRecord{value: []byte("a")})).ErrorCode)

	// Nothing past offset 1 within MaxWaitMs: an empty answer after the wait.
	req := fetchReq(12, "poll", runtime.UUID{}, 0, 1)
	req.MaxWaitMs, req.MinBytes = 200, 1
	start := time.Now()
	p := fetchOne(t, cl, 12, req)
	assert.Empty(t, p.Records)
	assert.GreaterOrEqual(t, time.Since(start), 200*time.Millisecond, "the fetch waited")

	// A produce during the wait answers it with the new batch.
	req.MaxWaitMs = 10000
	got := make(chan kafkamsg.FetchResponsePartitionData, 1)
	go func() {
		resp := kafkamsg.NewFetchResponse()
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		if cl.Do(ctx, req, 12, resp) == nil {
			got <- resp.Responses[0].Partitions[0]
		}
		close(got)
	}()
	time.Sleep(100 * time.Millisecond)
	require.Equal(t, codeNone, produce(t, producer, 9, "poll", 0, v2Batch(t, records.CompressionNone, testRecord{value: []byte("b")})).ErrorCode)
	select {
	case p, ok := <-got:
		require.True(t, ok, "the fetch failed")
		recs := readRecords(t, p.Records)
		require.Len(t, recs, 1)
		assert.Equal(t, "b", string(recs[0].Value))
	case <-time.After(5 * time.Second):
		t.Fatal("the produce did not wake the waiting fetch")
	}
}

func TestListOffsets(t *testing.T) {
	tb := startBroker(t, Config{AutoCreate: true})
	cl := tb.client(t, "offsets")
	for i, ts := range []int64{100, 300, 200} {
		res := produce(t, cl, 9, "times", 0, v2Batch(t, records.CompressionNone,
			testRecord{value: []byte{byte(i)}, timestamp: ts}, testRecord{value: []byte{byte(i)}, timestamp: ts + 10}))
		require.Equal(t, codeNone, res.ErrorCode)
	}
	list := func(version int16, ts int64) kafkamsg.ListOffsetsResponseListOffsetsPartitionResponse {
		req := kafkamsg.NewListOffsetsRequest()
		p := defaults[kafkamsg.ListOffsetsRequestListOffsetsPartition]()
		p.Timestamp = ts
		req.Topics = []kafkamsg.ListOffsetsRequestListOffsetsTopic{{Name: "times", Partitions: []kafkamsg.ListOffsetsRequestListOffsetsPartition{p}}}
		resp := do(t, cl, req, version, kafkamsg.NewListOffsetsResponse())
		return resp.Topics[0].Partitions[0]
	}
	tests := []struct {
		name      string
		ts        int64
		offset    int64
		timestamp int64
	}{
		{"latest", latestTimestamp, 6, -1},
		{"earliest", earliestTimestamp, 0, -1},
		{"max timestamp", maxTimestamp, 3, 310},
		{"by time, inside a batch", 105, 1, 110},
		{"by time, first at or after", 150, 2, 300},
		{"by time, after every record", 400, -1, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := list(7, tt.ts)
			assert.Equal(t, codeNone, p.ErrorCode)
			assert.Equal(t, tt.offset, p.Offset)
			assert.Equal(t, tt.timestamp, p.Timestamp)
		})
	}
	v0 := list(0, latestTimestamp)
	assert.Equal(t, []int64{6}, v0.OldStyleOffsets)
}
