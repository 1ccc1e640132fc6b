package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
)

// segmentsOf lists a partition folder's segment files.
func segmentsOf(t *testing.T, dir string) []segmentFile {
	t.Helper()
	segs, err := listSegments(dir)
	require.NoError(t, err)
	return segs
}

// fetchValues fetches a partition from offset 0 (read_uncommitted, v12)
// and returns its high watermark and its data records' values.
func fetchValues(t *testing.T, cl *wire.Client, topic string, partition int32) (int64, []string) {
	t.Helper()
	p := fetchOne(t, cl, 12, fetchReq(12, topic, runtime.UUID{}, partition, 0))
	require.Equal(t, codeNone, p.ErrorCode)
	return p.HighWatermark, values(t, p.Records)
}

// TestDataDirRestart: what a broker with -data-dir stored is there after a
// restart that did not close it (its files still open, as after kill -9):
// topic names, ids and partitions, every batch at its offset, a deleted
// topic gone with its folders, idempotent duplicates still recognised, a
// transaction left open aborted, producer ids not reused.
func TestDataDirRestart(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{AutoCreate: true, DataDir: dir, SegmentBytes: 400}
	first := startBroker(t, cfg)
	cl := first.client(t, "before")
	id := createTopic(t, cl, "kept", 2)
	createTopic(t, cl, "dropped", 1)
	var want []string
	for i, codec := range []records.Compression{records.CompressionNone, records.CompressionGzip, records.CompressionSnappy, records.CompressionLZ4, records.CompressionZstd, records.CompressionNone} {
		v := []string{string(rune('a'+i)) + "-1", string(rune('a'+i)) + "-2"}
		res := produce(t, cl, 9, "kept", 1, v2Batch(t, codec, testRecord{value: []byte(v[0]), timestamp: 1}, testRecord{value: []byte(v[1]), timestamp: 2}))
		require.Equal(t, codeNone, res.ErrorCode)
		want = append(want, v...)
	}
	del := kafkamsg.NewDeleteTopicsRequest()
	del.TopicNames = []string{"dropped"}
	require.Equal(t, codeNone, do(t, cl, del, 5, kafkamsg.NewDeleteTopicsResponse()).Responses[0].ErrorCode)

	idem := initIdempotent(t, cl)
	retried := idem.batch(0, "i-0", "i-1")
	require.Equal(t, int64(0), produce(t, cl, 9, "idem", 0, retried).BaseOffset)

	createTopic(t, cl, "txn", 1)
	txn := initTxn(t, cl, "open-at-crash")
	require.Equal(t, codeNone, txn.addPartition("txn", 0))
	require.Equal(t, codeNone, txn.produce("txn", "never-committed").ErrorCode)
	require.Greater(t, len(segmentsOf(t, filepath.Join(dir, "kept-1"))), 1, "the log rolled to new segments")

	second := startBroker(t, cfg) // first is never closed
	cl2 := second.client(t, "after")
	meta := kafkamsg.NewMetadataRequest()
	meta.Topics = nil
	topics := map[string]kafkamsg.MetadataResponseTopic{}
	for _, mt := range do(t, cl2, meta, 12, kafkamsg.NewMetadataResponse()).Topics {
		topics[mt.Name.Value] = mt
	}
	require.Contains(t, topics, "kept")
	assert.Equal(t, id, topics["kept"].TopicID)
	assert.Len(t, topics["kept"].Partitions, 2)
	assert.NotContains(t, topics, "dropped")
	_, err := os.Stat(filepath.Join(dir, "dropped-0"))
	assert.ErrorIs(t, err, os.ErrNotExist)

	hw, got := fetchValues(t, cl2, "kept", 1)
	assert.Equal(t, int64(len(want)), hw)
	assert.Equal(t, want, got)

	assert.Equal(t, int64(0), produce(t, cl2, 9, "idem", 0, retried).BaseOffset, "a retry after the restart is a duplicate")
	hw, _ = fetchValues(t, cl2, "idem", 0)
	assert.Equal(t, int64(2), hw)

	p := fetchCommitted(t, cl2, "txn")
	assert.Equal(t, p.HighWatermark, p.LastStableOffset, "the open transaction was aborted")
	assert.Equal(t, int64(2), p.HighWatermark, "its batch and the abort marker")
	require.Len(t, p.AbortedTransactions, 1)
	assert.Equal(t, txn.pid, p.AbortedTransactions[0].ProducerID, "a read_committed consumer drops its records")

	again := initIdempotent(t, cl2)
	assert.Greater(t, again.pid, txn.pid, "producer ids continue above those in the log")
}

// idempotentProducer writes batches of one producer id.
type idempotentProducer struct {
	t     *testing.T
	pid   int64
	epoch int16
}

func initIdempotent(t *testing.T, cl *wire.Client) *idempotentProducer {
	t.Helper()
	req := kafkamsg.NewInitProducerIDRequest()
	req.TransactionalID = runtime.Null
	resp := do(t, cl, req, 4, kafkamsg.NewInitProducerIDResponse())
	require.Equal(t, codeNone, resp.ErrorCode)
	return &idempotentProducer{t: t, pid: resp.ProducerID, epoch: resp.ProducerEpoch}
}

func (p *idempotentProducer) batch(seq int32, values ...string) []byte {
	b := records.NewBatchBuilder()
	b.ProducerID, b.ProducerEpoch, b.BaseSequence = p.pid, p.epoch, seq
	for _, v := range values {
		b.Append(1, nil, []byte(v))
	}
	out, err := b.AppendTo(nil)
	require.NoError(p.t, err)
	return out
}

// TestRecoveryCutsAtTheFirstBadBatch damages a partition's segments as a
// crash or a bad disk would and checks the recovered log ends right before
// the first damage, later segments removed, and takes appends again.
func TestRecoveryCutsAtTheFirstBadBatch(t *testing.T) {
	one := v2Batch(t, records.CompressionNone, testRecord{value: []byte("0123456789"), timestamp: 1})
	perSegment := 3
	segmentBytes := int64(perSegment * len(one))
	const batches = 8 // segments of 3, 3 and 2 batches

	tests := []struct {
		name   string
		damage func(t *testing.T, segs []segmentFile)
		want   int64 // the log end offset after recovery
	}{
		{"nothing", func(*testing.T, []segmentFile) {}, batches},
		{"half a batch at the end", func(t *testing.T, segs []segmentFile) {
			appendTo(t, segs[2].path, one[:len(one)/2])
		}, batches},
		{"garbage at the end", func(t *testing.T, segs []segmentFile) {
			appendTo(t, segs[2].path, []byte{0xde, 0xad, 0xbe, 0xef, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff})
		}, batches},
		{"a flipped byte in the last batch", func(t *testing.T, segs []segmentFile) {
			patchFile(t, segs[2].path, len(one)+len(one)-1, func(b []byte) { b[0] ^= 0x40 })
		}, batches - 1},
		{"a flipped byte in the first segment", func(t *testing.T, segs []segmentFile) {
			patchFile(t, segs[0].path, len(one)+30, func(b []byte) { b[0] ^= 0x01 })
		}, 1},
		{"a batch at the wrong offset", func(t *testing.T, segs []segmentFile) {
			patchFile(t, segs[1].path, len(one), func(b []byte) { binary.BigEndian.PutUint64(b, 99) })
		}, int64(perSegment + 1)},
		{"a missing middle segment", func(t *testing.T, segs []segmentFile) {
			require.NoError(t, os.Remove(segs[1].path))
		}, int64(perSegment)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := Config{AutoCreate: true, DataDir: dir, SegmentBytes: segmentBytes, Logger: discardLogger()}
			first := startBroker(t, cfg)
			cl := first.client(t, "writer")
			for i := 0; i < batches; i++ {
				require.Equal(t, codeNone, produce(t, cl, 9, "r", 0, one).ErrorCode)
			}
			require.NoError(t, first.srv.Broker.Close())
			pdir := filepath.Join(dir, "r-0")
			segs := segmentsOf(t, pdir)
			require.Len(t, segs, 3)
			tt.damage(t, segs)

			second := startBroker(t, cfg)
			cl2 := second.client(t, "reader")
			hw, got := fetchValues(t, cl2, "r", 0)
			assert.Equal(t, tt.want, hw)
			assert.Len(t, got, int(tt.want), "every record left reads, its CRC valid")
			var onDisk int64
			for _, s := range segmentsOf(t, pdir) {
				info, err := os.Stat(s.path)
				require.NoError(t, err)
				onDisk += info.Size()
			}
			assert.Equal(t, tt.want*int64(len(one)), onDisk, "the damage and everything after it are cut")

			res := produce(t, cl2, 9, "r", 0, one)
			require.Equal(t, codeNone, res.ErrorCode)
			assert.Equal(t, tt.want, res.BaseOffset, "appends continue at the recovered end")
		})
	}
}

func appendTo(t *testing.T, path string, data []byte) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	require.NoError(t, err)
	_, err = f.Write(data)
	require.NoError(t, err)
	require.NoError(t, f.Close())
}

func patchFile(t *testing.T, path string, at int, patch func([]byte)) {
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	patch(data[at:])
	require.NoError(t, os.WriteFile(path, data, 0o644))
}

func TestDataDirRefusesAForeignFolder(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644))
	_, err := NewBroker(Config{DataDir: dir, Logger: discardLogger()}, "127.0.0.1", 1)
	require.ErrorContains(t, err, "not a broker's data folder")
	data, err := os.ReadFile(filepath.Join(dir, "notes.txt"))
	require.NoError(t, err)
	assert.Equal(t, "mine", string(data), "left alone")
}

// TestDataDirConcurrentAcksAll: acks=-1 Produces from several connections
// share fsyncs while the log rolls segments under them (run with -race),
// and a restart finds every acknowledged batch.
func TestDataDirConcurrentAcksAll(t *testing.T) {
	const producers, perProducer = 8, 40
	dir := t.TempDir()
	cfg := Config{AutoCreate: true, DataDir: dir, SegmentBytes: 2048, Logger: discardLogger()}
	first := startBroker(t, cfg)
	createTopic(t, first.client(t, "admin"), "c", 1)
	var wg sync.WaitGroup
	for i := 0; i < producers; i++ {
		cl := first.client(t, fmt.Sprintf("p%d", i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < perProducer; j++ {
				blob := v2Batch(t, records.CompressionNone, testRecord{value: []byte(fmt.Sprintf("%d-%d", i, j)), timestamp: 1})
				assert.Equal(t, codeNone, produce(t, cl, 9, "c", 0, blob).ErrorCode)
			}
		}()
	}
	wg.Wait()
	assert.Greater(t, len(segmentsOf(t, filepath.Join(dir, "c-0"))), 5)
	second := startBroker(t, cfg)
	hw, got := fetchValues(t, second.client(t, "reader"), "c", 0)
	assert.Equal(t, int64(producers*perProducer), hw)
	assert.Len(t, got, producers*perProducer)
}

// TestDataDirLeftovers: on start, what a crash left of deleted topics is
// removed, and nothing else.
func TestDataDirLeftovers(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{DataDir: dir, Logger: discardLogger()}
	b, err := NewBroker(cfg, "127.0.0.1", 1)
	require.NoError(t, err)
	require.NoError(t, b.Close()) // an empty data folder: topics.json written
	tests := []struct {
		name    string
		files   []string // under the folder's name
		removed bool
	}{
		{"gone-0.0123abcd-delete", []string{"00000000000000000000.log"}, true},
		{"gone-1", []string{"00000000000000000000.log", "00000000000000000042.log"}, true},
		{"gone-2", nil, true},
		{"photos-2024", []string{"beach.jpg"}, false},
		{"notes", []string{"00000000000000000000.log"}, false},
	}
	for _, tt := range tests {
		require.NoError(t, os.Mkdir(filepath.Join(dir, tt.name), 0o755))
		for _, f := range tt.files {
			require.NoError(t, os.WriteFile(filepath.Join(dir, tt.name, f), nil, 0o644))
		}
	}
	b, err = NewBroker(cfg, "127.0.0.1", 1)
	require.NoError(t, err)
	require.NoError(t, b.Close())
	for _, tt := range tests {
		_, err := os.Stat(filepath.Join(dir, tt.name))
		assert.Equal(t, tt.removed, errors.Is(err, os.ErrNotExist), tt.name)
	}
}
