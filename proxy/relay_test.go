package proxy

import (
	"context"
	"encoding/binary"
	"io"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// echoBroker answers every request frame with a frame of respSize bytes
// holding its correlation id, allocating nothing per frame, so that
// allocation counts over a relay are the proxy's.
func echoBroker(t testing.TB, respSize int) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	done := make(chan struct{})
	t.Cleanup(func() {
		ln.Close()
		<-done
	})
	go func() {
		defer close(done)
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		in := make([]byte, 8<<20)
		out := make([]byte, 4+respSize)
		binary.BigEndian.PutUint32(out, uint32(respSize))
		for {
			if _, err := io.ReadFull(c, in[:4]); err != nil {
				return
			}
			n := int(binary.BigEndian.Uint32(in))
			if _, err := io.ReadFull(c, in[:n]); err != nil {
				return
			}
			copy(out[4:8], in[4:8]) // the correlation id
			if _, err := c.Write(out); err != nil {
				return
			}
		}
	}()
	return ln.Addr().String()
}

// relayClient sends one request frame of reqSize bytes and reads its
// answer, through the proxy, allocating nothing.
type relayClient struct {
	conn net.Conn
	req  []byte
	resp []byte
	corr int32
}

func newRelayClient(t testing.TB, addr string, reqSize, respSize int) *relayClient {
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	req := make([]byte, 4+reqSize)
	binary.BigEndian.PutUint32(req, uint32(reqSize))
	binary.BigEndian.PutUint16(req[4:], 3) // Metadata v1: relayed as bytes
	binary.BigEndian.PutUint16(req[6:], 1)
	return &relayClient{conn: conn, req: req, resp: make([]byte, 4+respSize)}
}

func (c *relayClient) roundTrip() error {
	c.corr++
	binary.BigEndian.PutUint32(c.req[8:], uint32(c.corr))
	if _, err := c.conn.Write(c.req); err != nil {
		return err
	}
	if _, err := io.ReadFull(c.conn, c.resp); err != nil {
		return err
	}
	if got := int32(binary.BigEndian.Uint32(c.resp[4:])); got != c.corr {
		return io.ErrUnexpectedEOF
	}
	return nil
}

// Relaying a frame no filter wants allocates nothing once the connection is
// up: short frames through the buffer, long ones spliced.
func TestRelayAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under the race detector (sync.Pool drops items)")
	}
	for _, tc := range []struct {
		name          string
		req, response int
	}{
		{"1 KiB", 1 << 10, 1 << 10},
		{"200 KiB, spliced", 200 << 10, 200 << 10},
		{"4 MiB, spliced in chunks", 4 << 20, 64},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := startProxy(t, Config{Listen: "127.0.0.1:0", Upstream: []string{echoBroker(t, tc.response)}})
			c := newRelayClient(t, p.Addr().String(), tc.req, tc.response)
			for range 20 { // warm up: buffers, pipes, timers
				require.NoError(t, c.roundTrip())
			}
			allocs := testing.AllocsPerRun(200, func() {
				if err := c.roundTrip(); err != nil {
					t.Fatal(err)
				}
			})
			assert.Zero(t, allocs, "allocations per relayed request and response")
		})
	}
}

// BenchmarkRelay is a request and its response through the proxy, no
// filter, over 127.0.0.1.
func BenchmarkRelay(b *testing.B) {
	for _, size := range []int{1 << 10, 16 << 10, 100 << 10, 1 << 20} {
		b.Run(byteSize(size), func(b *testing.B) {
			cfg := Config{Listen: "127.0.0.1:0", Upstream: []string{echoBroker(b, size)}, NewRequest: testRequests, NewResponse: testResponses}
			p, err := New(cfg)
			require.NoError(b, err)
			require.NoError(b, p.Start())
			b.Cleanup(func() {
				ctx, cancel := context.WithTimeout(context.Background(), time.Second)
				defer cancel()
				_ = p.Shutdown(ctx)
			})
			c := newRelayClient(b, p.Addr().String(), size, size)
			b.SetBytes(int64(2 * size))
			b.ReportAllocs()
			for b.Loop() {
				if err := c.roundTrip(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func byteSize(n int) string {
	switch {
	case n >= 1<<20:
		return strconv.Itoa(n>>20) + "MiB"
	case n >= 1<<10:
		return strconv.Itoa(n>>10) + "KiB"
	}
	return strconv.Itoa(n) + "B"
}
