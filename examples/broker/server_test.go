package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
	"github.com/kafkagen/kafkagen/wire/frames"
)

// lockedBuffer is a log destination tests read while the broker writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestReencodeDifferenceIsCountedAndLogged(t *testing.T) {
	var logs lockedBuffer
	tb := startBroker(t, Config{Logger: log.New(&logs, "", 0)})
	// ApiVersions v3 whose body ends its tag section with a two-byte
	// varint 0 (80 00): it decodes, and re-encodes with the one-byte 00.
	body := []byte{0x02, 'g', 0x02, '1', 0x80, 0x00}
	frame := append(header(t, kafkamsg.APIKeyAPIVersions, 3, "odd", true), body...)
	resp, err := rawRequest(t, tb.addr, frame)
	require.NoError(t, err, "the request is still answered")
	assert.NotEmpty(t, resp)
	requests, diffs := tb.stats.Snapshot()
	assert.Equal(t, int64(1), requests)
	assert.Equal(t, int64(1), diffs)
	out := logs.String()
	assert.Contains(t, out, `re-encode difference, client "odd" ApiVersions v3`)
	assert.Contains(t, out, "arrived:    "+hexOf(frame))
	assert.Contains(t, out, "first difference at byte 18")

	// A canonical request adds no difference.
	cl := tb.client(t, "plain")
	do(t, cl, kafkamsg.NewAPIVersionsRequest(), 3, kafkamsg.NewAPIVersionsResponse())
	_, diffs = tb.stats.Snapshot()
	assert.Equal(t, int64(1), diffs)
}

func hexOf(b []byte) string {
	const digits = "0123456789abcdef"
	var s strings.Builder
	for _, c := range b {
		s.WriteByte(digits[c>>4])
		s.WriteByte(digits[c&15])
	}
	return s.String()
}

func TestCapture(t *testing.T) {
	dir := t.TempDir()
	capture, err := NewCapture(dir)
	require.NoError(t, err)
	tb := startBroker(t, Config{})
	tb.srv.Capture = capture
	cl := tb.client(t, "my client/1.0")
	do(t, cl, kafkamsg.NewAPIVersionsRequest(), 3, kafkamsg.NewAPIVersionsResponse())
	second := kafkamsg.NewAPIVersionsRequest()
	second.ClientSoftwareName = "later"
	do(t, cl, second, 3, kafkamsg.NewAPIVersionsResponse())
	do(t, cl, kafkamsg.NewAPIVersionsRequest(), 2, kafkamsg.NewAPIVersionsResponse())

	folder := filepath.Join(dir, "my_client_1.0")
	entries, err := os.ReadDir(folder)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.Equal(t, []string{"ApiVersions-v2.bin", "ApiVersions-v3.bin"}, names)

	// The file is the first v3 frame: header (correlation id 0) and body.
	got, err := os.ReadFile(filepath.Join(folder, "ApiVersions-v3.bin"))
	require.NoError(t, err)
	h := frames.RequestHeader{APIKey: kafkamsg.APIKeyAPIVersions, APIVersion: 3, CorrelationID: 0, ClientID: runtime.NewNullString("my client/1.0")}
	want, err := h.AppendTo(nil, 2)
	require.NoError(t, err)
	want, err = kafkamsg.NewAPIVersionsRequest().AppendTo(want, 3)
	require.NoError(t, err)
	assert.Equal(t, want, got)
}

func TestSanitizeClientID(t *testing.T) {
	tests := map[string]string{
		"kafka-python":         "kafka-python",
		"rdkafka":              "rdkafka",
		"sarama/1.0 (go)":      "sarama_1.0__go_",
		"":                     "unknown",
		"..":                   "unknown",
		"../../etc":            ".._.._etc",
		"consumer-g-1.x_y":     "consumer-g-1.x_y",
		"\xff\xfeunicode é ok": "__unicode____ok", // byte by byte: é is two
	}
	for in, want := range tests {
		assert.Equal(t, want, sanitizeClientID(in), "%q", in)
	}
}

func TestStatsFile(t *testing.T) {
	s := NewStats()
	s.Count("kcat", kafkamsg.APIKeyProduce, 7)
	s.Count("kcat", kafkamsg.APIKeyProduce, 7)
	s.Count("", kafkamsg.APIKeyMetadata, 4)
	s.CountDiff()
	path := filepath.Join(t.TempDir(), "stats.json")
	require.NoError(t, s.WriteFile(path))
	var got struct {
		Requests      int64                       `json:"requests"`
		ReencodeDiffs int64                       `json:"reencode_diffs"`
		Clients       map[string]map[string]int64 `json:"clients"`
	}
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &got))
	assert.Equal(t, int64(3), got.Requests)
	assert.Equal(t, int64(1), got.ReencodeDiffs)
	assert.Equal(t, map[string]map[string]int64{"kcat": {"Produce v7": 2}, "": {"Metadata v4": 1}}, got.Clients)
	assert.Error(t, s.WriteFile(filepath.Join(t.TempDir(), "missing", "stats.json")))
}

// TestServeLifecycle runs the command's serve as main does: the first
// stdout line names the bound port, the stats file is written while it
// runs and when it stops, and stopping ends waiting requests.
func TestServeLifecycle(t *testing.T) {
	dir := t.TempDir()
	stats := filepath.Join(dir, "stats.json")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stdoutR, stdoutW := io.Pipe()
	done := make(chan error, 1)
	o := options{addr: "127.0.0.1:0", statsFile: stats, captureDir: filepath.Join(dir, "capture"), partitions: 1, autoCreate: true}
	go func() {
		done <- serve(ctx, o, log.New(io.Discard, "", 0), stdoutW)
		stdoutW.Close()
	}()
	line, err := bufio.NewReader(stdoutR).ReadString('\n')
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(line, "listening on 127.0.0.1:"), line)
	addr := strings.TrimSpace(strings.TrimPrefix(line, "listening on "))

	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	require.NoError(t, err)
	cl := wire.NewClient(conn, wire.ClientConfig{ClientID: runtime.NewNullString("life")})
	defer cl.Close()
	do(t, cl, kafkamsg.NewAPIVersionsRequest(), 3, kafkamsg.NewAPIVersionsResponse())

	// A long poll in flight when the broker stops.
	waiting := make(chan error, 1)
	go func() {
		req := fetchReq(12, "idle", runtime.UUID{}, 0, 0)
		req.MaxWaitMs, req.MinBytes = 60000, 1
		meta := kafkamsg.NewMetadataRequest()
		meta.Topics = []kafkamsg.MetadataRequestTopic{{Name: runtime.NewNullString("idle")}}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := cl.Do(ctx, meta, 12, kafkamsg.NewMetadataResponse()); err != nil {
			waiting <- err
			return
		}
		waiting <- cl.Do(ctx, req, 12, kafkamsg.NewFetchResponse())
	}()
	require.Eventually(t, func() bool {
		data, err := os.ReadFile(stats)
		return err == nil && bytes.Contains(data, []byte(`"Fetch v12": 1`))
	}, 5*time.Second, 50*time.Millisecond, "stats are written while running, the fetch waiting")
	require.NoError(t, os.Remove(stats), "removed to see the exit write it again")

	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
	<-waiting // answered empty or cut off: either way it returned
	data, err := os.ReadFile(stats)
	require.NoError(t, err, "stats are written on exit")
	assert.Contains(t, string(data), `"Fetch v12": 1`)
	_, err = os.Stat(filepath.Join(dir, "capture", "life", "Fetch-v12.bin"))
	assert.NoError(t, err)
}

func TestFlags(t *testing.T) {
	// A loopback port already taken: the broker's listen fails there.
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer taken.Close()
	missing := filepath.Join(t.TempDir(), "missing")
	tests := []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"-partitions", "0"}, 2, "-partitions 0"},
		{[]string{"-max-message-bytes", "0"}, 2, "-max-message-bytes 0: must be positive"},
		{[]string{"-fetch-max-bytes", "-1"}, 2, "-fetch-max-bytes -1: must be positive"},
		{[]string{"extra"}, 2, `unexpected argument "extra"`},
		{[]string{"-nope"}, 2, "flag provided but not defined"},
		{[]string{"-h"}, 0, "-addr"},
		{[]string{"-addr", taken.Addr().String()}, 1, "listen"},
		{[]string{"-security-protocol", "TLS"}, 2, `-security-protocol "TLS": must be one of PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL`},
		{[]string{"-security-protocol", "SSL"}, 2, "-security-protocol SSL needs -tls-cert and -tls-key"},
		{[]string{"-tls-cert", "c.pem", "-tls-key", "k.pem"}, 2, "-tls-cert and -tls-key are for -security-protocol SSL or SASL_SSL, not PLAINTEXT"},
		{[]string{"-security-protocol", "SASL_SSL", "-tls-cert", "c.pem", "-tls-key", "k.pem"}, 2, "-security-protocol SASL_SSL needs -sasl-users FILE"},
		{[]string{"-sasl-users", "users"}, 2, "-sasl-users is for -security-protocol SASL_PLAINTEXT or SASL_SSL, not PLAINTEXT"},
		{[]string{"-connections-max-idle-ms", "0"}, 2, "-connections-max-idle-ms 0: must be positive, or -1 for no limit"},
		{[]string{"-request-read-timeout-ms", "-2"}, 2, "-request-read-timeout-ms -2: must be positive, or -1"},
		{[]string{"-max-connections-per-ip", "-1"}, 2, "-max-connections-per-ip -1: must be 0 (no limit) or more"},
		{[]string{"-socket-request-max-bytes", "0"}, 2, "-socket-request-max-bytes 0: must be positive"},
		{[]string{"-queued-max-request-bytes", "1000"}, 2, "-queued-max-request-bytes 1000: must be at least 209715200, twice -socket-request-max-bytes"},
		{[]string{"-security-protocol", "SSL", "-tls-cert", missing, "-tls-key", missing}, 1, "-tls-cert " + missing},
		{[]string{"-security-protocol", "SASL_PLAINTEXT", "-sasl-users", missing}, 1, "-sasl-users: open " + missing},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		assert.Equal(t, tt.code, run(tt.args, &stdout, &stderr), "%v", tt.args)
		assert.Contains(t, stderr.String(), tt.err, "%v", tt.args)
	}
}
