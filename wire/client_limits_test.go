package wire

import (
	"context"
	"encoding/binary"
	"net"
	"os"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generated"
	kruntime "github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/frames"
)

// The rows of issue 18's table about the client: deadlines honoured
// whatever other callers do, one caller's failure kept to itself unless
// bytes of a frame left, responses nobody waits for discarded as they
// arrive, and a default request timeout.

// bigRequest is a StopReplica request (key 5, v0) whose body is n
// bytes: the peers of these tests read frames, not messages.
type bigRequest struct{ n int }

func (b bigRequest) Size(int16) int { return b.n }
func (b bigRequest) AppendTo(dst []byte, _ int16) ([]byte, error) {
	return append(dst, make([]byte, b.n)...), nil
}
func (bigRequest) Decode([]byte, int16) (int, error)        { return 0, nil }
func (bigRequest) DecodeAliased([]byte, int16) (int, error) { return 0, nil }
func (bigRequest) Reset()                                   {}
func (bigRequest) SpecName() string                         { return "BigStopReplica" }
func (bigRequest) APIKey() int16                            { return 5 }
func (bigRequest) MinVersion() int16                        { return 0 }
func (bigRequest) MaxVersion() int16                        { return 0 }
func (bigRequest) IsFlexible(int16) bool                    { return false }
func (bigRequest) IsRequest() bool                          { return true }
func (bigRequest) HeaderVersion(int16) int16                { return 1 }

// rawPeer reads request frames and answers them by hand.
type rawPeer struct {
	t      testing.TB
	conn   net.Conn
	frames *frames.FrameReader
}

func newRawPeer(t testing.TB, conn net.Conn) *rawPeer {
	return &rawPeer{t: t, conn: conn, frames: frames.NewFrameReader(conn, 1<<30)}
}

// next reads one request frame and returns its correlation id.
func (p *rawPeer) next() int32 {
	frame, err := p.frames.Next()
	require.NoError(p.t, err)
	return int32(binary.BigEndian.Uint32(frame[4:]))
}

// answer writes an empty StopReplica v0 response for corr.
func (p *rawPeer) answer(corr int32) {
	out, err := frames.AppendResponse(nil, corr, generated.NewStopReplicaResponse(), 0)
	require.NoError(p.t, err)
	_, err = p.conn.Write(out)
	require.NoError(p.t, err)
}

// issue 18: a call with a 100 ms (or 50 ms) deadline queued behind another
// caller's 32 MiB write to a peer that does not read returns at its
// deadline, sends nothing and takes no correlation id; the other caller's
// call completes once the peer reads.
func TestClientQueuedCallReturnsAtItsDeadline(t *testing.T) {
	for _, deadline := range []time.Duration{100 * time.Millisecond, 50 * time.Millisecond} {
		t.Run(deadline.String(), func(t *testing.T) {
			cconn, sconn := loopbackPair(t)
			c := NewClient(cconn, ClientConfig{})
			defer c.Close()
			bigDone := make(chan error, 1)
			go func() {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				bigDone <- c.Do(ctx, bigRequest{32 << 20}, 0, generated.NewStopReplicaResponse())
			}()
			require.Eventually(t, func() bool { c.mu.Lock(); defer c.mu.Unlock(); return c.nextID == 1 },
				30*time.Second, time.Millisecond, "the writer took the 32 MiB request")

			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			defer cancel()
			began := time.Now()
			err := c.Do(ctx, stopReplica(), 0, generated.NewStopReplicaResponse())
			took := time.Since(began)
			require.ErrorIs(t, err, context.DeadlineExceeded)
			assert.Contains(t, err.Error(), "StopReplicaRequest v0 not sent")
			assert.Less(t, took, deadline+3*time.Second, "returned at its deadline, not at the end of the other write (which ends only once the peer reads, after this)")
			require.NoError(t, c.Err(), "a call that sent nothing leaves the connection usable")
			defer func() {
				if !t.Failed() {
					t.Logf("reliability: wire client: a call with a %v deadline queued behind another caller's 32 MiB write to a peer that does not read returned after %d ms; the other call and the connection unharmed", deadline, took.Milliseconds())
				}
			}()

			p := newRawPeer(t, sconn)
			served := make(chan []int32, 1)
			go func() {
				a := p.next()
				p.answer(a)
				b := p.next()
				p.answer(b)
				served <- []int32{a, b}
			}()
			require.NoError(t, <-bigDone)
			require.NoError(t, c.Do(context.Background(), stopReplica(), 0, generated.NewStopReplicaResponse()))
			assert.Equal(t, []int32{0, 1}, <-served, "the timed-out call took no correlation id")
		})
	}
}

// A write that the peer does not take within the request timeout leaves
// part of a frame on the wire: the connection breaks, and every call in
// flight gets the write's error.
func TestClientWriteTimeoutBreaksTheConnection(t *testing.T) {
	cconn, sconn := loopbackPair(t)
	_ = sconn // never read
	c := NewClient(cconn, ClientConfig{RequestTimeout: 200 * time.Millisecond})
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	first := make(chan error, 1)
	go func() { first <- c.Do(ctx, stopReplica(), 0, generated.NewStopReplicaResponse()) }()
	require.Eventually(t, func() bool { c.mu.Lock(); defer c.mu.Unlock(); return len(c.pending) == 1 }, 5*time.Second, time.Millisecond)

	err := c.Do(ctx, bigRequest{32 << 20}, 0, generated.NewStopReplicaResponse())
	require.ErrorIs(t, err, os.ErrDeadlineExceeded)
	assert.Contains(t, err.Error(), "writing BigStopReplica v0 (correlation id 1)")
	require.ErrorIs(t, <-first, os.ErrDeadlineExceeded, "the call in flight gets the write's error")
	require.ErrorIs(t, c.Err(), os.ErrDeadlineExceeded)
}

// A context without a deadline gets the request timeout: 30 s by default,
// what the config says, or none when it is negative.
func TestClientRequestTimeout(t *testing.T) {
	assert.Equal(t, DefaultRequestTimeout, NewClient(nopConn{}, ClientConfig{}).timeout)
	unbounded := NewClient(nopConn{}, ClientConfig{RequestTimeout: -1})
	ctx, cancel := unbounded.bound(context.Background())
	defer cancel()
	_, has := ctx.Deadline()
	assert.False(t, has, "a negative timeout sets no deadline")

	cconn, sconn := loopbackPair(t)
	c := NewClient(cconn, ClientConfig{RequestTimeout: 100 * time.Millisecond})
	defer c.Close()
	go func() { _, _, _ = newRawPeer(t, sconn).frames.Skip(nil) }() // read, never answer
	began := time.Now()
	err := c.Do(context.Background(), stopReplica(), 0, generated.NewStopReplicaResponse())
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(began), 5*time.Second)
	require.NoError(t, c.Err())
}

// nopConn is a connection that blocks nothing and carries nothing, for
// clients that are only inspected.
type nopConn struct{ net.Conn }

func (nopConn) Read([]byte) (int, error)         { return 0, net.ErrClosed }
func (nopConn) Write(b []byte) (int, error)      { return len(b), nil }
func (nopConn) Close() error                     { return nil }
func (nopConn) SetReadDeadline(time.Time) error  { return nil }
func (nopConn) SetWriteDeadline(time.Time) error { return nil }

// issue 18: 10 connections each receive 100 MiB − 1 of a 100 MiB response
// and the peers stall; when the callers give up, the buffers holding those
// bytes are dropped and the rest of each response is discarded as it
// arrives. Bound: HeapInuse within 64 MiB of what it was before the
// responses (it was ~1 GiB over the baseline before the fix). The peers
// then finish the responses and answer a second call on each connection.
// Under the race detector, whose shadow memory would multiply the 1 GiB
// in flight, the responses are 16 MiB: 160 MiB in all, still over the
// bound if they were kept.
func TestClientDiscardsAbandonedResponses(t *testing.T) {
	const conns = 10
	size := 100 << 20
	if raceEnabled {
		size = 16 << 20
	}
	base := heapInuse()
	type link struct {
		c      *Client
		peer   *rawPeer
		cancel context.CancelFunc
		done   chan error
	}
	links := make([]link, conns)
	for i := range links {
		cconn, sconn := loopbackPair(t)
		longer := time.Now().Add(2 * time.Minute) // 1 GiB on a loaded machine
		require.NoError(t, sconn.SetDeadline(longer))
		require.NoError(t, cconn.SetReadDeadline(longer))
		l := link{c: NewClient(cconn, ClientConfig{}), peer: newRawPeer(t, sconn), done: make(chan error, 1)}
		defer l.c.Close()
		var ctx context.Context
		ctx, l.cancel = context.WithTimeout(context.Background(), time.Minute)
		defer l.cancel()
		go func() { l.done <- l.c.Do(ctx, stopReplica(), 0, generated.NewStopReplicaResponse()) }()
		links[i] = l
	}
	chunk := make([]byte, 1<<20)
	var wg sync.WaitGroup
	for _, l := range links {
		wg.Add(1)
		go func() {
			defer wg.Done()
			corr := l.peer.next()
			head := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, uint32(size)), uint32(corr))
			_, err := l.peer.conn.Write(head)
			assert.NoError(t, err)
			for sent := 4; sent < size-1; sent += len(chunk) {
				if _, err := l.peer.conn.Write(chunk[:min(len(chunk), size-1-sent)]); err != nil {
					assert.NoError(t, err)
					return
				}
			}
		}()
	}
	wg.Wait() // every byte but the last is sent, most of them read
	for _, l := range links {
		l.cancel()
		require.ErrorIs(t, <-l.done, context.Canceled)
	}
	var over uint64
	require.Eventually(t, func() bool { over = heapInuse() - min(base, heapInuse()); return over < 64<<20 }, 20*time.Second, 50*time.Millisecond,
		"HeapInuse %d MiB over the baseline after the callers gave up", (heapInuse()-base)>>20)
	defer func() {
		if !t.Failed() {
			t.Logf("reliability: wire client: %d connections each received %d MiB - 1 of a %d MiB response, callers gave up: HeapInuse %d MiB over the baseline (bound 64 MiB); every connection answers the next call",
				conns, size>>20, size>>20, over>>20)
		}
	}()

	for _, l := range links {
		_, err := l.peer.conn.Write([]byte{0})
		require.NoError(t, err)
		go func() { l.peer.answer(l.peer.next()) }()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		require.NoError(t, l.c.Do(ctx, stopReplica(), 0, generated.NewStopReplicaResponse()), "the connection is still in step")
		cancel()
	}
}

// heapInuse is the heap in use after a collection.
func heapInuse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// A response arriving for a caller that gave up is checked before it is
// discarded: a wrong correlation id still breaks the connection.
func TestClientSkipChecksTheCorrelationID(t *testing.T) {
	cconn, sconn := loopbackPair(t)
	c := NewClient(cconn, ClientConfig{})
	defer c.Close()
	p := newRawPeer(t, sconn)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	got := make(chan int32, 1)
	go func() { got <- p.next() }()
	require.ErrorIs(t, c.Do(ctx, stopReplica(), 0, generated.NewStopReplicaResponse()), context.DeadlineExceeded)
	p.answer(<-got + 3)
	require.Eventually(t, func() bool { return c.Err() != nil }, 5*time.Second, time.Millisecond)
	var ce *CorrelationError
	require.ErrorAs(t, c.Err(), &ce)
	assert.Equal(t, CorrelationError{Want: 0, Got: 3, APIKey: 5}, *ce)
}

var _ kruntime.APIMessage = bigRequest{}
