package wire

import (
	"context"
	"errors"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/runtime/codec"
	"github.com/kafkagen/kafkagen/wire/frames"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// loopbackPair connects a client and a server socket on 127.0.0.1.
func loopbackPair(t testing.TB) (client, server net.Conn) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			close(accepted)
			return
		}
		accepted <- c
	}()
	client, err = net.DialTimeout("tcp", ln.Addr().String(), 5*time.Second)
	require.NoError(t, err)
	server = <-accepted
	require.NotNil(t, server)
	deadline := time.Now().Add(20 * time.Second)
	require.NoError(t, client.SetReadDeadline(deadline))
	require.NoError(t, server.SetDeadline(deadline))
	t.Cleanup(func() { client.Close(); server.Close() })
	return client, server
}

// stopReplicaAnswer answers a StopReplica request with its first partition.
func stopReplicaAnswer(req *Request) *generated.StopReplicaResponse {
	body := req.Body.(*generated.StopReplicaRequest)
	resp := generated.NewStopReplicaResponse()
	resp.PartitionErrors = []generated.StopReplicaResponseStopReplicaPartitionError{
		{TopicName: body.Partitions[0].TopicName, PartitionIndex: body.Partitions[0].PartitionIndex},
	}
	return resp
}

// A batch of requests from many goroutines is all in flight before the
// server answers any; every caller gets the answer to its own request.
func TestClientPipelines(t *testing.T) {
	const n = 32
	cconn, sconn := loopbackPair(t)
	served := make(chan error, 1)
	go func() {
		sc := NewServerConn(sconn, ServerConfig{NewRequest: testRequests})
		var reqs []Request
		var ids []int32
		for len(reqs) < n {
			req, err := sc.ReadRequest()
			if err != nil {
				served <- err
				return
			}
			reqs = append(reqs, *req)
			ids = append(ids, req.Header.CorrelationID)
			// Request and body are reused by the next read: keep a copy.
			reqs[len(reqs)-1].Body = cloneStopReplica(req.Body.(*generated.StopReplicaRequest))
		}
		for i := range reqs {
			if err := sc.WriteResponse(&reqs[i], stopReplicaAnswer(&reqs[i])); err != nil {
				served <- err
				return
			}
		}
		served <- nil
	}()

	c := NewClient(cconn, ClientConfig{ClientID: runtime.NewNullString("pipeline"), FirstCorrelationID: 100})
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	errs := make([]error, n)
	got := make([]int32, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := stopReplica()
			req.Partitions[0].PartitionIndex = int32(i)
			resp := generated.NewStopReplicaResponse()
			errs[i] = c.Do(ctx, req, 0, resp)
			if errs[i] == nil {
				got[i] = resp.PartitionErrors[0].PartitionIndex
			}
		}()
	}
	wg.Wait()
	require.NoError(t, <-served)
	for i := range n {
		require.NoError(t, errs[i], "call %d", i)
		assert.Equal(t, int32(i), got[i], "call %d got another call's answer", i)
	}
}

func cloneStopReplica(m *generated.StopReplicaRequest) *generated.StopReplicaRequest {
	c := *m
	c.Partitions = append([]generated.StopReplicaRequestStopReplicaPartition(nil), m.Partitions...)
	return &c
}

// scriptServer reads requests on conn and lets the test answer them by hand.
type scriptServer struct {
	t    *testing.T
	conn net.Conn
	sc   *ServerConn
}

func newScriptServer(t *testing.T, conn net.Conn) *scriptServer {
	return &scriptServer{t: t, conn: conn, sc: NewServerConn(conn, ServerConfig{NewRequest: testRequests})}
}

func (s *scriptServer) read() Request {
	req, err := s.sc.ReadRequest()
	require.NoError(s.t, err)
	r := *req
	r.Body = cloneStopReplica(req.Body.(*generated.StopReplicaRequest))
	return r
}

func (s *scriptServer) answer(req Request, corr int32) {
	req.Header.CorrelationID = corr
	require.NoError(s.t, s.sc.WriteResponse(&req, stopReplicaAnswer(&req)))
}

func TestClientCorrelationMismatch(t *testing.T) {
	cconn, sconn := loopbackPair(t)
	c := NewClient(cconn, ClientConfig{})
	defer c.Close()
	s := newScriptServer(t, sconn)
	go func() {
		req := s.read()
		s.answer(req, req.Header.CorrelationID+5)
	}()
	err := c.Do(context.Background(), stopReplica(), 0, generated.NewStopReplicaResponse())
	var ce *CorrelationError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, CorrelationError{Want: 0, Got: 5, APIKey: 5}, *ce)
	assert.EqualError(t, err, "kafka client: response correlation id 5, but the oldest request in flight (api key 5) has 0")

	// The stream is broken: the client refuses further calls with the cause.
	err = c.Do(context.Background(), stopReplica(), 0, generated.NewStopReplicaResponse())
	require.ErrorAs(t, err, &ce)
	require.ErrorIs(t, c.Err(), err)
}

// A caller whose context ends gets its error; the late response is read and
// dropped, and the next call on the connection gets its own answer.
func TestClientAbandonedCall(t *testing.T) {
	cconn, sconn := loopbackPair(t)
	c := NewClient(cconn, ClientConfig{})
	defer c.Close()
	s := newScriptServer(t, sconn)
	first := make(chan Request, 1)
	go func() { first <- s.read() }()

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	abandoned := generated.NewStopReplicaResponse()
	err := c.Do(ctx, stopReplica(), 0, abandoned)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Contains(t, err.Error(), "StopReplicaRequest v0 (correlation id 0)")

	done := make(chan error, 1)
	second := stopReplica()
	second.Partitions[0].PartitionIndex = 77
	resp := generated.NewStopReplicaResponse()
	go func() { done <- c.Do(context.Background(), second, 0, resp) }()
	r1 := <-first
	s.answer(r1, r1.Header.CorrelationID)
	r2 := s.read()
	s.answer(r2, r2.Header.CorrelationID)
	require.NoError(t, <-done)
	assert.Equal(t, int32(77), resp.PartitionErrors[0].PartitionIndex)
	assert.Empty(t, abandoned.PartitionErrors, "the abandoned response is not decoded into the caller's message")
}

// Send writes a request that gets no answer (Produce with acks 0); the
// correlation ids of later calls still line up.
func TestClientSend(t *testing.T) {
	cconn, sconn := loopbackPair(t)
	c := NewClient(cconn, ClientConfig{})
	defer c.Close()
	s := newScriptServer(t, sconn)
	go func() {
		_ = s.read() // no answer
		r := s.read()
		s.answer(r, r.Header.CorrelationID)
	}()
	require.NoError(t, c.Send(context.Background(), stopReplica(), 0))
	require.NoError(t, c.Do(context.Background(), stopReplica(), 0, generated.NewStopReplicaResponse()))
}

func TestClientConnectionEnds(t *testing.T) {
	cases := []struct {
		name   string
		server func(s *scriptServer)
		check  func(t *testing.T, err error)
	}{
		{"server closes", func(s *scriptServer) {
			_ = s.read()
			s.conn.Close()
		}, func(t *testing.T, err error) {
			require.ErrorIs(t, err, io.EOF)
		}},
		{"response cut short", func(s *scriptServer) {
			_ = s.read()
			_, _ = s.conn.Write([]byte{0, 0, 0, 9, 0, 0})
			s.conn.Close()
		}, func(t *testing.T, err error) {
			require.ErrorIs(t, err, io.ErrUnexpectedEOF)
		}},
		{"body that does not decode", func(s *scriptServer) {
			r := s.read()
			frame, err := frames.AppendFrame(nil, []byte{0, 0, 0, byte(r.Header.CorrelationID), 0, 0, 0xff})
			require.NoError(s.t, err)
			_, _ = s.conn.Write(frame)
		}, func(t *testing.T, err error) {
			require.ErrorIs(t, err, runtime.ErrShortBuffer)
			var e *runtime.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, "StopReplicaResponse", e.Message)
			assert.Equal(t, 6, e.Offset, "offsets count from the frame's start")
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cconn, sconn := loopbackPair(t)
			cl := NewClient(cconn, ClientConfig{})
			defer cl.Close()
			s := newScriptServer(t, sconn)
			go c.server(s)
			err := cl.Do(context.Background(), stopReplica(), 0, generated.NewStopReplicaResponse())
			c.check(t, err)
		})
	}
}

func TestClientUnexpectedResponse(t *testing.T) {
	cconn, sconn := loopbackPair(t)
	c := NewClient(cconn, ClientConfig{})
	defer c.Close()
	frame, err := frames.AppendFrame(nil, []byte{0, 0, 0, 0})
	require.NoError(t, err)
	_, err = sconn.Write(frame)
	require.NoError(t, err)
	require.Eventually(t, func() bool { return c.Err() != nil }, 5*time.Second, time.Millisecond)
	assert.EqualError(t, c.Err(), "kafka client: a 4-byte response arrived with no request in flight")
}

// A call whose context has already ended sends nothing and leaves the
// connection usable.
func TestClientContextDoneBeforeSending(t *testing.T) {
	cconn, sconn := loopbackPair(t)
	c := NewClient(cconn, ClientConfig{})
	defer c.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := c.Do(ctx, stopReplica(), 0, generated.NewStopReplicaResponse())
	require.ErrorIs(t, err, context.Canceled)
	require.NoError(t, c.Err())

	s := newScriptServer(t, sconn)
	go func() {
		r := s.read()
		assert.Equal(t, int32(0), r.Header.CorrelationID, "the refused call used no correlation id")
		s.answer(r, r.Header.CorrelationID)
	}()
	require.NoError(t, c.Do(context.Background(), stopReplica(), 0, generated.NewStopReplicaResponse()))
}

// A caller that leaves while its own request is being written returns at
// once; the write goes on whole (a frame cut short would corrupt the
// stream), the late response is dropped and the connection stays usable.
func TestClientCallerLeavesDuringItsWrite(t *testing.T) {
	for _, name := range []string{"deadline", "cancel"} {
		t.Run(name, func(t *testing.T) {
			cconn, sconn := net.Pipe() // unbuffered: a write waits for a reader
			defer sconn.Close()
			c := NewClient(cconn, ClientConfig{})
			defer c.Close()
			var ctx context.Context
			var cancel context.CancelFunc
			want := context.DeadlineExceeded
			if name == "deadline" {
				ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
			} else {
				ctx, cancel = context.WithCancel(context.Background())
				time.AfterFunc(50*time.Millisecond, cancel)
				want = context.Canceled
			}
			defer cancel()
			err := c.Do(ctx, stopReplica(), 0, generated.NewStopReplicaResponse())
			require.ErrorIs(t, err, want)
			assert.Contains(t, err.Error(), "StopReplicaRequest v0 (correlation id 0)")
			require.NoError(t, c.Err())

			s := newScriptServer(t, sconn)
			go func() {
				for range 2 {
					r := s.read()
					s.answer(r, r.Header.CorrelationID)
				}
			}()
			resp := generated.NewStopReplicaResponse()
			require.NoError(t, c.Do(context.Background(), stopReplica(), 0, resp))
			assert.Len(t, resp.PartitionErrors, 1)
		})
	}
}

func TestClientClose(t *testing.T) {
	cconn, sconn := loopbackPair(t)
	c := NewClient(cconn, ClientConfig{})
	s := newScriptServer(t, sconn)
	read := make(chan struct{})
	go func() { _ = s.read(); close(read) }()
	done := make(chan error, 1)
	go func() { done <- c.Do(context.Background(), stopReplica(), 0, generated.NewStopReplicaResponse()) }()
	<-read
	require.NoError(t, c.Close())
	require.ErrorIs(t, <-done, ErrClientClosed)
	err := c.Do(context.Background(), stopReplica(), 0, generated.NewStopReplicaResponse())
	require.ErrorIs(t, err, ErrClientClosed)
}

func TestClientRefusesMismatchedMessages(t *testing.T) {
	cconn, _ := loopbackPair(t)
	c := NewClient(cconn, ClientConfig{})
	defer c.Close()
	err := c.Do(context.Background(), stopReplica(), 0, generated.NewBrokerHeartbeatResponse())
	assert.EqualError(t, err, "kafka client: StopReplicaRequest answered by BrokerHeartbeatResponse")
	err = c.Do(context.Background(), stopReplica(), 3, generated.NewStopReplicaResponse())
	require.ErrorIs(t, err, runtime.ErrUnsupportedVersion)
	require.NoError(t, c.Err(), "an encode error leaves the connection usable")
	assert.False(t, errors.Is(err, ErrClientClosed))
}

// KIP-511 from both ends: a server that serves ApiVersions up to v2 answers
// a v3 request with its v0 UNSUPPORTED_VERSION frame; the client reads it at
// v0, learns the range and asks again at v2.
func TestClientAPIVersionsFallback(t *testing.T) {
	cconn, sconn := loopbackPair(t)
	served := make(chan error, 1)
	go func() {
		sc := NewServerConn(sconn, ServerConfig{NewRequest: testRequests, Supported: []VersionRange{{APIKey: generated.APIKeyAPIVersions, MinVersion: 0, MaxVersion: 2}}})
		for range 2 {
			req, err := sc.ReadRequest()
			if err != nil {
				if err = sc.Answer(err); err != nil {
					served <- err
					return
				}
				continue
			}
			resp := &apiVersionsResponseStub{Keys: []VersionRange{{APIKey: generated.APIKeyAPIVersions, MinVersion: 0, MaxVersion: 2}}, Throttle: 9}
			if err := sc.WriteResponse(req, resp); err != nil {
				served <- err
				return
			}
		}
		served <- nil
	}()
	c := NewClient(cconn, ClientConfig{})
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	var resp apiVersionsResponseStub
	require.NoError(t, c.Do(ctx, apiVersionsStub{}, 3, &resp), "the v0 answer to a v3 request is read at v0")
	assert.Equal(t, kerrors.UnsupportedVersion.Code, resp.ErrorCode)
	assert.Equal(t, []VersionRange{{APIKey: generated.APIKeyAPIVersions, MinVersion: 0, MaxVersion: 2}}, resp.Keys)

	require.NoError(t, c.Do(ctx, apiVersionsStub{}, resp.Keys[0].MaxVersion, &resp))
	assert.Equal(t, int16(0), resp.ErrorCode)
	assert.Equal(t, int32(9), resp.Throttle, "read at v2")
	require.NoError(t, <-served)
	require.NoError(t, c.Err())
}

// The v0 fallback takes only a body that reads whole at v0: an ApiVersions
// body that reads neither at the version sent nor at v0 fails the call.
func TestClientAPIVersionsFallbackOnlyForV0Bodies(t *testing.T) {
	cconn, sconn := loopbackPair(t)
	c := NewClient(cconn, ClientConfig{})
	defer c.Close()
	s := newScriptServer(t, sconn)
	go func() {
		req, err := s.sc.ReadRequest()
		if err != nil {
			return
		}
		// A v1 body (with the throttle time) and one byte more: neither v1
		// nor v0 reads it whole.
		body := (&apiVersionsResponseStub{}).mustAppend(1)
		frame, _ := frames.AppendFrame(nil, append(codec.AppendInt32(nil, req.Header.CorrelationID), append(body, 0)...))
		_, _ = sconn.Write(frame)
	}()
	var resp apiVersionsResponseStub
	err := c.Do(context.Background(), apiVersionsStub{}, 1, &resp)
	require.ErrorIs(t, err, ErrTrailingBytes)
}
