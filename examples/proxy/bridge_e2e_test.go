package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"log"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/examples/proxy/kafkamsg"
	"github.com/kafkagen/kafkagen/proxy"
	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// kafka4 is a one-partition-per-topic upstream serving only Kafka 4.0's
// ranges of ApiVersions, Produce and Fetch (any other version closes the
// connection, as Kafka 4 does): Produce appends the v2 batch with offsets
// assigned, Fetch returns every batch from the one holding the offset.
type kafka4 struct {
	mu  sync.Mutex
	log map[string][]byte
	end map[string]int64
}

var kafka4Ranges = []wire.VersionRange{
	{APIKey: kafkamsg.APIKeyProduce, MinVersion: 3, MaxVersion: 11},
	{APIKey: kafkamsg.APIKeyFetch, MinVersion: 4, MaxVersion: 17},
	{APIKey: kafkamsg.APIKeyAPIVersions, MinVersion: 0, MaxVersion: 4},
}

func (k *kafka4) serve(_ context.Context, _ *wire.Peer, req *wire.Request) (runtime.APIMessage, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	switch r := req.Body.(type) {
	case *kafkamsg.APIVersionsRequest:
		resp := kafkamsg.NewAPIVersionsResponse()
		for _, v := range kafka4Ranges {
			min := v.MinVersion
			if v.APIKey == kafkamsg.APIKeyProduce {
				min = 0 // KAFKA-18659
			}
			resp.APIKeys = append(resp.APIKeys, kafkamsg.APIVersionsResponseAPIVersion{APIKey: v.APIKey, MinVersion: min, MaxVersion: v.MaxVersion})
		}
		return resp, nil
	case *kafkamsg.ProduceRequest:
		resp := kafkamsg.NewProduceResponse()
		for _, t := range r.TopicData {
			tr := kafkamsg.ProduceResponseTopicProduceResponse{Name: t.Name}
			for _, p := range t.PartitionData {
				pr := kafkamsg.ProduceResponsePartitionProduceResponse{Index: p.Index, BaseOffset: -1, LogAppendTimeMs: -1, LogStartOffset: 0,
					CurrentLeader: kafkamsg.ProduceResponseLeaderIDAndEpoch{LeaderID: -1, LeaderEpoch: -1}}
				var b records.Batch
				if err := records.ReadBatch(&b, bytes.Clone(p.Records), 0); err != nil || b.Magic != records.MagicV2 {
					pr.ErrorCode = kerrors.InvalidRecord.Code
				} else {
					b.SetBaseOffset(k.end[t.Name])
					pr.BaseOffset = k.end[t.Name]
					k.end[t.Name] = b.NextOffset()
					k.log[t.Name] = append(k.log[t.Name], b.Raw...)
				}
				tr.PartitionResponses = append(tr.PartitionResponses, pr)
			}
			resp.Responses = append(resp.Responses, tr)
		}
		if r.Acks == 0 {
			return nil, nil
		}
		return resp, nil
	case *kafkamsg.FetchRequest:
		resp := kafkamsg.NewFetchResponse()
		for _, t := range r.Topics {
			tr := kafkamsg.FetchResponseFetchableTopicResponse{Topic: t.Topic}
			for _, p := range t.Partitions {
				tr.Partitions = append(tr.Partitions, kafkamsg.FetchResponsePartitionData{PartitionIndex: p.Partition,
					HighWatermark: k.end[t.Topic], LastStableOffset: k.end[t.Topic], LogStartOffset: 0, PreferredReadReplica: -1,
					DivergingEpoch: kafkamsg.FetchResponseEpochEndOffset{Epoch: -1, EndOffset: -1},
					CurrentLeader:  kafkamsg.FetchResponseLeaderIDAndEpoch{LeaderID: -1, LeaderEpoch: -1},
					SnapshotID:     kafkamsg.FetchResponseSnapshotID{EndOffset: -1, Epoch: -1},
					Records:        bytes.Clone(k.log[t.Topic])})
			}
			resp.Responses = append(resp.Responses, tr)
		}
		return resp, nil
	}
	return nil, nil
}

// startBridgedProxy runs kafka4 and kafkaproxy -bridge in front of it.
func startBridgedProxy(t *testing.T) (addr string, k *kafka4) {
	t.Helper()
	k = &kafka4{log: map[string][]byte{}, end: map[string]int64{}}
	srv, err := wire.NewServer(wire.HandlerFunc(k.serve), wire.ServerOptions{NewRequest: kafkamsg.NewRequest, Supported: kafka4Ranges, Logf: t.Logf})
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	listen := "127.0.0.1:" + strconv.Itoa(freePorts(t, 2))
	o, err := parseFlags([]string{"-listen", listen, "-upstream", ln.Addr().String(), "-bridge", "-rewrite-addresses=false"}, io.Discard)
	require.NoError(t, err)
	cfg, err := config(o, log.New(testWriter{t}, "kafkaproxy: ", 0), nil)
	require.NoError(t, err)
	p, err := proxy.New(cfg)
	require.NoError(t, err)
	require.NoError(t, p.Start())
	t.Cleanup(func() { p.Close() })
	return p.Addr().String(), k
}

// oldClient dials the proxy.
func oldClient(t *testing.T, addr string) *wire.Client {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	require.NoError(t, err)
	cl := wire.NewClient(conn, wire.ClientConfig{ClientID: runtime.NewNullString("old")})
	t.Cleanup(func() { cl.Close() })
	return cl
}

func produceV0(t *testing.T, cl *wire.Client, topic string, set []byte) *kafkamsg.ProduceResponse {
	t.Helper()
	req := kafkamsg.NewProduceRequest()
	req.Acks, req.TimeoutMs = 1, 1000
	req.TopicData = []kafkamsg.ProduceRequestTopicProduceData{{Name: topic, PartitionData: []kafkamsg.ProduceRequestPartitionProduceData{{Index: 0, Records: set}}}}
	resp := kafkamsg.NewProduceResponse()
	// Inflating the bomb to the 64 MiB limit takes seconds under -race.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	require.NoError(t, cl.Do(ctx, req, 0, resp))
	return resp
}

// TestBridgeThroughProxy: a Kafka 0.8 client (no ApiVersions, Produce v0,
// Fetch v0) through the engine to an upstream serving only Kafka 4's
// ranges, and hostile message sets answered CORRUPT_MESSAGE with the
// connection kept.
func TestBridgeThroughProxy(t *testing.T) {
	addr, _ := startBridgedProxy(t)
	cl := oldClient(t, addr)

	bomb := records.NewMessageSetBuilder(0, records.CompressionGzip)
	require.NoError(t, bomb.Append(0, -1, nil, make([]byte, 100<<20))) // 100 MiB of zeros, ~100 KiB of gzip
	bombSet, err := bomb.AppendTo(nil)
	require.NoError(t, err)
	good := legacySet(t, 0, "a", "b", "c")
	badCRC := bytes.Clone(good)
	badCRC[len(badCRC)-1] ^= 1
	lying := bytes.Clone(good)
	binary.BigEndian.PutUint32(lying[8:], 1<<30)

	for _, tc := range []struct {
		name string
		set  []byte
		want int16
	}{
		{"a bad CRC", badCRC, kerrors.CorruptMessage.Code},
		{"a size running past the data", lying, kerrors.CorruptMessage.Code},
		{"a gzip wrapper inflating past 64 MiB", bombSet, kerrors.CorruptMessage.Code},
		{"a good message set", good, 0},
	} {
		resp := produceV0(t, cl, "t", tc.set)
		assert.Equal(t, tc.want, resp.Responses[0].PartitionResponses[0].ErrorCode, tc.name)
	}

	fetch := func(offset int64, maxBytes int32) *kafkamsg.FetchResponse {
		req := kafkamsg.NewFetchRequest()
		req.Topics = []kafkamsg.FetchRequestFetchTopic{{Topic: "t", Partitions: []kafkamsg.FetchRequestFetchPartition{fetchPart(0, offset, maxBytes)}}}
		resp := kafkamsg.NewFetchResponse()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		require.NoError(t, cl.Do(ctx, req, 0, resp))
		return resp
	}
	got, magics := messages(t, fetch(1, 1<<20).Responses[0].Partitions[0].Records)
	assert.Equal(t, []string{"1:kb=b", "2:kc=c"}, got, "only the good set was appended; from the fetch offset")
	assert.Equal(t, []int8{0, 0}, magics)
}

func TestBridgeAdvertisesTheUnion(t *testing.T) {
	addr, _ := startBridgedProxy(t)
	cl := oldClient(t, addr)
	resp := kafkamsg.NewAPIVersionsResponse()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	require.NoError(t, cl.Do(ctx, kafkamsg.NewAPIVersionsRequest(), 3, resp))
	got := map[int16][2]int16{}
	for _, k := range resp.APIKeys {
		got[k.APIKey] = [2]int16{k.MinVersion, k.MaxVersion}
	}
	assert.Equal(t, [2]int16{0, 11}, got[kafkamsg.APIKeyProduce])
	assert.Equal(t, [2]int16{0, 17}, got[kafkamsg.APIKeyFetch], "Fetch from v0: the bridge translates 0-3")
}

// TestBridgeAcksZero: a Produce v0 with acks 0 is forwarded as v3 with acks
// 0 and stays answerless: the next request's answer is the next one read.
func TestBridgeAcksZero(t *testing.T) {
	addr, _ := startBridgedProxy(t)
	cl := oldClient(t, addr)
	req := kafkamsg.NewProduceRequest()
	req.Acks, req.TimeoutMs = 0, 1000
	req.TopicData = []kafkamsg.ProduceRequestTopicProduceData{{Name: "z", PartitionData: []kafkamsg.ProduceRequestPartitionProduceData{{Index: 0, Records: legacySet(t, 1, "x", "y")}}}}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	require.NoError(t, cl.Send(ctx, req, 0))
	fetch := kafkamsg.NewFetchRequest()
	fetch.Topics = []kafkamsg.FetchRequestFetchTopic{{Topic: "z", Partitions: []kafkamsg.FetchRequestFetchPartition{fetchPart(0, 0, 1<<20)}}}
	resp := kafkamsg.NewFetchResponse()
	require.NoError(t, cl.Do(ctx, fetch, 2, resp))
	got, magics := messages(t, resp.Responses[0].Partitions[0].Records)
	assert.Equal(t, []string{"0:kx=x", "1:ky=y"}, got)
	assert.Equal(t, []int8{1, 1}, magics, "Fetch v2: magic 1")
}
