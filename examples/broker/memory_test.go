package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"net"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/records"
	rt "github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/frames"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// distinctClientIDs returns n distinct client ids of size bytes each, all
// substrings of one string (so that making them costs one allocation),
// and that string.
func distinctClientIDs(n, size int) ([]string, string) {
	var b strings.Builder
	for b.Len() < n+size {
		fmt.Fprintf(&b, "%x", b.Len()*2654435761)
	}
	whole := b.String()
	ids := make([]string, n)
	for i := range ids {
		ids[i] = whole[i : i+size]
	}
	return ids, whole
}

// within reports whether s's bytes lie inside whole's.
func within(s, whole string) bool {
	p, start := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(whole)))
	return p >= start && p < start+uintptr(len(whole))
}

// TestStatsAndCaptureBoundClientIDs: 20,000 distinct 32,000-byte client ids
// leave at most maxTrackedClients ids (and "other") in the stats and the
// capture, each cut to maxClientIDKeyLen bytes and copied, not a view of the
// request's string that would keep it alive.
func TestStatsAndCaptureBoundClientIDs(t *testing.T) {
	ids, whole := distinctClientIDs(20000, 32000)
	stats := NewStats()
	capture, err := NewCapture(t.TempDir())
	require.NoError(t, err)
	for _, id := range ids {
		stats.Count(id, kafkamsg.APIKeyAPIVersions, 3)
		require.NoError(t, capture.Frame(id, kafkamsg.APIKeyAPIVersions, 3, []byte{1}))
	}
	requests, _ := stats.Snapshot()
	assert.Equal(t, int64(len(ids)), requests)
	require.Len(t, stats.Clients, maxTrackedClients+1)
	assert.Equal(t, int64(len(ids)-maxTrackedClients), stats.Clients[otherClients]["ApiVersions v3"])
	for key := range stats.Clients {
		assert.LessOrEqual(t, len(key), maxClientIDKeyLen)
		assert.False(t, within(key, whole), "a stats key is a copy")
	}
	assert.Len(t, capture.clients, maxTrackedClients)
	for key := range capture.seen {
		assert.False(t, within(key.clientID, whole), "a capture key is a copy")
	}
	dirs, err := os.ReadDir(capture.dir)
	require.NoError(t, err)
	assert.Len(t, dirs, maxTrackedClients)
}

// gzipBomb is a gzip v2 batch of one record whose value is size zero
// bytes, compressed as it is written (nothing of that size is allocated).
func gzipBomb(t *testing.T, size int, timestamp int64) []byte {
	var body []byte
	body = append(body, 0, 0, 0)         // attributes, timestamp delta, offset delta
	body = binary.AppendVarint(body, -1) // a null key
	body = binary.AppendVarint(body, int64(size))
	head := binary.AppendVarint(nil, int64(len(body)+size+1)) // the value, then a header count
	var z bytes.Buffer
	w, err := gzip.NewWriterLevel(&z, gzip.BestSpeed)
	require.NoError(t, err)
	_, err = w.Write(append(head, body...))
	require.NoError(t, err)
	zeros := make([]byte, 1<<20)
	for left := size; left > 0; left -= len(zeros) {
		_, err = w.Write(zeros[:min(left, len(zeros))])
		require.NoError(t, err)
	}
	_, err = w.Write([]byte{0})
	require.NoError(t, err)
	require.NoError(t, w.Close())
	batch := concat(recordsOf(t, 1, timestamp)[:testRecordsPos], z.Bytes())
	binary.BigEndian.PutUint32(batch[8:], uint32(len(batch)-12))
	return resealed(batch, func(b []byte) { b[batchAttributesPos+1] |= byte(records.CompressionGzip) })
}

// liveHeap is the heap in use after a full collection.
func liveHeap() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// rawExchange writes frames on conn and reads one answer per frame,
// returning the last; it bypasses wire.Client so that the test keeps no
// buffers of its own.
func rawExchange(t *testing.T, conn net.Conn, requests ...[]byte) []byte {
	t.Helper()
	require.NoError(t, conn.SetDeadline(time.Now().Add(20*time.Second)))
	fr := frames.NewFrameReader(conn, 0)
	var answer []byte
	for _, f := range requests {
		_, err := conn.Write(f)
		require.NoError(t, err)
		answer, err = fr.Next()
		require.NoError(t, err)
	}
	return answer
}

func requestFrame(t *testing.T, clientID string, correlation int32, req rt.APIMessage, version int16) []byte {
	t.Helper()
	h := frames.RequestHeader{APIKey: req.APIKey(), APIVersion: version, CorrelationID: correlation, ClientID: rt.NewNullString(clientID)}
	out, err := frames.AppendRequest(nil, &h, req)
	require.NoError(t, err)
	return out
}

// produceAnswerCode decodes a Produce v9 answer's only partition's code.
func produceAnswerCode(t *testing.T, answer []byte) int16 {
	t.Helper()
	resp := kafkamsg.NewProduceResponse()
	_, err := resp.Decode(answer[5:], 9) // correlation id and empty tags of a flexible header
	require.NoError(t, err)
	return resp.Responses[0].PartitionResponses[0].ErrorCode
}

// TestIdleConnectionsReleaseBuffers: connections that sent a large request
// (or got a large answer) and then sit idle keep no large buffers: the
// live heap grows by less than a stated bound, where keeping them would
// grow it by the multiple in each row's comment.
func TestIdleConnectionsReleaseBuffers(t *testing.T) {
	const conns = 5
	now := time.Now().UnixMilli()
	oversized := make([]byte, 16<<20) // zeros: one 16 MiB record, refused unread
	bigBatch := v2Batch(t, records.CompressionNone, testRecord{value: oversized, timestamp: now})
	bomb := gzipBomb(t, 65<<20, now)
	require.Less(t, len(bomb), 1<<20)
	ids, _ := distinctClientIDs(2000, 32000)
	bigFrame := requestFrame(t, "big", 1, produceReq("mem", 0, 1, bigBatch), 9)
	bombFrame := requestFrame(t, "bomb", 1, produceReq("mem", 0, 1, bomb), 9)

	tests := []struct {
		name  string
		setup func(t *testing.T, tb *testBroker)
		// frames are what each connection sends; check looks at the answer
		// to the last one.
		frames func(t *testing.T, conn int) [][]byte
		check  func(t *testing.T, answer []byte)
		bound  int64
	}{
		{ // kept: frame, decoded copy and re-encoding, 48 MiB a connection
			name: "a 16 MiB Produce refused",
			frames: func(t *testing.T, conn int) [][]byte {
				return [][]byte{bigFrame}
			},
			check: func(t *testing.T, answer []byte) {
				assert.Equal(t, kerrors.MessageTooLarge.Code, produceAnswerCode(t, answer))
			},
			bound: 24 << 20,
		},
		{ // kept: the 64 MiB decompression buffer a connection
			name: "a gzip bomb refused",
			frames: func(t *testing.T, conn int) [][]byte {
				return [][]byte{bombFrame}
			},
			check: func(t *testing.T, answer []byte) {
				assert.Equal(t, kerrors.CorruptMessage.Code, produceAnswerCode(t, answer))
			},
			bound: 24 << 20,
		},
		{ // kept: the 4 MiB answer (and the records gathered for it) a connection
			name: "a 4 MiB Fetch answer read",
			setup: func(t *testing.T, tb *testBroker) {
				cl := tb.client(t, "filler")
				for i := 0; i < 8; i++ {
					blob := v2Batch(t, records.CompressionNone, testRecord{value: make([]byte, 1000000), timestamp: now})
					require.Equal(t, codeNone, produce(t, cl, 9, "mem", 0, blob).ErrorCode)
				}
			},
			frames: func(t *testing.T, conn int) [][]byte {
				req := fetchReq(12, "mem", rt.UUID{}, 0, 0)
				req.MaxBytes, req.Topics[0].Partitions[0].PartitionMaxBytes = 64<<20, 64<<20
				return [][]byte{requestFrame(t, "reader", 1, req, 12)}
			},
			check: func(t *testing.T, answer []byte) { assert.Greater(t, len(answer), 3<<20) },
			bound: 8 << 20,
		},
		{ // kept: 64 MB of client ids in the stats
			name: "2,000 ApiVersions with new 32,000-byte client ids",
			frames: func(t *testing.T, conn int) [][]byte {
				var frames [][]byte
				for i, id := range ids[conn*len(ids)/conns : (conn+1)*len(ids)/conns] {
					frames = append(frames, requestFrame(t, id, int32(i), kafkamsg.NewAPIVersionsRequest(), 3))
				}
				return frames
			},
			check: func(t *testing.T, answer []byte) { assert.NotEmpty(t, answer) },
			bound: 8 << 20,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := startBroker(t, Config{AutoCreate: true, Logger: discardLogger()})
			createTopic(t, tb.client(t, "setup"), "mem", 1)
			if tt.setup != nil {
				tt.setup(t, tb)
			}
			frames := make([][][]byte, conns)
			for i := range frames {
				frames[i] = tt.frames(t, i)
			}
			open := make([]net.Conn, conns)
			for i := range open {
				conn, err := net.DialTimeout("tcp", tb.addr, 5*time.Second)
				require.NoError(t, err)
				t.Cleanup(func() { conn.Close() })
				open[i] = conn
			}
			// A first request on each connection, so that the baseline
			// holds the connections' small buffers.
			probe := requestFrame(t, "probe", 0, kafkamsg.NewAPIVersionsRequest(), 3)
			for _, conn := range open {
				rawExchange(t, conn, probe)
			}
			before := liveHeap()
			for i, conn := range open {
				tt.check(t, rawExchange(t, conn, frames[i]...))
				// The server answers in order: once this answer is here, it
				// has released what the requests before it grew.
				rawExchange(t, conn, probe)
			}
			grown := liveHeap() - before
			runtime.KeepAlive(frames) // the test's own frames are not counted as freed
			t.Logf("live heap grew by %.1f MiB over %d idle connections", float64(grown)/(1<<20), conns)
			assert.Less(t, grown, tt.bound)
		})
	}
}
