package main

import (
	"context"
	"io"
	"log"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
)

// testBroker is a broker serving on 127.0.0.1 for one test.
type testBroker struct {
	*Broker
	srv   *Server
	stats *Stats
	addr  string
}

// startBroker serves a fresh broker on a free 127.0.0.1 port until the test
// ends. cfg's zero values are fine; logs go to the test's log.
func startBroker(t *testing.T, cfg Config) *testBroker {
	t.Helper()
	return startBrokerOn(t, cfg, Listener{})
}

// startBrokerOn is startBroker with a listener's security and limits.
func startBrokerOn(t *testing.T, cfg Config, l Listener) *testBroker {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().(*net.TCPAddr)
	if cfg.Logger == nil {
		cfg.Logger = log.New(testWriter{t}, "", 0)
	}
	b, err := NewBroker(cfg, "127.0.0.1", int32(addr.Port))
	require.NoError(t, err)
	stats := NewStats()
	srv, err := NewServer(b, stats, nil, l)
	require.NoError(t, err)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	t.Cleanup(func() {
		srv.Close()
		require.NoError(t, b.Close())
		require.NoError(t, <-done)
	})
	return &testBroker{Broker: b, srv: srv, stats: stats, addr: ln.Addr().String()}
}

// discardLogger drops the broker's log.
func discardLogger() *log.Logger { return log.New(io.Discard, "", 0) }

// testWriter sends the broker's log to the test's.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(string(p))
	return len(p), nil
}

// client connects a wire client with clientID, closed when the test ends.
func (tb *testBroker) client(t *testing.T, clientID string) *wire.Client {
	t.Helper()
	return dialClient(t, tb.addr, clientID)
}

// dialClient connects a wire client to addr, closed when the test ends.
func dialClient(t *testing.T, addr, clientID string) *wire.Client {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	require.NoError(t, err)
	cl := wire.NewClient(conn, wire.ClientConfig{ClientID: runtime.NewNullString(clientID)})
	t.Cleanup(func() { cl.Close() })
	return cl
}

// do sends req at version and returns the decoded response, failing the
// test on any transport or encoding error.
func do[Resp runtime.APIMessage](t *testing.T, cl *wire.Client, req runtime.APIMessage, version int16, resp Resp) Resp {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, cl.Do(ctx, req, version, resp), "%s v%d", req.(runtime.Versioned).SpecName(), version)
	return resp
}

// testRecord is a record to write and what reading it back must give.
type testRecord struct {
	key, value []byte
	headers    []records.Header
	timestamp  int64
}

// v2Batch builds one v2 batch of recs.
func v2Batch(t *testing.T, compression records.Compression, recs ...testRecord) []byte {
	t.Helper()
	b := records.NewBatchBuilder()
	b.Compression = compression
	for _, r := range recs {
		b.Append(r.timestamp, r.key, r.value, r.headers...)
	}
	out, err := b.AppendTo(nil)
	require.NoError(t, err)
	return out
}

// readRecords reads every record of a records blob (whole batches; a
// partial tail is dropped as clients do), control records included.
func readRecords(t *testing.T, blob []byte) []records.Record {
	t.Helper()
	var r records.Reader
	var rr records.RecordReader
	var dec records.Decompressor
	var out []records.Record
	r.Reset(blob)
	for r.Next() {
		require.NoError(t, rr.Reset(r.Batch(), &dec))
		for {
			var rec records.Record
			if !rr.Next(&rec) {
				break
			}
			rec.Key, rec.Value = clone(rec.Key), clone(rec.Value)
			hs := make([]records.Header, len(rec.Headers))
			for i, h := range rec.Headers {
				hs[i] = records.Header{Key: clone(h.Key), Value: clone(h.Value)}
			}
			rec.Headers = hs
			out = append(out, rec)
		}
		require.NoError(t, rr.Err())
	}
	require.NoError(t, r.Err())
	return out
}

func clone(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte{}, b...)
}
