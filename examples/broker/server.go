package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"

	"github.com/kafkagen/kafkagen/wire"
)

// Server accepts Kafka connections for a Broker: each connection's requests
// are read, checked by re-encoding, counted, captured and answered in order.
type Server struct {
	Broker  *Broker
	Stats   *Stats
	Capture *Capture // nil: no capture

	ln     net.Listener
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	mu     sync.Mutex
	conns  map[net.Conn]bool
	memory memoryReturner
}

// supportedRanges are the served versions, as the request decoder limits
// them and ApiVersions lists them.
var supportedRanges = func() []wire.VersionRange {
	out := make([]wire.VersionRange, 0, len(servedAPIs))
	for _, key := range servedAPIs {
		r := supported[key]
		out = append(out, wire.VersionRange{APIKey: key, MinVersion: r.min, MaxVersion: r.max})
	}
	return out
}()

// NewServer serves b on ln.
func NewServer(b *Broker, ln net.Listener, stats *Stats, capture *Capture) *Server {
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{Broker: b, Stats: stats, Capture: capture, ln: ln, ctx: ctx, cancel: cancel, conns: map[net.Conn]bool{}}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.memory.run(ctx)
	}()
	return s
}

// Serve accepts connections until Close; it returns nil after Close.
func (s *Server) Serve() error {
	for {
		conn, err := s.ln.Accept()
		if err != nil {
			if s.ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("accepting connections: %w", err)
		}
		s.mu.Lock()
		if s.ctx.Err() != nil {
			s.mu.Unlock()
			conn.Close()
			return nil
		}
		s.conns[conn] = true
		s.wg.Add(1)
		s.mu.Unlock()
		go s.serveConn(conn)
	}
}

// Close stops accepting, ends every connection (and the requests waiting in
// them) and returns once their goroutines are done.
func (s *Server) Close() {
	s.mu.Lock()
	s.cancel()
	s.ln.Close()
	for conn := range s.conns {
		conn.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
}

func (s *Server) serveConn(conn net.Conn) {
	defer s.wg.Done()
	defer func() {
		s.mu.Lock()
		delete(s.conns, conn)
		s.mu.Unlock()
		conn.Close()
	}()
	logf := s.Broker.cfg.Logger.Printf
	host, _, _ := net.SplitHostPort(conn.RemoteAddr().String())
	cb := newConnBuffers(conn)
	defer func() {
		if cb.large { // ended holding large buffers, now garbage
			s.memory.dropped()
		}
	}()
	for {
		req, err := cb.sc.ReadRequest()
		if err != nil {
			var unsupported *wire.UnsupportedRequestError
			switch {
			case errors.Is(err, io.EOF) || s.ctx.Err() != nil:
			case errors.As(err, &unsupported):
				h := unsupported.Header
				s.Stats.Count(h.ClientID.Value, h.APIKey, h.APIVersion)
				if cb.sc.Answer(err) == nil {
					logf("%s (client %q): %v: answered with the supported versions", conn.RemoteAddr(), h.ClientID.Value, err)
					cb.sc = cb.newServerConn() // the refused frame may have been large
					continue
				}
				logf("%s (client %q): %v: closing the connection, as Kafka does", conn.RemoteAddr(), h.ClientID.Value, err)
			default:
				logf("%s: %v: closing the connection", conn.RemoteAddr(), err)
			}
			return
		}
		clientID := req.Header.ClientID.Value
		s.Stats.Count(clientID, req.Header.APIKey, req.Header.APIVersion)
		if diff := cb.check.reencode(req); diff != "" {
			s.Stats.CountDiff()
			logf("re-encode difference, client %q %s v%d:\n%s", clientID, apiName(req.Header.APIKey), req.Header.APIVersion, diff)
		}
		if s.Capture != nil {
			if err := s.Capture.Frame(clientID, req.Header.APIKey, req.Header.APIVersion, req.Frame); err != nil {
				logf("%v", err)
			}
		}
		c := &call{ctx: s.ctx, version: req.Header.APIVersion, clientID: clientID, clientHost: host, rec: cb.rec}
		resp, err := s.Broker.Handle(c, req.Body)
		if err != nil {
			logf("%s (client %q): %v: closing the connection", conn.RemoteAddr(), clientID, err)
			return
		}
		cb.note(len(req.Frame), resp, req.Header.APIVersion)
		if resp != nil {
			if err := cb.sc.WriteResponse(req, resp); err != nil {
				if s.ctx.Err() == nil {
					logf("%s (client %q): writing the %s v%d response: %v", conn.RemoteAddr(), clientID, apiName(req.Header.APIKey), req.Header.APIVersion, err)
				}
				return
			}
		}
		if cb.release() {
			s.memory.dropped()
		}
	}
}

// reencoder re-encodes requests (header and body, with the generated
// AppendTo at the version they arrived in) into a reused buffer and
// compares them with the frame that arrived.
type reencoder struct{ buf []byte }

// reencode returns "" when req re-encodes to its frame, else a description
// of the difference with both encodings in hex.
func (r *reencoder) reencode(req *wire.Request) string {
	out, err := req.Header.AppendTo(r.buf[:0], req.HeaderVersion)
	if err == nil {
		out, err = req.Body.AppendTo(out, req.Header.APIVersion)
	}
	if out != nil {
		r.buf = out
	}
	if err != nil {
		return fmt.Sprintf("  re-encoding failed: %v\n  arrived: %x", err, req.Frame)
	}
	if bytes.Equal(out, req.Frame) {
		return ""
	}
	at := 0
	for at < len(out) && at < len(req.Frame) && out[at] == req.Frame[at] {
		at++
	}
	return fmt.Sprintf("  first difference at byte %d (body starts at %d)\n  arrived:    %x\n  re-encoded: %x", at, req.BodyOffset, req.Frame, out)
}
