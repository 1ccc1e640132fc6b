//go:build reliability

package main

import (
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
)

// The rows about connections themselves: more than the file limit, and
// slowloris and idle connections.

func connectionRows() []row {
	return []row{
		{name: "1,100 connections with a 1,024 file limit", nofile: 1024, attack: overFileLimit},
		{
			name: "2,000 slowloris + 5,000 idle connections",
			// Short timeouts so that the row runs in seconds; the normal
			// client's round trips come every 100 ms, well within the idle time.
			args:   []string{"-request-read-timeout-ms", "500", "-connections-max-idle-ms", "1500"},
			nofile: 16384,
			attack: slowlorisAndIdle,
		},
	}
}

// dialMany opens n connections to addr, parallel at a time, and returns
// those that opened with the time each did.
func dialMany(t *testing.T, addr string, n, parallel int) ([]net.Conn, []time.Time) {
	t.Helper()
	conns, opened := make([]net.Conn, n), make([]time.Time, n)
	var wg sync.WaitGroup
	next := atomic.Int64{}
	for w := 0; w < parallel; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				if c, err := net.DialTimeout("tcp", addr, 3*time.Second); err == nil {
					conns[i], opened[i] = c, time.Now()
				}
			}
		}()
	}
	wg.Wait()
	var okConns []net.Conn
	var okTimes []time.Time
	for i, c := range conns {
		if c != nil {
			okConns, okTimes = append(okConns, c), append(okTimes, opened[i])
		}
	}
	t.Cleanup(func() { closeAll(okConns) })
	return okConns, okTimes
}

func closeAll(conns []net.Conn) {
	for _, c := range conns {
		c.Close()
	}
}

// closedBy watches conns until the broker closes each of them or until
// the window ends, and returns how many it closed and the longest time
// one took from its start. Nothing is read: none of these connections
// has a request answered.
func closedBy(conns []net.Conn, starts []time.Time, window time.Duration) (closed int, longest time.Duration) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	end := time.Now().Add(window)
	for i, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if c.SetReadDeadline(end) != nil {
				return
			}
			_, err := c.Read(make([]byte, 1))
			if err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
				return
			}
			mu.Lock()
			closed, longest = closed+1, max(longest, time.Since(starts[i]))
			mu.Unlock()
		}()
	}
	wg.Wait()
	return closed, longest
}

// openFiles counts the process's file descriptors.
func openFiles(pid int) int {
	entries, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	return len(entries)
}

// overFileLimit opens 1,100 connections to a broker that may open 1,024
// files: its accept fails with EMFILE and must back off, not return. While
// they are open, the broker keeps them (Kafka keeps them too); once they
// close, new connections are served.
func overFileLimit(t *testing.T, b *rowBroker) attackResult {
	conns, starts := dialMany(t, b.addr, 1100, 32)
	require.Greater(t, len(conns), 1024, "more connections than the broker may open")
	files := 0
	for i := 0; i < 50 && files < 1000; i++ { // the broker accepts what it can
		time.Sleep(100 * time.Millisecond)
		files = openFiles(b.pid)
	}
	assert.GreaterOrEqual(t, files, 1000, "the broker reached its file limit")
	closed, _ := closedBy(conns, starts, time.Second)
	return attackResult{
		release: func() { closeAll(conns) },
		closed:  fmt.Sprintf("%d/%d (kept open, as Kafka keeps them)", closed, len(conns)),
		note:    fmt.Sprintf(", %d files open in the broker at the limit", files),
	}
}

// slowlorisAndIdle opens 2,000 connections that send a Metadata request one
// byte every 250 ms and 5,000 that send nothing: the broker closes the
// first within -request-read-timeout-ms of their first byte and the others
// within -connections-max-idle-ms, as Kafka closes idle ones.
func slowlorisAndIdle(t *testing.T, b *rowBroker) attackResult {
	raiseFileLimit(t, 16384)
	frame := requestFrame(t, "slowloris", 1, kafkamsg.NewMetadataRequest(), 12)
	slow, slowStarts := dialMany(t, b.addr, 2000, 32)
	dripped := make(chan struct{})
	go func() { // one byte a connection every 250 ms, for at most the frame's length
		defer close(dripped)
		alive := make([]bool, len(slow))
		for i := range alive {
			alive[i] = true
		}
		for pos := 0; pos < len(frame)-1; pos++ {
			for i, c := range slow {
				if alive[i] {
					c.SetWriteDeadline(time.Now().Add(time.Second))
					_, err := c.Write(frame[pos : pos+1])
					alive[i] = err == nil
				}
			}
			time.Sleep(250 * time.Millisecond)
		}
	}()
	idle, idleStarts := dialMany(t, b.addr, 5000, 32)
	require.Len(t, slow, 2000)
	require.Len(t, idle, 5000)
	var slowClosed, idleClosed int
	var slowLongest, idleLongest time.Duration
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); slowClosed, slowLongest = closedBy(slow, slowStarts, 10*time.Second) }()
	go func() { defer wg.Done(); idleClosed, idleLongest = closedBy(idle, idleStarts, 10*time.Second) }()
	wg.Wait()
	<-dripped
	assert.Equal(t, len(slow), slowClosed, "every slowloris connection is closed")
	assert.Equal(t, len(idle), idleClosed, "every idle connection is closed")
	return attackResult{
		release: func() { closeAll(slow); closeAll(idle) },
		closed: fmt.Sprintf("%d/%d slowloris (last after %.1f s) %d/%d idle (last after %.1f s)",
			slowClosed, len(slow), slowLongest.Seconds(), idleClosed, len(idle), idleLongest.Seconds()),
	}
}
