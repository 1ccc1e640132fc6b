package proxy

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/wire"
	"github.com/kafkagen/kafkagen/wire/frames"
)

// records is n bytes of a pattern that names the batch, so that a mix-up
// shows.
func records(n, batch int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + batch)
	}
	return b
}

func produce(topic string, acks int16, recs []byte) *produceRequest {
	m := testRequests(0).(*produceRequest)
	m.Acks, m.TimeoutMs, m.Topic, m.Records = acks, 1000, topic, recs
	return m
}

// Requests and responses of every size go through unchanged and in order,
// pipelined: small ones gathered in the buffer, long ones spliced, and
// Produce with acks 0 (no answer) between them.
func TestPassthrough(t *testing.T) {
	b := startBroker(t)
	p, logs := startProxy(t, Config{}, b)
	cl := dial(t, p.Addr().String())
	sizes := []int{0, 1, 100, 60 << 10, 64 << 10, 200 << 10, 3 << 20, 10}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	errs := make(chan error, len(sizes))
	for i, n := range sizes {
		require.NoError(t, cl.Send(ctx, produce("quiet", 0, records(n, i)), 2), "acks 0 before request %d", i)
		go func() {
			resp := testResponses(0).(*produceResponse)
			err := cl.Do(ctx, produce("orders", 1, records(n, i)), 2, resp)
			if err == nil && resp.Topic != "orders" {
				err = fmt.Errorf("answered for topic %q", resp.Topic)
			}
			errs <- err
		}()
	}
	for range sizes {
		require.NoError(t, <-errs)
	}
	got := b.records("orders")
	require.Len(t, got, len(sizes))
	want := map[string]bool{}
	for i, n := range sizes {
		want[string(records(n, i))] = true
	}
	for _, r := range got {
		assert.True(t, want[string(r)], "a batch of %d bytes the client did not send", len(r))
	}
	assert.Len(t, b.records("quiet"), len(sizes), "acks 0 batches arrive, unanswered")
	assert.Empty(t, logs.String())
}

// The ApiVersions answer lists only what the generated package reads (the
// unknown key 999 goes, Produce is cut to v2), SaslHandshake from v1.
func TestAPIVersionsClamped(t *testing.T) {
	b := startBroker(t)
	p, _ := startProxy(t, Config{}, b)
	cl := dial(t, p.Addr().String())
	for _, v := range []int16{0, 3, 4} {
		resp := do(t, cl, generated.NewAPIVersionsRequest(), v, generated.NewAPIVersionsResponse())
		var got []wire.VersionRange
		for _, k := range resp.APIKeys {
			got = append(got, wire.VersionRange{APIKey: k.APIKey, MinVersion: k.MinVersion, MaxVersion: k.MaxVersion})
		}
		assert.Equal(t, []wire.VersionRange{{APIKey: 0, MaxVersion: 2}, {APIKey: 3, MaxVersion: 2}, {APIKey: 17, MinVersion: 1, MaxVersion: 1}, {APIKey: 18, MaxVersion: 4}}, got, "v%d", v)
		if v < 3 {
			continue
		}
		// Produce stops at v2, so transaction.version 2 (Produce v12 and
		// up) is lowered to 1; group.version is not the proxy's concern.
		assert.Equal(t, []generated.APIVersionsResponseSupportedFeatureKey{{Name: "group.version", MaxVersion: 2}, {Name: "transaction.version", MaxVersion: 1}}, resp.SupportedFeatures)
		assert.Equal(t, []generated.APIVersionsResponseFinalizedFeatureKey{{Name: "group.version", MaxVersionLevel: 2, MinVersionLevel: 2}, {Name: "transaction.version", MaxVersionLevel: 1, MinVersionLevel: 1}}, resp.FinalizedFeatures)
		assert.Equal(t, int64(9), resp.FinalizedFeaturesEpoch)
	}
}

func TestFeatureLimit(t *testing.T) {
	tests := []struct {
		feature    string
		advertised map[int16]int16
		limit      int16
		known      bool
	}{
		{"transaction.version", map[int16]int16{0: 12, 26: 5, 28: 5}, 2, true},
		{"transaction.version", map[int16]int16{0: 11, 26: 5, 28: 5}, 1, true},
		{"transaction.version", map[int16]int16{0: 12, 28: 5}, 1, true},
		{"group.version", map[int16]int16{}, 0, false},
	}
	for _, tt := range tests {
		limit, known := featureLimit(tt.feature, tt.advertised)
		assert.Equal(t, tt.known, known, "%s %v", tt.feature, tt.advertised)
		assert.Equal(t, tt.limit, limit, "%s %v", tt.feature, tt.advertised)
	}
}

// An ApiVersions request above what the package reads gets KIP-511's answer
// from the proxy; the broker never sees it, and the connection goes on.
func TestAPIVersionsAboveRange(t *testing.T) {
	b := startBroker(t)
	p, _ := startProxy(t, Config{}, b)
	conn := rawDial(t, p.Addr().String())
	frame := requestFrame(t, 18, 9, 77, []byte{0, 0, 0})
	_, err := conn.Write(frame)
	require.NoError(t, err)
	got := readFrame(t, conn)
	want := frames.AppendAPIVersionsUnsupported(nil, 77, 0, 4)
	assert.Equal(t, want, got)

	cl := wire.NewClient(conn, wire.ClientConfig{FirstCorrelationID: 78})
	defer cl.Close()
	do(t, cl, generated.NewAPIVersionsRequest(), 4, generated.NewAPIVersionsResponse())
	b.mu.Lock()
	defer b.mu.Unlock()
	assert.Equal(t, []int16{18}, b.seen, "only the v4 request reached the broker")
}

// New says what is wrong with a configuration.
func TestNewErrors(t *testing.T) {
	ok := Config{Listen: "127.0.0.1:9192", Upstream: []string{"127.0.0.1:9092"}, NewRequest: testRequests, NewResponse: testResponses}
	tests := []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"no package", func(c *Config) { c.NewResponse = nil }, "Config.NewRequest and NewResponse are required"},
		{"no upstream", func(c *Config) { c.Upstream = nil }, "Config.Upstream lists no broker"},
		{"a bad upstream", func(c *Config) { c.Upstream = []string{"broker"} }, `upstream "broker"`},
		{"a bad listen address", func(c *Config) { c.Listen = "9192" }, `listen address "9192"`},
		{"a bad port", func(c *Config) { c.Listen = "127.0.0.1:99999" }, "is not a number from 0 to 65535"},
		{"port 0 with rewriting", func(c *Config) { c.Listen, c.RewriteAddresses = "127.0.0.1:0", true }, "PORT cannot be 0"},
		{"no host", func(c *Config) { c.Listen = ":9192" }, "give the host clients reach the proxy at"},
		{"too many filters", func(c *Config) { c.Filters = make([]Filter, 65) }, "65 filters; at most 64"},
	}
	for _, tt := range tests {
		cfg := ok
		tt.edit(&cfg)
		_, err := New(cfg)
		require.Error(t, err, tt.name)
		assert.Contains(t, err.Error(), tt.want, tt.name)
	}
	_, err := New(ok)
	require.NoError(t, err)
}
