package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
)

// Server serves a Broker on wire.Server: wire reads the requests (within
// its limits, with TLS and SASL when configured) and the server checks each
// by re-encoding, counts it, captures it and hands it to the broker.
type Server struct {
	Broker  *Broker
	Stats   *Stats
	Capture *Capture // nil: no capture; set before the first connection

	wire *wire.Server
	// stopping ends at Close, before the connections close: the requests
	// waiting in the broker (long polls, group joins) return at once.
	stopping context.Context
	stop     context.CancelFunc
	memory   memoryReturner
	returned chan struct{} // closed once the memory returner is done
	// answers bounds the Fetch records copied into answers not yet written.
	answers *answerBudget
}

// shutdownGrace is how long Close lets the requests being served finish
// (their answers written) before it closes every connection.
const shutdownGrace = 5 * time.Second

// NewServer makes a server for b on the listener settings l; Serve starts
// it on a listener.
func NewServer(b *Broker, stats *Stats, capture *Capture, l Listener) (*Server, error) {
	s := &Server{Broker: b, Stats: stats, Capture: capture, returned: make(chan struct{}), answers: newAnswerBudget(l.Limits)}
	logf := b.cfg.Logger.Printf
	var err error
	s.wire, err = wire.NewServer(wire.HandlerFunc(s.serveKafka), wire.ServerOptions{
		NewRequest: newServedRequest,
		Supported:  b.versions.ranges(),
		// Produce bodies point into the frame: the log keeps a copy of
		// each batch (storable, convertLegacy) and a created topic a copy
		// of its name, so a 100 MiB Produce is held once, not twice.
		AliasKeys:       []int16{kafkamsg.APIKeyProduce},
		Limits:          l.Limits,
		TLS:             l.TLS,
		SASL:            l.SASL,
		Logf:            logf,
		ConnClosed:      s.connClosed,
		ResponseWritten: s.responseWritten,
	})
	if err != nil {
		return nil, err
	}
	s.stopping, s.stop = context.WithCancel(context.Background())
	go func() {
		defer close(s.returned)
		s.memory.run(s.stopping)
	}()
	return s, nil
}

// Serve serves connections accepted on ln until Close, then returns nil;
// it returns the error that stopped it otherwise.
func (s *Server) Serve(ln net.Listener) error {
	err := s.wire.Serve(ln)
	if errors.Is(err, wire.ErrServerClosed) {
		return nil
	}
	return err
}

// Close stops accepting, ends the broker's waiting requests, lets the
// requests being served be answered for up to shutdownGrace, then closes
// every connection, and returns once all are closed.
func (s *Server) Close() {
	s.stop()
	ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := s.wire.Shutdown(ctx); err != nil {
		s.Broker.cfg.Logger.Printf("shutdown: connections still busy after %v: closed", shutdownGrace)
	}
	<-s.returned
}

// WireStats is the connection layer's count of connections and queued
// bytes.
func (s *Server) WireStats() wire.ServerStats { return s.wire.Stats() }

// serveKafka serves one request of a connection: the re-encode check,
// stats and capture, then the broker's handler.
func (s *Server) serveKafka(ctx context.Context, p *wire.Peer, req *wire.Request) (runtime.APIMessage, error) {
	cs := s.connState(ctx, p)
	h := &req.Header
	clientID := h.ClientID.Value
	s.Stats.Count(clientID, h.APIKey, h.APIVersion)
	if diff := cs.check.reencode(req); diff != "" {
		s.Stats.CountDiff()
		s.Broker.cfg.Logger.Printf("re-encode difference, client %q %s v%d:\n%s", clientID, apiName(h.APIKey), h.APIVersion, diff)
	}
	if s.Capture != nil {
		if err := s.Capture.Frame(clientID, h.APIKey, h.APIVersion, req.Frame); err != nil {
			s.Broker.cfg.Logger.Printf("%v", err)
		}
	}
	c := &call{ctx: cs.ctx, version: h.APIVersion, clientID: clientID, clientHost: p.Host, rec: cs.rec, answer: &cs.answer}
	resp, err := s.Broker.Handle(c, req.Body)
	if err != nil || resp == nil {
		s.giveBackAnswer(cs) // nothing will be written
	}
	cs.note(len(req.Frame), resp, h.APIVersion)
	if cs.release() {
		s.memory.dropped()
	}
	if err != nil {
		return nil, fmt.Errorf("client %q: %w", clientID, err)
	}
	return resp, nil
}

// responseWritten gives back the answer budget the written answer took.
func (s *Server) responseWritten(p *wire.Peer) {
	if cs, ok := p.State.(*connState); ok {
		s.giveBackAnswer(cs)
	}
}

// giveBackAnswer gives back what the connection's last answer took from
// the answer budget; a large answer's memory is garbage from here on.
func (s *Server) giveBackAnswer(cs *connState) {
	if cs.answer.giveBack() > keepBufferBytes {
		s.memory.dropped()
	}
}

// connState returns the connection's state, made at its first request.
func (s *Server) connState(ctx context.Context, p *wire.Peer) *connState {
	if cs, ok := p.State.(*connState); ok {
		return cs
	}
	cs := newConnState(s.answers)
	// The broker's waits end with the connection (ctx) or at Close.
	var cancel context.CancelFunc
	cs.ctx, cancel = context.WithCancel(s.stopping)
	context.AfterFunc(ctx, cancel)
	p.State = cs
	return cs
}

// connClosed logs why a connection ended, unless it ended as connections
// do (the client closed it, it idled, the server stopped), and counts the unsupported request that ended it as a request.
func (s *Server) connClosed(p *wire.Peer, err error) {
	if cs, ok := p.State.(*connState); ok {
		s.giveBackAnswer(cs) // in case its answer was never written
		if cs.heldLarge {
			s.memory.dropped() // what it held in wire's buffers is garbage now
		}
	}
	if err != nil && !errors.Is(err, wire.ErrIdle) && !errors.Is(err, wire.ErrServerClosed) {
		// It may have ended inside a large request, whose partial frame
		// wire held: garbage now.
		s.memory.dropped()
	}
	if err == nil || errors.Is(err, wire.ErrServerClosed) || errors.Is(err, wire.ErrIdle) {
		return // the ordinary ends of a connection
	}
	var unsupported *wire.UnsupportedRequestError
	if errors.As(err, &unsupported) {
		h := unsupported.Header
		s.Stats.Count(h.ClientID.Value, h.APIKey, h.APIVersion)
		s.Broker.cfg.Logger.Printf("%s (client %q): %v: connection closed, as Kafka closes it", p.RemoteAddr, h.ClientID.Value, err)
		return
	}
	s.Broker.cfg.Logger.Printf("%s: connection closed: %v", p.RemoteAddr, err)
}

// maxReencodeFrame is the largest request re-encoded whole to check it.
// A larger one (up to socket.request.max.bytes) is held twice already, as
// it arrived and decoded; a third copy would add half again to what the
// queued request bytes bound, so it is checked by its re-encoded size
// alone. Java clients' requests stay under it (max.request.size defaults
// to 1 MiB).
const maxReencodeFrame = 1 << 20

// reencoder re-encodes requests (header and body, with the generated
// AppendTo at the version they arrived in) into a reused buffer and
// compares them with the frame that arrived.
type reencoder struct{ buf []byte }

// reencode returns "" when req re-encodes to its frame, else a description
// of the difference with both encodings in hex.
func (r *reencoder) reencode(req *wire.Request) string {
	if len(req.Frame) > maxReencodeFrame {
		return reencodedSize(req)
	}
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

// reencodedSize compares a large request's re-encoded size with its frame's.
func reencodedSize(req *wire.Request) string {
	header, err := req.Header.AppendTo(nil, req.HeaderVersion)
	if err != nil {
		return fmt.Sprintf("  re-encoding the header failed: %v", err)
	}
	size := len(header) + req.Body.Size(req.Header.APIVersion)
	if size == len(req.Frame) {
		return ""
	}
	return fmt.Sprintf("  a %d-byte request (checked by size: over %d bytes) re-encodes to %d bytes; header: %x", len(req.Frame), maxReencodeFrame, size, req.Frame[:req.BodyOffset])
}
