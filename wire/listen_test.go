package wire

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Connections over a limit are closed as soon as they are accepted; one
// that ends makes room for the next.
func TestServerConnectionLimits(t *testing.T) {
	cases := []struct {
		name    string
		limits  Limits
		allowed int
	}{
		{"max.connections", Limits{MaxConnections: 3}, 3},
		{"max.connections.per.ip", Limits{MaxConnectionsPerIP: 2}, 2},
		{"an override above the per-ip limit", Limits{MaxConnectionsPerIP: 1, MaxConnectionsPerIPOverrides: map[string]int{"127.0.0.1": 3}}, 3},
		{"an override of another address", Limits{MaxConnectionsPerIP: 1, MaxConnectionsPerIPOverrides: map[string]int{"10.1.1.1": 5}}, 1},
		{"an override refusing the address", Limits{MaxConnectionsPerIPOverrides: map[string]int{"127.0.0.1": 0}}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ts := startServer(t, &echoHandler{}, ServerOptions{Limits: c.limits})
			var open []net.Conn
			for i := range c.allowed {
				conn := dial(t, ts.addr)
				beat(t, conn, int32(i))
				open = append(open, conn)
			}
			refused := dial(t, ts.addr)
			requireClosed(t, refused)
			assert.EqualValues(t, 1, ts.Stats().Refused)
			if c.allowed == 0 {
				return
			}
			// The server counts a connection out once it has seen it end.
			open[0].Close()
			ts.nextEnd(t)
			beat(t, dial(t, ts.addr), 9)
			assert.Equal(t, c.allowed, ts.Stats().Connections)
		})
	}
}

// The per-address limit holds over every listener of a server; the
// listener limit is each listener's own.
func TestServerLimitsAcrossListeners(t *testing.T) {
	ts := startServer(t, &echoHandler{}, ServerOptions{Limits: Limits{MaxConnections: 1, MaxConnectionsPerIP: 3}})
	ln2, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = ts.Serve(ln2) }()
	addr2 := ln2.Addr().String()

	beat(t, dial(t, ts.addr), 1)
	requireClosed(t, dial(t, ts.addr)) // the first listener is full
	beat(t, dial(t, addr2), 2)         // the second has its own count
	// Two more listeners would take it past three from this address.
	ln3, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = ts.Serve(ln3) }()
	beat(t, dial(t, ln3.Addr().String()), 3)
	requireClosed(t, dial(t, ln3.Addr().String()))
	assert.EqualValues(t, 2, ts.Stats().Refused)
}

// failingListener fails its first failures accepts with err, then accepts.
type failingListener struct {
	net.Listener
	failures atomic.Int32
	err      error
}

func (l *failingListener) Accept() (net.Conn, error) {
	if l.failures.Add(-1) >= 0 {
		return nil, l.err
	}
	return l.Listener.Accept()
}

// logLines collects what a server logs.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *logLines) count(substr string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, line := range l.lines {
		if strings.Contains(line, substr) {
			n++
		}
	}
	return n
}

// Out of file descriptors, Serve backs off and keeps serving, logging once
// per streak of failures; any other accept error ends it.
func TestServeBacksOffOnTemporaryErrors(t *testing.T) {
	cases := []struct {
		name string
		err  error
	}{
		{"EMFILE", &net.OpError{Op: "accept", Net: "tcp", Err: os.NewSyscallError("accept4", syscall.EMFILE)}},
		{"ENFILE", &net.OpError{Op: "accept", Net: "tcp", Err: os.NewSyscallError("accept4", syscall.ENFILE)}},
		{"ECONNABORTED", &net.OpError{Op: "accept", Net: "tcp", Err: os.NewSyscallError("accept4", syscall.ECONNABORTED)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			inner, err := net.Listen("tcp", "127.0.0.1:0")
			require.NoError(t, err)
			ln := &failingListener{Listener: inner, err: c.err}
			ln.failures.Store(6) // 5+10+20+40+80+160 ms of back-off
			var log logLines
			ts := serveOn(t, ln, &echoHandler{}, ServerOptions{Logf: log.logf})
			beat(t, dial(t, ts.addr), 1)
			assert.Equal(t, 1, log.count("retrying with a back-off"), "%q", log.lines)
			assert.Equal(t, 1, log.count(c.err.Error()))

			// A second streak. Serve may be waiting in Accept already, so
			// the failures may come after the next connection: two
			// connections served means both failures were met.
			ln.failures.Store(2)
			beat(t, dial(t, ts.addr), 2)
			beat(t, dial(t, ts.addr), 3)
			assert.Equal(t, 2, log.count("retrying with a back-off"))
			select {
			case err := <-ts.served:
				t.Fatalf("Serve returned %v", err)
			default:
			}
		})
	}
}

func TestServeReturnsPermanentErrors(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer inner.Close()
	broken := errors.New("listener broken")
	ln := &failingListener{Listener: inner, err: broken}
	ln.failures.Store(1)
	s, err := NewServer(&echoHandler{}, ServerOptions{NewRequest: testRequests, Logf: t.Logf})
	require.NoError(t, err)
	defer s.Close()
	assert.ErrorIs(t, s.Serve(ln), broken)
}
