package main

import (
	"bufio"
	"context"
	"io"
	"log"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kafkagen/kafkagen/examples/proxy/internal/ports"
)

// freePorts finds a port with n-1 free ports above it on 127.0.0.1 (the
// bootstrap port and the ports of nodes 0 to n-2).
func freePorts(t *testing.T, n int) int {
	t.Helper()
	port, err := ports.Free(n)
	require.NoError(t, err)
	return port
}

func listen(t *testing.T, port int) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	require.NoError(t, err)
	return ln
}

// startCluster runs a kfake cluster of n nodes on 127.0.0.1 until the test
// ends.
func startCluster(t *testing.T, n int, opts ...kfake.Opt) *kfake.Cluster {
	t.Helper()
	c, err := kfake.NewCluster(append([]kfake.Opt{kfake.NumBrokers(n), kfake.AllowAutoTopicCreation()}, opts...)...)
	require.NoError(t, err)
	t.Cleanup(c.Close)
	return c
}

// startKafkaproxy runs the command's serve with args in front of the
// cluster until the test ends, and returns its bootstrap address.
func startKafkaproxy(t *testing.T, c *kfake.Cluster, args ...string) string {
	t.Helper()
	listen := "127.0.0.1:" + strconv.Itoa(freePorts(t, len(c.ListenAddrs())+1))
	args = append([]string{"-listen", listen, "-upstream", strings.Join(c.ListenAddrs(), ",")}, args...)
	o, err := parseFlags(args, io.Discard)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	out, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, o, log.New(testWriter{t}, "kafkaproxy: ", 0), w)
		w.Close()
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "listening on "+listen+"\n", line)
	go io.Copy(io.Discard, out) //nolint:errcheck // the log, when it goes to stdout
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
	})
	return listen
}

// testWriter sends a log to the test's.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// client is a franz-go client of seed, closed when the test ends.
func client(t *testing.T, seed string, opts ...kgo.Opt) *kgo.Client {
	t.Helper()
	cl, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers(seed), kgo.RetryTimeout(20 * time.Second)}, opts...)...)
	require.NoError(t, err)
	t.Cleanup(cl.Close)
	return cl
}

// testContext is a context for one step of a test.
func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}
