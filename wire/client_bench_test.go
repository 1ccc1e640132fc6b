package wire

import (
	"context"
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"github.com/kafkagen/kafkagen/generated"
)

// echoServer answers every StopReplica request on conn with its first
// partition until the stream ends: the peer of the client benchmarks.
func echoServer(conn net.Conn) error {
	defer conn.Close()
	sc := NewServerConn(conn, ServerConfig{NewRequest: testRequests})
	for {
		req, err := sc.ReadRequest()
		if errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := sc.WriteResponse(req, stopReplicaAnswer(req)); err != nil {
			return err
		}
	}
}

// BenchmarkClientPipelined is the round trip of one StopReplica call while
// 16 goroutines share the connection, so requests travel pipelined.
func BenchmarkClientPipelined(b *testing.B) {
	cconn, sconn := loopbackPair(b)
	go func() { _ = echoServer(sconn) }()
	c := NewClient(cconn, ClientConfig{})
	defer c.Close()
	b.SetParallelism(16)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		req := stopReplica()
		resp := generated.NewStopReplicaResponse()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		for pb.Next() {
			if err := c.Do(ctx, req, 0, resp); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkConnPerCall is the work a Conn adds to each call over the bare
// Client: the version lookup (a map and an intersection) and the
// re-authentication gate's check, for a session without a lifetime.
func BenchmarkConnPerCall(b *testing.B) {
	c := &Conn{broker: map[int16]VersionRange{5: {APIKey: 5, MinVersion: 0, MaxVersion: 3}, 18: {APIKey: 18, MaxVersion: 4}}}
	req := stopReplica()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Version(req); err != nil || c.gate() != nil {
			b.Fatal(err)
		}
	}
}
