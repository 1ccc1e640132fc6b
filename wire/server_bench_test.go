package wire

import (
	"context"
	"net"
	"testing"

	"github.com/kafkagen/kafkagen/generated"
	kruntime "github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/frames"
)

// BenchmarkServerPipelined measures the cost of the Server's limits
// (deadlines, queued bytes, idle bookkeeping) per request: heartbeats
// pipelined over loopback through a Server, beside a bare ServerConn loop
// with none of them, in the same run.
func BenchmarkServerPipelined(b *testing.B) {
	b.Run("server", func(b *testing.B) {
		ln := benchListener(b)
		s, err := NewServer(&echoHandler{}, ServerOptions{NewRequest: generated.NewRequest})
		if err != nil {
			b.Fatal(err)
		}
		go func() { _ = s.Serve(ln) }()
		defer s.Close()
		benchPipeline(b, ln.Addr().String())
	})
	b.Run("serverconn", func(b *testing.B) {
		ln := benchListener(b)
		defer ln.Close()
		go func() {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			defer conn.Close()
			sc := NewServerConn(conn, ServerConfig{NewRequest: generated.NewRequest})
			h := &echoHandler{}
			for {
				req, err := sc.ReadRequest()
				if err != nil {
					return
				}
				resp, err := h.ServeKafka(context.Background(), &Peer{}, req)
				if err != nil || sc.WriteResponse(req, resp) != nil {
					return
				}
			}
		}()
		benchPipeline(b, ln.Addr().String())
	})
}

func benchListener(b *testing.B) net.Listener {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	return ln
}

// benchPipeline writes b.N heartbeats from one goroutine and reads their
// answers in another.
func benchPipeline(b *testing.B, addr string) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	h := frames.RequestHeader{APIKey: 50, CorrelationID: 1, ClientID: kruntime.NewNullString("bench")}
	frame, err := frames.AppendRequest(nil, &h, heartbeat(1))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	written := make(chan error, 1)
	go func() {
		for range b.N {
			if _, err := conn.Write(frame); err != nil {
				written <- err
				return
			}
		}
		written <- nil
	}()
	fr := frames.NewFrameReader(conn, 0)
	for range b.N {
		if _, err := fr.Next(); err != nil {
			b.Fatal(err)
		}
	}
	if err := <-written; err != nil {
		b.Fatal(err)
	}
}
