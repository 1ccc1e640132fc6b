package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestClientOf(t *testing.T) {
	for id, want := range map[string]string{
		"kafka-go-none":             "kafka-go",
		"kafka-python-v0.10.1-lz4":  "kafka-python",
		"kafkajs-group-admin":       "kafkajs",
		"sarama-v0.8.2-gzip":        "sarama",
		"franz-go-txn-committed":    "franz-go",
		"kafka-go":                  "", // no step
		"kafkagen-reverse":          "",
		"":                          "",
		"kcat-metadata":             "kcat",
		"kafka-pythonic-impostor-x": "",
	} {
		assert.Equal(t, want, clientOf(id, clientSpecs), id)
	}
}

func TestParseAPIVersion(t *testing.T) {
	p, ok := parseAPIVersion("Produce v11")
	require.True(t, ok)
	assert.Equal(t, apiVersion{"Produce", 11}, p)
	for _, bad := range []string{"Produce", "Produce vx", "Produce 11"} {
		_, ok := parseAPIVersion(bad)
		assert.False(t, ok, bad)
	}
}

func TestPairsByClient(t *testing.T) {
	s := &stats{Clients: map[string]map[string]int64{
		"kcat-none":        {"Produce v9": 1, "Metadata v12": 2, "Fetch v11": 1},
		"kcat-group":       {"Metadata v12": 1, "JoinGroup v5": 1, "Produce v10": 3},
		"sarama-v0.8.2-gz": {"Produce v0": 1},
		"someone":          {"ApiVersions v3": 1},
	}}
	pairs := pairsByClient(s, clientSpecs)
	assert.Equal(t, []apiVersion{{"Fetch", 11}, {"JoinGroup", 5}, {"Metadata", 12}, {"Produce", 9}, {"Produce", 10}}, pairs["kcat"])
	assert.Equal(t, []apiVersion{{"Produce", 0}}, pairs["sarama"])
	assert.Equal(t, []apiVersion{{"ApiVersions", 3}}, pairs["other"])
	assert.Equal(t, 7, distinctPairs(s))
}

func TestUpdateCaptures(t *testing.T) {
	src, dest := t.TempDir(), filepath.Join(t.TempDir(), "captures")
	writeFile(t, filepath.Join(src, "kafka-go-none", "Produce-v7.bin"), "p")
	writeFile(t, filepath.Join(src, "kafka-go-none", "Metadata-v6.bin"), "m")
	writeFile(t, filepath.Join(src, "sarama-v0.8.2-gzip", "Produce-v0.bin"), "s")
	writeFile(t, filepath.Join(src, "stranger", "Fetch-v4.bin"), "x")
	writeFile(t, filepath.Join(dest, "kcat", "old", "Fetch-v1.bin"), "stale")

	frames, note, err := updateCaptures(src, dest, clientSpecs)
	require.NoError(t, err)
	assert.Equal(t, 3, frames)
	assert.Contains(t, note, "stranger")
	data, err := os.ReadFile(filepath.Join(dest, "sarama", "v0.8.2-gzip", "Produce-v0.bin"))
	require.NoError(t, err)
	assert.Equal(t, "s", string(data))
	assert.FileExists(t, filepath.Join(dest, "kafka-go", "none", "Metadata-v6.bin"))
	assert.NoDirExists(t, filepath.Join(dest, "kcat"), "stale captures are removed")
}

// A run of some clients (-clients) replaces their captures only.
func TestUpdateCapturesKeepsClientsNotRun(t *testing.T) {
	src, dest := t.TempDir(), filepath.Join(t.TempDir(), "captures")
	writeFile(t, filepath.Join(src, "kcat-none", "Produce-v7.bin"), "new")
	writeFile(t, filepath.Join(dest, "kcat", "old", "Fetch-v1.bin"), "stale")
	writeFile(t, filepath.Join(dest, "sarama", "none", "Produce-v9.bin"), "kept")

	only, err := selectClients("kcat")
	require.NoError(t, err)
	frames, _, err := updateCaptures(src, dest, only)
	require.NoError(t, err)
	assert.Equal(t, 1, frames)
	assert.FileExists(t, filepath.Join(dest, "kcat", "none", "Produce-v7.bin"))
	assert.NoDirExists(t, filepath.Join(dest, "kcat", "old"), "the client that ran loses its stale captures")
	data, err := os.ReadFile(filepath.Join(dest, "sarama", "none", "Produce-v9.bin"))
	require.NoError(t, err, "a client that did not run keeps its captures")
	assert.Equal(t, "kept", string(data))
}

// writeFile writes data to path, creating its folder.
func writeFile(t *testing.T, path, data string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(data), 0o644))
}

// A client that outlives its timeout is killed with every process it
// started.
func TestRunClientTimeoutKillsItsProcesses(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	spec := clientSpec{Name: "sleepy", Command: func(_, _, _ string, _ int) []string {
		return []string{"sh", "-c", "sleep 60 & echo $! > " + pidFile + "; wait"}
	}}
	start := time.Now()
	res := runClient(context.Background(), spec, t.TempDir(), "", "", 1, 300*time.Millisecond)
	assert.Less(t, time.Since(start), 5*time.Second, "the run ended at its timeout, not when the child would have")
	require.Len(t, res.Failed, 1)
	assert.Contains(t, res.Failed[0], "FAIL sleepy: timed out after 300ms")
	data, err := os.ReadFile(pidFile)
	require.NoError(t, err)
	pid := strings.TrimSpace(string(data))
	assert.Eventually(t, func() bool {
		stat, err := os.ReadFile("/proc/" + pid + "/stat")
		// Gone, or a zombie waiting for a parent to reap it: not running.
		return err != nil || strings.Contains(string(stat), ") Z ")
	}, 5*time.Second, 20*time.Millisecond, "the client's child %s still runs", pid)
}
