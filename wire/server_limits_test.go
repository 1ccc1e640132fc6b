package wire

import (
	"context"
	"encoding/binary"
	"net"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generated"
	kruntime "github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/frames"
)

// A peer that sends a request a byte at a time (slowloris) is closed once
// the request read timeout passes after its first byte, long before its
// request is whole; a TLS-less peer idle before its first byte is not
// bound by that timeout but by the idle one.
func TestServerSlowloris(t *testing.T) {
	const timeout = 300 * time.Millisecond
	ts := startServer(t, &echoHandler{}, ServerOptions{Limits: Limits{RequestReadTimeout: timeout}})
	conn := dial(t, ts.addr)
	frame := requestFrame(t, 50, 0, 1, heartbeat(1)) // 4 s at 1 byte per 100 ms
	start := time.Now()
	sent := 0
	for ; sent < len(frame); sent++ {
		if _, err := conn.Write(frame[sent : sent+1]); err != nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
		if time.Since(start) > 2*time.Second {
			break
		}
	}
	end := ts.nextEnd(t)
	assert.ErrorIs(t, end.err, ErrRequestTimeout)
	assert.Less(t, sent, len(frame), "the request never arrived whole")
	requireClosed(t, conn)

	// Stalling inside the size prefix is the same.
	conn = dial(t, ts.addr)
	_, err := conn.Write([]byte{0, 0})
	require.NoError(t, err)
	assert.ErrorIs(t, ts.nextEnd(t).err, ErrRequestTimeout)
	requireClosed(t, conn)
}

// Connections without a request in progress for connections.max.idle.ms
// are closed; ones that keep asking are not.
func TestServerReapsIdleConnections(t *testing.T) {
	const idle = 300 * time.Millisecond
	ts := startServer(t, &echoHandler{}, ServerOptions{Limits: Limits{ConnectionsMaxIdle: idle}})
	silent := dial(t, ts.addr)
	served := dial(t, ts.addr)
	beat(t, served, 1)
	busy := dial(t, ts.addr)
	for i := range int32(8) { // 800 ms of a request every 100 ms
		beat(t, busy, i)
		time.Sleep(idle / 3)
	}
	for range 2 {
		assert.ErrorIs(t, ts.nextEnd(t).err, ErrIdle)
	}
	requireClosed(t, silent)
	requireClosed(t, served)
	beat(t, busy, 9)
}

// bigResponse is a BrokerHeartbeat response of any size (zero bytes), for
// responses that fill the socket.
type bigResponse struct {
	generated.BrokerHeartbeatResponse
	size int
}

func (b *bigResponse) Size(int16) int { return b.size }
func (b *bigResponse) AppendTo(dst []byte, _ int16) ([]byte, error) {
	return append(dst, make([]byte, b.size)...), nil
}

// heapInUse is the heap in use after a collection.
func heapInUse() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapInuse)
}

// A peer that never reads is disconnected at the write timeout, and the
// response's memory is given back.
func TestServerDisconnectsPeersThatDoNotRead(t *testing.T) {
	const size = 32 << 20 // more than loopback's socket buffers hold
	h := HandlerFunc(func(context.Context, *Peer, *Request) (kruntime.APIMessage, error) {
		return &bigResponse{size: size}, nil
	})
	ts := startServer(t, h, ServerOptions{Limits: Limits{WriteTimeout: 300 * time.Millisecond}})
	before := heapInUse()
	conn := dial(t, ts.addr)
	send(t, conn, 50, 0, 1, heartbeat(1))
	end := ts.nextEnd(t)
	assert.ErrorIs(t, end.err, ErrWriteTimeout)
	st := ts.Stats()
	assert.Zero(t, st.QueuedResponseBytes)
	assert.GreaterOrEqual(t, st.PeakResponseBytes, int64(size))
	assert.Zero(t, st.Connections)
	assert.Less(t, heapInUse()-before, int64(4<<20), "the %d-byte response is freed", size)
}

// Peers announcing the largest frame and sending a little of it cost what
// they sent, not what they announced.
func TestServerAnnouncedFramesCostWhatArrives(t *testing.T) {
	const conns, sent = 10, 256 << 10
	ts := startServer(t, &echoHandler{}, ServerOptions{Limits: Limits{QueuedMaxRequestBytes: -1, RequestReadTimeout: time.Second}})
	before := heapInUse()
	var prefix [4]byte
	binary.BigEndian.PutUint32(prefix[:], frames.DefaultMaxFrameSize)
	for range conns {
		conn := dial(t, ts.addr)
		_, err := conn.Write(append(prefix[:], make([]byte, sent)...))
		require.NoError(t, err)
	}
	time.Sleep(200 * time.Millisecond) // the server reads what was sent
	held := heapInUse() - before
	t.Logf("%d connections announcing %d MiB and sending %d KiB hold %d KiB", conns, frames.DefaultMaxFrameSize>>20, sent>>10, held>>10)
	assert.Less(t, held, int64(conns*(2*sent+(64<<10))+(4<<20)), "at most twice what arrived (buffers double), not %d MiB", conns*frames.DefaultMaxFrameSize>>20)
	beat(t, dial(t, ts.addr), 1) // others are served meanwhile
	for range conns {
		assert.ErrorIs(t, ts.nextEnd(t).err, ErrRequestTimeout)
	}
}

// bigStopReplica is a StopReplica request of about size bytes.
func bigStopReplica(size int) *generated.StopReplicaRequest {
	req := stopReplica()
	name := strings.Repeat("t", 30000)
	for range size / 30000 {
		req.Partitions = append(req.Partitions, generated.StopReplicaRequestStopReplicaPartition{TopicName: name})
	}
	return req
}

// Many connections sending large requests at once are served within the
// queued request bytes: the others wait before reading their bodies.
func TestServerQueuedRequestBytes(t *testing.T) {
	const conns, size, queued = 12, 1 << 20, 3 << 20
	var active, most atomic.Int32
	h := HandlerFunc(func(ctx context.Context, p *Peer, req *Request) (kruntime.APIMessage, error) {
		n := active.Add(1)
		defer active.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		time.Sleep(30 * time.Millisecond)
		return (&echoHandler{}).ServeKafka(ctx, p, req)
	})
	ts := startServer(t, h, ServerOptions{Alias: true, Limits: Limits{MaxRequestSize: 2 << 20, QueuedMaxRequestBytes: queued}})
	frame := requestFrame(t, 5, 0, 1, bigStopReplica(size))
	var waitedOnce atomic.Bool
	var wg sync.WaitGroup
	clients := make([]net.Conn, conns)
	for i := range clients {
		clients[i] = dial(t, ts.addr)
		wg.Go(func() { _, _ = clients[i].Write(frame) })
	}
	received := make(chan struct{})
	wg.Go(func() {
		for !waitedOnce.Load() {
			waitedOnce.Store(ts.Stats().WaitingForRequestRoom > 0)
			select {
			case <-received:
				return
			case <-time.After(time.Millisecond):
			}
		}
	})
	for _, conn := range clients {
		receive(t, conn, 0, 1, generated.NewStopReplicaResponse())
	}
	close(received)
	wg.Wait()
	st := ts.Stats()
	assert.LessOrEqual(t, st.PeakRequestBytes, int64(queued))
	assert.LessOrEqual(t, most.Load(), int32(queued/len(frame)))
	assert.True(t, waitedOnce.Load(), "connections waited for room")
	// A request's bytes are counted until its answer has been written.
	eventually(t, func() bool { return ts.Stats().QueuedRequestBytes == 0 })
}

// eventually waits up to 5 s for cond.
func eventually(t *testing.T, cond func() bool) {
	t.Helper()
	for i := 0; !cond(); i++ {
		if i == 500 {
			t.Fatal("condition not met within 5 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Responses wait for room in the same way: peers that do not read yet
// hold two responses in the server, and the others wait to be encoded.
func TestServerQueuedResponseBytes(t *testing.T) {
	const conns, size, queued = 5, 8 << 20, 2*(8<<20) + 100 // more than loopback's socket buffers hold
	h := HandlerFunc(func(context.Context, *Peer, *Request) (kruntime.APIMessage, error) {
		return &bigResponse{size: size}, nil
	})
	ts := startServer(t, h, ServerOptions{Limits: Limits{MaxResponseSize: size + 100, QueuedMaxResponseBytes: queued}})
	clients := make([]net.Conn, conns)
	for i := range clients {
		clients[i] = dial(t, ts.addr)
		send(t, clients[i], 50, 0, 1, heartbeat(1))
	}
	eventually(t, func() bool { return ts.Stats().WaitingForResponseRoom == conns-2 })
	lengths := make([]int, conns)
	var wg sync.WaitGroup
	for i, conn := range clients {
		wg.Go(func() {
			frame, err := frames.NewFrameReader(conn, 0).Next()
			assert.NoError(t, err)
			lengths[i] = len(frame)
		})
	}
	wg.Wait()
	for _, n := range lengths {
		assert.Equal(t, 5+size, n) // correlation id, empty tags, body
	}
	st := ts.Stats()
	assert.LessOrEqual(t, st.PeakResponseBytes, int64(queued))
	assert.GreaterOrEqual(t, st.PeakResponseBytes, int64(2*size))
}

// After a burst of large requests, idle connections give their memory
// back.
func TestServerGivesMemoryBackWhenIdle(t *testing.T) {
	const conns, size = 20, 1 << 20
	ts := startServer(t, &echoHandler{}, ServerOptions{Limits: Limits{MaxRequestSize: 2 << 20, QueuedMaxRequestBytes: -1}})
	frame := requestFrame(t, 5, 0, 1, bigStopReplica(size))
	before := heapInUse()
	clients := make([]net.Conn, conns)
	for i := range clients {
		clients[i] = dial(t, ts.addr)
		_, err := clients[i].Write(frame)
		require.NoError(t, err)
	}
	for _, conn := range clients {
		receive(t, conn, 0, 1, generated.NewStopReplicaResponse())
	}
	busy := heapInUse() - before
	time.Sleep(idleRelease + 300*time.Millisecond)
	idle := heapInUse() - before
	t.Logf("%d connections after a %d KiB request each: %d KiB held at once, %d KiB once idle", conns, len(frame)>>10, busy>>10, idle>>10)
	// Each connection holds its frame and decoded copy between requests
	// (2 MiB); slow runs (-race) may see the first ones released already.
	assert.Greater(t, busy, int64(conns*size/2), "buffers are held between requests")
	assert.Less(t, idle, int64(conns*64<<10), "idle connections hold almost nothing")
	assert.Equal(t, conns, ts.Stats().Connections)
}

// A client sending a new 32,000-byte client id with every request leaves
// nothing behind: the server keeps nothing keyed by what clients choose.
func TestServerKeepsNoClientIDs(t *testing.T) {
	const requests = 1000
	ts := startServer(t, &echoHandler{}, ServerOptions{})
	conn := dial(t, ts.addr)
	before := heapInUse()
	id := []byte(strings.Repeat("c", 32000))
	var frame []byte
	for i := range int32(requests) {
		binary.BigEndian.PutUint32(id, uint32(i))
		h := frames.RequestHeader{APIKey: 50, CorrelationID: i, ClientID: kruntime.NewNullString(string(id))}
		var err error
		frame, err = frames.AppendRequest(frame[:0], &h, heartbeat(int64(i)))
		require.NoError(t, err)
		_, err = conn.Write(frame)
		require.NoError(t, err)
		receive(t, conn, 0, i, generated.NewBrokerHeartbeatResponse())
	}
	held := heapInUse() - before
	t.Logf("%d requests with distinct %d-byte client ids: %d KiB held", requests, len(id), held>>10)
	assert.Less(t, held, int64(1<<20), "not the %d MiB of client ids sent", requests*len(id)>>20)
}
