package proxy

import (
	"context"
	"errors"
	"io"
	"log"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/internal/freeports"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
	"github.com/kafkagen/kafkagen/wire/frames"
)

// fakeBroker serves the test package on 127.0.0.1: ApiVersions (the ranges
// it is given), Metadata (its brokers, and the topics asked for or all it
// has stored), Produce (stores the records; no answer for acks 0; a topic
// named "slow..." is answered after 200ms) and SaslHandshake.
type fakeBroker struct {
	t        *testing.T
	ln       net.Listener
	versions []wire.VersionRange
	brokers  []broker
	// hook, when set, sees each request first and may answer it itself
	// (returning true), misbehaving as a test needs.
	hook func(conn net.Conn, req *wire.Request) bool

	mu       sync.Mutex
	produced map[string][][]byte // topic -> records, in arrival order
	seen     []int16             // api keys, in arrival order
}

// defaultVersions is what the fake broker advertises unless told otherwise:
// its APIs, one beyond the package's range, one unknown to it.
var defaultVersions = []wire.VersionRange{
	{APIKey: 0, MinVersion: 0, MaxVersion: 9},
	{APIKey: 3, MinVersion: 0, MaxVersion: 2},
	{APIKey: 17, MinVersion: 0, MaxVersion: 1},
	{APIKey: 18, MinVersion: 0, MaxVersion: 4},
	{APIKey: 999, MinVersion: 0, MaxVersion: 3},
}

func startBroker(t *testing.T) *fakeBroker {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	b := &fakeBroker{t: t, ln: ln, versions: defaultVersions, produced: map[string][][]byte{}}
	var wg sync.WaitGroup
	var connsMu sync.Mutex
	var conns []net.Conn
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			connsMu.Lock()
			conns = append(conns, c)
			connsMu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				b.serve(c)
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		connsMu.Lock()
		for _, c := range conns {
			c.Close()
		}
		connsMu.Unlock()
		wg.Wait()
	})
	return b
}

func (b *fakeBroker) addr() string { return b.ln.Addr().String() }

// hostPort is the broker's address as a Metadata broker entry.
func (b *fakeBroker) asNode(id int32) broker {
	host, port, _ := net.SplitHostPort(b.addr())
	p, _ := strconv.Atoi(port)
	return broker{NodeID: id, Host: host, Port: int32(p)}
}

func (b *fakeBroker) serve(c net.Conn) {
	sc := wire.NewServerConn(c, wire.ServerConfig{NewRequest: testRequests})
	for {
		req, err := sc.ReadRequest()
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) {
				_ = sc.Answer(err)
			}
			return
		}
		b.mu.Lock()
		b.seen = append(b.seen, req.Header.APIKey)
		hook := b.hook
		b.mu.Unlock()
		if hook != nil && hook(c, req) {
			continue
		}
		resp := b.answer(req)
		if resp == nil {
			continue
		}
		if err := sc.WriteResponse(req, resp); err != nil {
			return
		}
	}
}

// answer is the response to req, nil for none.
func (b *fakeBroker) answer(req *wire.Request) runtime.APIMessage {
	switch body := req.Body.(type) {
	case *generated.APIVersionsRequest:
		resp := generated.NewAPIVersionsResponse()
		for _, v := range b.versions {
			resp.APIKeys = append(resp.APIKeys, generated.APIVersionsResponseAPIVersion{APIKey: v.APIKey, MinVersion: v.MinVersion, MaxVersion: v.MaxVersion})
		}
		for _, f := range []string{"group.version", "transaction.version"} {
			resp.SupportedFeatures = append(resp.SupportedFeatures, generated.APIVersionsResponseSupportedFeatureKey{Name: f, MinVersion: 0, MaxVersion: 2})
			resp.FinalizedFeatures = append(resp.FinalizedFeatures, generated.APIVersionsResponseFinalizedFeatureKey{Name: f, MaxVersionLevel: 2, MinVersionLevel: 2})
		}
		resp.FinalizedFeaturesEpoch = 9
		return resp
	case *generated.SaslHandshakeRequest:
		resp := generated.NewSaslHandshakeResponse()
		resp.Mechanisms = []string{"PLAIN"}
		return resp
	case *metadataRequest:
		resp := testResponses(3).(*metadataResponse)
		resp.Brokers = append(resp.Brokers, b.brokers...)
		names := body.Topics
		if len(names) == 0 {
			names = b.topics()
		}
		for _, n := range names {
			resp.Topics = append(resp.Topics, topicError{Name: n})
		}
		return resp
	case *produceRequest:
		b.mu.Lock()
		b.produced[body.Topic] = append(b.produced[body.Topic], body.Records)
		offset := len(b.produced[body.Topic]) - 1
		b.mu.Unlock()
		if body.Acks == 0 {
			return nil
		}
		if strings.HasPrefix(body.Topic, "slow") {
			time.Sleep(200 * time.Millisecond)
		}
		resp := testResponses(0).(*produceResponse)
		resp.Topic, resp.BaseOffset = body.Topic, int64(offset)
		return resp
	}
	b.t.Errorf("fake broker: no answer for %s", req.Body.SpecName())
	return nil
}

// topics lists the topics holding records, sorted.
func (b *fakeBroker) topics() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for t := range b.produced {
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}

func (b *fakeBroker) records(topic string) [][]byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.produced[topic]
}

// startProxy serves cfg (the test package, 127.0.0.1) in front of brokers
// until the test ends, and returns it with the log it writes.
func startProxy(t *testing.T, cfg Config, brokers ...*fakeBroker) (*Proxy, *lockedBuffer) {
	t.Helper()
	for _, b := range brokers {
		cfg.Upstream = append(cfg.Upstream, b.addr())
	}
	cfg.NewRequest, cfg.NewResponse = testRequests, testResponses
	logs := &lockedBuffer{}
	cfg.Logger = log.New(logs, "", 0)
	if cfg.Listen == "" {
		cfg.Listen = "127.0.0.1:0"
		if cfg.RewriteAddresses {
			cfg.Listen = "127.0.0.1:" + strconv.Itoa(freePorts(t, 4))
		}
	}
	p, err := New(cfg)
	require.NoError(t, err)
	require.NoError(t, p.Start())
	t.Cleanup(func() { require.NoError(t, p.Close()) })
	return p, logs
}

// freePorts finds a port with n free ports above it on 127.0.0.1.
func freePorts(t *testing.T, n int) int {
	port, err := freeports.Run(n + 1)
	require.NoError(t, err)
	return port
}

// dial connects a wire client to addr, closed when the test ends.
func dial(t *testing.T, addr string) *wire.Client {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	require.NoError(t, err)
	cl := wire.NewClient(conn, wire.ClientConfig{ClientID: runtime.NewNullString("proxy-test")})
	t.Cleanup(func() { cl.Close() })
	return cl
}

// do sends req at version and returns resp, failing the test on error.
func do[R runtime.APIMessage](t *testing.T, cl *wire.Client, req runtime.APIMessage, version int16, resp R) R {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, cl.Do(ctx, req, version, resp), "%s v%d", req.(runtime.Versioned).SpecName(), version)
	return resp
}

// rawDial connects to addr for a test that writes and reads frames itself.
func rawDial(t *testing.T, addr string) net.Conn {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	require.NoError(t, err)
	require.NoError(t, conn.SetDeadline(time.Now().Add(10*time.Second)))
	t.Cleanup(func() { conn.Close() })
	return conn
}

// requestFrame is a request frame with header v1 (client id "raw").
func requestFrame(t *testing.T, key, version int16, corr int32, body []byte) []byte {
	h := frames.RequestHeader{APIKey: key, APIVersion: version, CorrelationID: corr, ClientID: runtime.NewNullString("raw")}
	b, start := frames.BeginFrame(nil)
	b, err := h.AppendTo(b, 1)
	require.NoError(t, err)
	b = append(b, body...)
	require.NoError(t, frames.EndFrame(b, start))
	return b
}

// readFrame reads one frame, its size prefix included.
func readFrame(t *testing.T, conn net.Conn) []byte {
	t.Helper()
	fr := frames.NewFrameReader(conn, 0)
	f, err := fr.Next()
	require.NoError(t, err)
	out, err := frames.AppendFrame(nil, f)
	require.NoError(t, err)
	return out
}
