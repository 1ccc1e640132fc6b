package proxy

import (
	"encoding/binary"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/wire"
	"github.com/kafkagen/kafkagen/wire/frames"
)

// shortTimeouts make the hostile tests quick.
var shortTimeouts = Timeouts{Read: 300 * time.Millisecond, Write: 300 * time.Millisecond, Idle: 2 * time.Second}

// closedSoon reads conn until the proxy closes it, failing after 5s.
func closedSoon(t *testing.T, conn net.Conn) {
	t.Helper()
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(5*time.Second)))
	_, err := io.Copy(io.Discard, conn)
	var ne net.Error
	require.False(t, errors.As(err, &ne) && ne.Timeout(), "the proxy did not close the connection")
}

// logSays waits for the proxy's log to hold want.
func logSays(t *testing.T, logs *lockedBuffer, want string) {
	t.Helper()
	require.Eventually(t, func() bool { return strings.Contains(logs.String(), want) }, 5*time.Second, 10*time.Millisecond,
		"the log says %q, not %q", logs.String(), want)
}

// Frames a client cannot send: each closes its connection with an error
// saying what was wrong, before anything is allocated for a huge size.
func TestHostileClientFrames(t *testing.T) {
	tests := []struct {
		name  string
		bytes []byte
		want  string
	}{
		{"negative size", []byte{0xff, 0xff, 0xff, 0xfe, 0, 0}, "kafka frame: negative size -2"},
		{"size above the limit", []byte{0x7f, 0xff, 0xff, 0xff, 0, 3}, "kafka frame: size 2147483647 is above the limit of 1048576 bytes"},
		{"shorter than a header", []byte{0, 0, 0, 3, 0, 3, 0}, "shorter than the 8 bytes"},
		{"ends inside the header", []byte{0, 0, 0, 20, 0, 3, 0}, "the client closed the connection inside a frame"},
		{"ends inside the size", []byte{0, 0}, "the client closed the connection inside a frame"},
		{"a Produce that ends inside its client id", []byte{0, 0, 0, 12, 0, 0, 0, 2, 0, 0, 0, 1, 0, 9, 'a', 'b'}, "ends inside its client id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := startBroker(t)
			p, logs := startProxy(t, Config{MaxFrameSize: 1 << 20, Timeouts: shortTimeouts}, b)
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			conn := rawDial(t, p.Addr().String())
			_, err := conn.Write(tt.bytes)
			require.NoError(t, err)
			require.NoError(t, conn.(*net.TCPConn).CloseWrite())
			closedSoon(t, conn)
			logSays(t, logs, tt.want)
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(8<<20), "allocated for a frame it refused")
		})
	}
}

// Random bytes: every connection ends, the proxy does not fall over, and a
// good client is served after.
func TestHostileGarbage(t *testing.T) {
	b := startBroker(t)
	p, _ := startProxy(t, Config{MaxFrameSize: 64 << 10, Timeouts: shortTimeouts}, b)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 50 {
		conn := rawDial(t, p.Addr().String())
		junk := make([]byte, rng.IntN(300))
		for i := range junk {
			junk[i] = byte(rng.Uint32())
		}
		if len(junk) >= 4 && rng.IntN(2) == 0 {
			binary.BigEndian.PutUint32(junk, uint32(len(junk)-4)) // a size that fits
		}
		_, _ = conn.Write(junk)
		_ = conn.(*net.TCPConn).CloseWrite()
		closedSoon(t, conn)
	}
	cl := dial(t, p.Addr().String())
	do(t, cl, produce("after", 1, records(10, 0)), 2, testResponses(0))
}

// A client that stops sending inside a frame is cut off: by the read
// timeout inside a frame a filter reads whole (whose buffer it would hold),
// by the idle timeout inside a frame relayed as bytes, and by the idle
// timeout when it sends nothing at all.
func TestHostileSilentClient(t *testing.T) {
	tests := []struct {
		name    string
		filters []Filter
		frame   []byte
		least   time.Duration // the connection lasts at least this
		most    time.Duration // and closes before this
	}{
		{"inside a frame read whole", []Filter{&testFilter{}}, []byte{0, 0, 1, 0, 0, 3, 0, 1, 0, 0, 0, 7, 0, 1, 'c'}, 150 * time.Millisecond, time.Second},
		{"inside a frame relayed", nil, []byte{0, 0, 1, 0, 0, 3, 0, 1}, time.Second, 5 * time.Second},
		{"nothing at all", nil, nil, time.Second, 5 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := startBroker(t)
			timeouts := Timeouts{Read: 200 * time.Millisecond, Idle: 1200 * time.Millisecond, Write: time.Second}
			p, logs := startProxy(t, Config{Filters: tt.filters, Timeouts: timeouts}, b)
			conn := rawDial(t, p.Addr().String())
			start := time.Now()
			if tt.frame != nil {
				_, err := conn.Write(tt.frame)
				require.NoError(t, err)
			}
			closedSoon(t, conn)
			took := time.Since(start)
			assert.Greater(t, took, tt.least)
			assert.Less(t, took, tt.most)
			if tt.frame != nil {
				logSays(t, logs, "i/o timeout")
			}
		})
	}
}

// A client that sends requests and never reads their answers: the proxy
// stops reading it at MaxInFlight, and the write timeout cuts it off.
func TestHostileClientStopsReading(t *testing.T) {
	b := startBroker(t)
	big := make([]topicError, 20000) // a 400 KB answer, more than the sockets hold
	for i := range big {
		big[i].Name = strings.Repeat("t", 16)
	}
	b.hook = func(conn net.Conn, req *wire.Request) bool {
		m, ok := req.Body.(*metadataRequest)
		if !ok || len(m.Topics) == 0 || m.Topics[0] != "big" {
			return false
		}
		resp := testResponses(3).(*metadataResponse)
		resp.Topics = big
		out, _ := frames.AppendResponse(nil, req.Header.CorrelationID, resp, req.Header.APIVersion)
		_ = conn.SetWriteDeadline(time.Now().Add(3 * time.Second))
		_, _ = conn.Write(out)
		return true
	}
	p, logs := startProxy(t, Config{MaxInFlight: 4, Timeouts: shortTimeouts}, b)
	conn := rawDial(t, p.Addr().String())
	body, err := metadata("big").AppendTo(nil, 1)
	require.NoError(t, err)
	for i := range 50 {
		if _, err := conn.Write(requestFrame(t, 3, 1, int32(i), body)); err != nil {
			break // the proxy stopped reading, then closed
		}
	}
	logSays(t, logs, "to the client")
	logSays(t, logs, "i/o timeout")
}

// A broker that answers nothing: the proxy forwards MaxInFlight requests and
// stops reading the client.
func TestMaxInFlight(t *testing.T) {
	b := startBroker(t)
	b.hook = func(net.Conn, *wire.Request) bool { return true }
	p, _ := startProxy(t, Config{MaxInFlight: 4}, b)
	conn := rawDial(t, p.Addr().String())
	body, err := metadata("held").AppendTo(nil, 1)
	require.NoError(t, err)
	for i := range 10 {
		_, err := conn.Write(requestFrame(t, 3, 1, int32(i), body))
		require.NoError(t, err)
	}
	require.Eventually(t, func() bool {
		b.mu.Lock()
		defer b.mu.Unlock()
		return len(b.seen) == 4
	}, 5*time.Second, 10*time.Millisecond)
	time.Sleep(200 * time.Millisecond)
	b.mu.Lock()
	defer b.mu.Unlock()
	assert.Len(t, b.seen, 4, "requests forwarded past MaxInFlight")
}

// A broker that dies inside a response, answers with a correlation id
// nothing waits for, or stops sending inside a frame: the client's
// connection closes and the log says why; passthrough and decoded alike.
func TestHostileBroker(t *testing.T) {
	tests := []struct {
		name    string
		rewrite bool
		act     func(conn net.Conn, req *wire.Request)
		want    string
	}{
		{"vanishes inside a relayed response", false, func(conn net.Conn, req *wire.Request) {
			_, _ = conn.Write([]byte{0, 1, 0, 0, 0, 0, 0, 7, 1, 2, 3})
			conn.Close()
		}, "the broker closed the connection inside a frame"},
		{"vanishes inside a decoded response", true, func(conn net.Conn, req *wire.Request) {
			_, _ = conn.Write([]byte{0, 0, 0, 100, 0, 0, 0, 7, 1, 2, 3})
			conn.Close()
		}, "the broker closed the connection inside a frame"},
		{"answers another correlation id", false, func(conn net.Conn, req *wire.Request) {
			_, _ = conn.Write([]byte{0, 0, 0, 4, 0, 0, 0x30, 0x39})
		}, "response correlation id 12345 matches none"},
		{"stops inside a frame", false, func(conn net.Conn, req *wire.Request) {
			_, _ = conn.Write([]byte{0, 0, 0, 100, 0, 0, 0, 7})
		}, "i/o timeout"},
		{"answers with a body that does not decode", true, func(conn net.Conn, req *wire.Request) {
			_, _ = conn.Write([]byte{0, 0, 0, 6, 0, 0, 0, 7, 0, 9})
		}, "decoding a response for the filters"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := startBroker(t)
			b.hook = func(conn net.Conn, req *wire.Request) bool {
				if req.Header.APIKey != 3 {
					return false
				}
				tt.act(conn, req)
				return true
			}
			cfg := Config{Timeouts: shortTimeouts, RewriteAddresses: tt.rewrite}
			p, logs := startProxy(t, cfg, b)
			conn := rawDial(t, p.Addr().String())
			body, err := metadata().AppendTo(nil, 1)
			require.NoError(t, err)
			_, err = conn.Write(requestFrame(t, 3, 1, 7, body))
			require.NoError(t, err)
			closedSoon(t, conn)
			logSays(t, logs, tt.want)
		})
	}
}
