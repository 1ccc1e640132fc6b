package wire

import (
	"context"
	"errors"
	"io"
	"net"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generated"
	kruntime "github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/frames"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// testServer is a Server on a loopback listener, closed when the test ends.
type testServer struct {
	*Server
	addr   string
	served chan error // Serve's result
	closed chan connEnd
}

// connEnd is one ConnClosed report.
type connEnd struct {
	peer Peer
	err  error
}

// startServer serves h on 127.0.0.1 with opts (NewRequest defaults to
// generated.NewRequest); ConnClosed reports go to the closed channel.
func startServer(t *testing.T, h Handler, opts ServerOptions) *testServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	return serveOn(t, ln, h, opts)
}

func serveOn(t *testing.T, ln net.Listener, h Handler, opts ServerOptions) *testServer {
	t.Helper()
	if opts.NewRequest == nil {
		opts.NewRequest = generated.NewRequest
	}
	ts := &testServer{addr: ln.Addr().String(), served: make(chan error, 1), closed: make(chan connEnd, 1000)}
	if opts.Logf == nil {
		opts.Logf = t.Logf
	}
	opts.ConnClosed = func(p *Peer, err error) { ts.closed <- connEnd{*p, err} }
	s, err := NewServer(h, opts)
	require.NoError(t, err)
	ts.Server = s
	go func() { ts.served <- s.Serve(ln) }()
	t.Cleanup(func() {
		require.NoError(t, s.Close())
		select {
		case err := <-ts.served:
			assert.ErrorIs(t, err, ErrServerClosed)
		case <-time.After(5 * time.Second):
			t.Error("Serve did not return after Close")
		}
	})
	return ts
}

// nextEnd waits for the next connection to end and returns why.
func (ts *testServer) nextEnd(t *testing.T) connEnd {
	t.Helper()
	select {
	case e := <-ts.closed:
		return e
	case <-time.After(10 * time.Second):
		t.Fatal("no connection ended within 10 s")
		return connEnd{}
	}
}

// dial connects to the server, with a deadline on everything the test does
// with the connection, closed when the test ends.
func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	require.NoError(t, err)
	require.NoError(t, conn.SetDeadline(time.Now().Add(20*time.Second)))
	t.Cleanup(func() { conn.Close() })
	return conn
}

// send writes one request frame.
func send(t *testing.T, conn net.Conn, key, version int16, corr int32, req kruntime.APIMessage) {
	t.Helper()
	_, err := conn.Write(requestFrame(t, key, version, corr, req))
	require.NoError(t, err)
}

// receive reads one response frame into resp, checking the correlation id.
func receive(t *testing.T, conn net.Conn, version int16, corr int32, resp kruntime.APIMessage) {
	t.Helper()
	frame, err := frames.NewFrameReader(conn, 0).Next()
	require.NoError(t, err)
	var h frames.ResponseHeader
	n, err := h.Decode(frame, resp.HeaderVersion(version), false)
	require.NoError(t, err)
	require.Equal(t, corr, h.CorrelationID)
	used, err := resp.Decode(frame[n:], version)
	require.NoError(t, err)
	require.Equal(t, len(frame)-n, used, "the response has no bytes left over")
}

// roundTrip sends req and reads its response into resp.
func roundTrip(t *testing.T, conn net.Conn, version int16, corr int32, req, resp kruntime.APIMessage) {
	t.Helper()
	send(t, conn, req.APIKey(), version, corr, req)
	receive(t, conn, version, corr, resp)
}

// heartbeat makes a BrokerHeartbeat request whose answer carries epoch+1.
func heartbeat(epoch int64) *generated.BrokerHeartbeatRequest {
	hb := generated.NewBrokerHeartbeatRequest()
	hb.BrokerEpoch = epoch
	return hb
}

// beat does one BrokerHeartbeat round trip and checks the echo handler's
// answer.
func beat(t *testing.T, conn net.Conn, corr int32) {
	t.Helper()
	resp := generated.NewBrokerHeartbeatResponse()
	roundTrip(t, conn, 0, corr, heartbeat(int64(corr)), resp)
	require.Equal(t, int64(corr)+1, resp.BrokerEpoch)
}

// requireClosed checks that the server closed conn: a read gets the end of
// the stream (or a reset) before any byte.
func requireClosed(t *testing.T, conn net.Conn) {
	t.Helper()
	var b [1]byte
	n, err := conn.Read(b[:])
	require.Zero(t, n)
	require.Error(t, err)
	var ne net.Error
	require.False(t, errors.As(err, &ne) && ne.Timeout(), "the connection is still open: %v", err)
}

// echoHandler answers ApiVersions with generated's ranges, BrokerHeartbeat
// with the epoch plus one and StopReplica with its first partition;
// BrokerHeartbeat with epoch -1 gets no answer (as Produce with acks 0),
// with epoch -2 an error, with -3 a panic and with -4 a 2 MiB answer. Every peer it sees goes to peers.
type echoHandler struct {
	peers chan Peer
}

func (h *echoHandler) ServeKafka(ctx context.Context, peer *Peer, req *Request) (kruntime.APIMessage, error) {
	if h.peers != nil {
		h.peers <- *peer
	}
	switch body := req.Body.(type) {
	case *generated.APIVersionsRequest:
		resp := generated.NewAPIVersionsResponse()
		for _, r := range SupportedVersions(generated.NewRequest, []int16{5, 18, 50}) {
			resp.APIKeys = append(resp.APIKeys, generated.APIVersionsResponseAPIVersion{APIKey: r.APIKey, MinVersion: r.MinVersion, MaxVersion: r.MaxVersion})
		}
		return resp, nil
	case *generated.BrokerHeartbeatRequest:
		switch body.BrokerEpoch {
		case -1:
			return nil, nil
		case -2:
			return nil, errors.New("refused")
		case -3:
			panic("a handler bug")
		case -4:
			return &bigResponse{size: 2 << 20}, nil
		}
		resp := generated.NewBrokerHeartbeatResponse()
		resp.BrokerEpoch = body.BrokerEpoch + 1
		return resp, nil
	case *generated.StopReplicaRequest:
		resp := generated.NewStopReplicaResponse()
		resp.PartitionErrors = []generated.StopReplicaResponseStopReplicaPartitionError{
			{TopicName: body.Partitions[0].TopicName, PartitionIndex: body.Partitions[0].PartitionIndex},
		}
		return resp, nil
	}
	return nil, errors.New("no handler")
}

func TestServerServesInOrder(t *testing.T) {
	for _, alias := range []bool{false, true} {
		ts := startServer(t, &echoHandler{}, ServerOptions{Alias: alias})
		conn := dial(t, ts.addr)
		// Pipelined: ten requests written before any answer is read.
		pipeline(t, conn, 10)
		drain(t, conn, 10)
		stop := generated.NewStopReplicaResponse()
		roundTrip(t, conn, 0, 11, stopReplica(), stop)
		assert.Equal(t, "orders", stop.PartitionErrors[0].TopicName, "alias %v", alias)

		// No answer for a request the handler answers with nil: the next
		// answer is the next request's.
		send(t, conn, 50, 0, 12, heartbeat(-1))
		beat(t, conn, 13)
	}
}

// What Kafka closes the connection on, the server closes it on, and says
// why.
func TestServerClosesOnUnservableRequests(t *testing.T) {
	cases := []struct {
		name  string
		frame func(t *testing.T) []byte
		why   error // nil: any
		says  string
	}{
		{"handler error", func(t *testing.T) []byte { return requestFrame(t, 50, 0, 1, heartbeat(-2)) }, nil, "api key 50 v0 (correlation id 1): refused"},
		{"handler panic", func(t *testing.T) []byte { return requestFrame(t, 50, 0, 1, heartbeat(-3)) }, nil, "the handler panicked: a handler bug"},
		{"response above the limit", func(t *testing.T) []byte { return requestFrame(t, 50, 0, 1, heartbeat(-4)) }, ErrResponseSize, "a 2097157-byte response"},
		{"unknown api key", func(t *testing.T) []byte { return unhex(t, "0000000a"+"03e7"+"0000"+"00000007"+"ffff") }, ErrUnknownAPIKey, "api key 999"},
		{"trailing bytes", func(t *testing.T) []byte {
			f := requestFrame(t, 5, 0, 10, stopReplica())[4:]
			return frameOf(t, f, []byte{0xee})
		}, ErrTrailingBytes, "1 bytes after the 29-byte body"},
		{"size above the limit", func(t *testing.T) []byte { return unhex(t, "00100001") }, frames.ErrFrameSize, "size 1048577 is above the limit of 1048576 bytes"},
		{"negative size", func(t *testing.T) []byte { return unhex(t, "ffffffff") }, frames.ErrFrameSize, "negative size -1"},
		{"ends inside a frame", func(t *testing.T) []byte { return unhex(t, "00000010"+"0032") }, io.ErrUnexpectedEOF, "reading a request"},
	}
	ts := startServer(t, &echoHandler{}, ServerOptions{Limits: Limits{MaxRequestSize: 1 << 20, MaxResponseSize: 1 << 20}})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			conn := dial(t, ts.addr)
			_, err := conn.Write(c.frame(t))
			require.NoError(t, err)
			if c.why == io.ErrUnexpectedEOF {
				require.NoError(t, conn.(*net.TCPConn).CloseWrite())
			}
			end := ts.nextEnd(t)
			require.Error(t, end.err)
			if c.why != nil {
				assert.ErrorIs(t, end.err, c.why)
			}
			assert.Contains(t, end.err.Error(), c.says)
			requireClosed(t, conn)
		})
	}
	beat(t, dial(t, ts.addr), 1) // and serves the next
}

// An ApiVersions request above the served range is answered, and the
// connection stays.
func TestServerAnswersApiVersionsAboveRange(t *testing.T) {
	ts := startServer(t, &echoHandler{}, ServerOptions{Supported: []VersionRange{{APIKey: 18, MinVersion: 0, MaxVersion: 2}, {APIKey: 50, MinVersion: 0, MaxVersion: 0}}})
	conn := dial(t, ts.addr)
	send(t, conn, 18, 3, 1, generated.NewAPIVersionsRequest())
	resp := generated.NewAPIVersionsResponse()
	receive(t, conn, 0, 1, resp)
	assert.Equal(t, kerrors.UnsupportedVersion.Code, resp.ErrorCode)
	assert.Equal(t, []generated.APIVersionsResponseAPIVersion{{APIKey: 18, MinVersion: 0, MaxVersion: 2}}, resp.APIKeys)
	beat(t, conn, 2)
}

// Shutdown answers the request in progress, closes idle connections at
// once and returns; Serve returns ErrServerClosed.
func TestServerShutdown(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{}, 1)
	h := HandlerFunc(func(ctx context.Context, p *Peer, req *Request) (kruntime.APIMessage, error) {
		entered <- struct{}{}
		<-release
		return (&echoHandler{}).ServeKafka(ctx, p, req)
	})
	ts := startServer(t, h, ServerOptions{})
	busy, idle := dial(t, ts.addr), dial(t, ts.addr)
	send(t, busy, 50, 0, 1, heartbeat(1))
	<-entered
	done := make(chan error, 1)
	go func() { done <- ts.Shutdown(context.Background()) }()
	requireClosed(t, idle)
	select {
	case <-done:
		t.Fatal("Shutdown returned while a request was being served")
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	resp := generated.NewBrokerHeartbeatResponse()
	receive(t, busy, 0, 1, resp)
	assert.Equal(t, int64(2), resp.BrokerEpoch)
	requireClosed(t, busy)
	require.NoError(t, <-done)
	assert.ErrorIs(t, <-ts.served, ErrServerClosed)
	ts.served <- ErrServerClosed // for the cleanup's check
	_, err := net.DialTimeout("tcp", ts.addr, time.Second)
	assert.Error(t, err, "the listener is closed")
}

// Shutdown whose ctx ends first closes everything and ends the handlers'
// ctx; no goroutine of the server outlives Close.
func TestServerCloseEndsEverything(t *testing.T) {
	before := runtime.NumGoroutine()
	var waiting atomic.Int32
	h := HandlerFunc(func(ctx context.Context, p *Peer, req *Request) (kruntime.APIMessage, error) {
		waiting.Add(1)
		<-ctx.Done()
		return nil, ctx.Err()
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	s, err := NewServer(h, ServerOptions{NewRequest: generated.NewRequest, Logf: t.Logf})
	require.NoError(t, err)
	served := make(chan error, 1)
	go func() { served <- s.Serve(ln) }()
	var conns []net.Conn
	for i := range 5 {
		conn := dial(t, ln.Addr().String())
		send(t, conn, 50, 0, int32(i), heartbeat(1))
		conns = append(conns, conn)
	}
	for i := 0; waiting.Load() < 5 && i < 500; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	require.EqualValues(t, 5, waiting.Load())
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	assert.ErrorIs(t, s.Shutdown(ctx), context.DeadlineExceeded)
	assert.ErrorIs(t, <-served, ErrServerClosed)
	for _, c := range conns {
		requireClosed(t, c)
	}
	assert.Equal(t, 0, s.Stats().Connections)
	assert.ErrorIs(t, s.Serve(ln), ErrServerClosed, "a closed server serves no more")
	for i := 0; runtime.NumGoroutine() > before && i < 200; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	assert.LessOrEqual(t, runtime.NumGoroutine(), before)
}

func TestNewServerRefusesBadOptions(t *testing.T) {
	h := &echoHandler{}
	cases := []struct {
		name string
		h    Handler
		opts ServerOptions
		want string
	}{
		{"no handler", nil, ServerOptions{NewRequest: generated.NewRequest}, "no Handler"},
		{"no NewRequest", h, ServerOptions{}, "NewRequest is nil"},
		{"negative connections", h, ServerOptions{NewRequest: generated.NewRequest, Limits: Limits{MaxConnections: -1}}, "Limits.MaxConnections is -1"},
		{"negative override", h, ServerOptions{NewRequest: generated.NewRequest, Limits: Limits{MaxConnectionsPerIPOverrides: map[string]int{"10.0.0.1": -2}}}, `MaxConnectionsPerIPOverrides["10.0.0.1"] is -2`},
		{"queue below a request", h, ServerOptions{NewRequest: generated.NewRequest, Alias: true, Limits: Limits{MaxRequestSize: 1000, QueuedMaxRequestBytes: 999}},
			"Limits.QueuedMaxRequestBytes is 999 bytes, less than the 1000 that a request of MaxRequestSize counts"},
		{"queue below a copied request", h, ServerOptions{NewRequest: generated.NewRequest, Limits: Limits{MaxRequestSize: 1000, QueuedMaxRequestBytes: 1000}},
			"less than the 2000 that a request of MaxRequestSize counts"},
		{"queue below a response", h, ServerOptions{NewRequest: generated.NewRequest, Limits: Limits{MaxResponseSize: 1000, QueuedMaxResponseBytes: 10}},
			"Limits.QueuedMaxResponseBytes is 10 bytes"},
		{"SASL without mechanisms", h, ServerOptions{NewRequest: generated.NewRequest, SASL: &SASLConfig{}}, "enables no mechanism"},
		{"PLAIN without a check", h, ServerOptions{NewRequest: generated.NewRequest, SASL: &SASLConfig{Mechanisms: []string{"PLAIN"}, Scram: scramUsers(t)}}, "PLAIN without a Plain check"},
		{"SCRAM without a lookup", h, ServerOptions{NewRequest: generated.NewRequest, SASL: &SASLConfig{Mechanisms: []string{"SCRAM-SHA-512"}, Plain: plainUsers}}, "SCRAM-SHA-512 without a Scram lookup"},
		{"unknown mechanism", h, ServerOptions{NewRequest: generated.NewRequest, SASL: &SASLConfig{Mechanisms: []string{"GSSAPI"}, Plain: plainUsers}}, `enables "GSSAPI"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := NewServer(c.h, c.opts)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

// The handler's peer says who is on the other end.
func TestServerPeer(t *testing.T) {
	h := &echoHandler{peers: make(chan Peer, 10)}
	ts := startServer(t, h, ServerOptions{})
	conn := dial(t, ts.addr)
	beat(t, conn, 1)
	p := <-h.peers
	assert.Equal(t, "127.0.0.1", p.Host)
	assert.Equal(t, conn.LocalAddr().String(), p.RemoteAddr.String())
	assert.Nil(t, p.TLS)
	assert.Empty(t, p.Principal)
}

// Many connections at once, each served in order: every connection's
// requests are written before any answer is read.
func TestServerManyConnections(t *testing.T) {
	ts := startServer(t, &echoHandler{}, ServerOptions{})
	conns := make([]net.Conn, 20)
	for i := range conns {
		conns[i] = dial(t, ts.addr)
		pipeline(t, conns[i], 20)
	}
	for _, conn := range conns {
		drain(t, conn, 20)
	}
	assert.Equal(t, 20, ts.Stats().Connections)
}

// pipeline sends n heartbeats with correlation ids and epochs 0 to n-1.
func pipeline(t *testing.T, conn net.Conn, n int32) {
	t.Helper()
	for i := range n {
		send(t, conn, 50, 0, i, heartbeat(int64(i)))
	}
}

// drain reads the answers to pipeline's n heartbeats.
func drain(t *testing.T, conn net.Conn, n int32) {
	t.Helper()
	for i := range n {
		resp := generated.NewBrokerHeartbeatResponse()
		receive(t, conn, 0, i, resp)
		assert.Equal(t, int64(i)+1, resp.BrokerEpoch)
	}
}

// ResponseWritten is told once about each response the handler returned,
// once it is written or refused (over MaxResponseSize), and not about a
// request the handler answered with nil.
func TestServerResponseWritten(t *testing.T) {
	var written atomic.Int64
	ts := startServer(t, &echoHandler{}, ServerOptions{
		ResponseWritten: func(*Peer) { written.Add(1) },
		Limits:          Limits{MaxResponseSize: 1 << 20},
	})
	conn := dial(t, ts.addr)
	beat(t, conn, 1)
	require.Eventually(t, func() bool { return written.Load() == 1 }, 5*time.Second, time.Millisecond)
	send(t, conn, 50, 0, 2, heartbeat(-1)) // no answer
	beat(t, conn, 3)
	require.Eventually(t, func() bool { return written.Load() == 2 }, 5*time.Second, time.Millisecond)
	send(t, conn, 50, 0, 4, heartbeat(-4)) // a 2 MiB answer: refused, the connection closed
	requireClosed(t, conn)
	assert.Equal(t, int64(3), written.Load())
}
