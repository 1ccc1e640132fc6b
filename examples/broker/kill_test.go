package main

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/examples/broker/internal/brokerproc"
	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/runtime"
)

// brokerProcess is the broker command running in a process of its own,
// with its address under the name the tests use.
type brokerProcess struct {
	*brokerproc.Process
	addr string
}

// startBrokerProcess runs the binary with args and waits for its
// "listening on" line; the process is killed when the test ends.
func startBrokerProcess(t *testing.T, binary, logPath string, args ...string) *brokerProcess {
	t.Helper()
	p, err := brokerproc.Start(binary, logPath, 60*time.Second, args...)
	require.NoError(t, err)
	t.Cleanup(p.Kill)
	return &brokerProcess{Process: p, addr: p.Addr}
}

// buildBroker builds the broker command into dir.
func buildBroker(t *testing.T, dir string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	binary, err := brokerproc.Build(ctx, ".", dir)
	require.NoError(t, err)
	return binary
}

// ackedRecord is where an acknowledged record must be.
type ackedRecord struct {
	partition int32
	offset    int64
}

// TestKill9KeepsAcknowledgedRecords runs the broker command with
// -data-dir, produces from several connections at acks=-1, kills the
// process with SIGKILL in the middle of the load, restarts it on the same
// folder and fetches everything: each acknowledged record is there once,
// at the offset it was acknowledged at, in order, and every batch reads.
func TestKill9KeepsAcknowledgedRecords(t *testing.T) {
	acked, found := kill9Load(t, buildBroker(t, t.TempDir()))
	t.Logf("%d records acknowledged before the kill, %d in the log after the restart (the rest were in flight)", acked, found)
}

// kill9Load is the test's run on a built binary (the reliability suite
// runs it too); it returns how many records were acknowledged before the
// kill and how many are in the log after the restart.
func kill9Load(t *testing.T, binary string) (acked, found int) {
	tmp := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dataDir, logPath := filepath.Join(tmp, "data"), filepath.Join(tmp, "broker.log")

	first := startBrokerProcess(t, binary, logPath, "-data-dir", dataDir, "-partitions", "2")
	createTopic(t, dialClient(t, first.addr, "admin"), "k", 2)

	const (
		producers       = 6
		maxRequests     = 2000 // per producer: the load stops by itself
		recordsPerBatch = 5
		killAfter       = 300 // acknowledged batches before the kill
	)
	var (
		mu      sync.Mutex
		ackedAt = map[string]ackedRecord{}
		batches atomic.Int64
		wg      sync.WaitGroup
	)
	codecs := []records.Compression{records.CompressionNone, records.CompressionZstd, records.CompressionLZ4}
	for i := 0; i < producers; i++ {
		cl := dialClient(t, first.addr, fmt.Sprintf("producer-%d", i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < maxRequests; j++ {
				partition := int32(j % 2)
				recs := make([]testRecord, recordsPerBatch)
				for k := range recs {
					recs[k] = testRecord{value: []byte(fmt.Sprintf("p%d-%d-%d", i, j, k)), timestamp: time.Now().UnixMilli()}
				}
				b := records.NewBatchBuilder()
				b.Compression = codecs[j%len(codecs)]
				for _, r := range recs {
					b.Append(r.timestamp, nil, r.value)
				}
				blob, err := b.AppendTo(nil)
				if err != nil {
					return
				}
				callCtx, callCancel := context.WithTimeout(ctx, 10*time.Second)
				resp := kafkamsg.NewProduceResponse()
				err = cl.Do(callCtx, produceReq("k", partition, -1, blob), 9, resp)
				callCancel()
				if err != nil {
					return // the broker is gone
				}
				p := resp.Responses[0].PartitionResponses[0]
				if p.ErrorCode != codeNone {
					t.Errorf("producer %d request %d: %v", i, j, p.ErrorMessage)
					return
				}
				mu.Lock()
				for k, r := range recs {
					ackedAt[string(r.value)] = ackedRecord{partition, p.BaseOffset + int64(k)}
				}
				mu.Unlock()
				batches.Add(1)
			}
		}()
	}
	require.Eventually(t, func() bool { return batches.Load() >= killAfter }, time.Minute, 5*time.Millisecond, "the load did not start")
	first.Kill()
	wg.Wait()
	require.Less(t, batches.Load(), int64(producers*maxRequests), "the kill came before the load ended")

	second := startBrokerProcess(t, binary, logPath, "-data-dir", dataDir)
	cl := dialClient(t, second.addr, "reader")
	inLog := map[string]ackedRecord{}
	for partition := int32(0); partition < 2; partition++ {
		next := int64(0)
		for {
			req := fetchReq(12, "k", runtime.UUID{}, partition, next)
			req.MaxBytes = 1 << 20
			p := fetchOne(t, cl, 12, req)
			require.Equal(t, codeNone, p.ErrorCode)
			if next >= p.HighWatermark {
				break
			}
			for _, rec := range readRecords(t, p.Records) { // every CRC checked
				require.Equal(t, next, rec.Offset, "partition %d: offsets follow one another", partition)
				_, twice := inLog[string(rec.Value)]
				require.False(t, twice, "%s is in the log twice", rec.Value)
				inLog[string(rec.Value)] = ackedRecord{partition, rec.Offset}
				next++
			}
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for value, where := range ackedAt {
		got, ok := inLog[value]
		if assert.True(t, ok, "acknowledged record %s is in the log", value) {
			assert.Equal(t, where, got, "acknowledged record %s", value)
		}
	}
	return len(ackedAt), len(inLog)
}
