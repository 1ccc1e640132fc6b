//go:build reliability

package main

import (
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/runtime"
)

// The rows of large Fetch answers, over a 64 MiB log: readers that never
// read, and readers that read everything and then idle.

const (
	bigLog = 64 << 20
	// The log is bigLogBatches batches of one record of bigLogValue bytes,
	// each batch within the default -max-message-bytes.
	bigLogBatches, bigLogValue = 64, 1<<20 - 256
	// bigLogFlag lets one Fetch answer carry the whole log (the default
	// -fetch-max-bytes is 4 MiB), as the rows have it.
	bigLogFlag = "67108864"
)

func fetchRows() []row {
	rows := []row{}
	for _, n := range []int{5, 10, 20} {
		rows = append(rows, row{
			name:   fmt.Sprintf("%d connections each Fetch a 64 MiB log and never read", n),
			args:   []string{"-fetch-max-bytes", bigLogFlag},
			setup:  fillBigLog,
			attack: func(t *testing.T, b *rowBroker) attackResult { return unreadFetches(t, b, n) },
		})
	}
	return append(rows, row{
		name:   "20 readers fetch 64 MiB each, read it all, then sit idle",
		args:   []string{"-fetch-max-bytes", bigLogFlag},
		setup:  fillBigLog,
		attack: readersThenIdle,
	})
}

// fillBigLog writes 64 batches of one record of nearly 1 MiB (within the
// default -max-message-bytes) to the topic "big", then waits for the
// baseline to settle.
func fillBigLog(t *testing.T, b *rowBroker) {
	cl := dialClient(t, b.addr, "filler")
	createTopic(t, cl, "big", 1)
	value := make([]byte, bigLogValue)
	for i := 0; i < bigLogBatches; i++ {
		value[0] = byte(i)
		blob := v2Batch(t, records.CompressionNone, testRecord{value: value, timestamp: time.Now().UnixMilli()})
		require.Equal(t, codeNone, produce(t, cl, 9, "big", 0, blob).ErrorCode)
	}
	time.Sleep(2500 * time.Millisecond) // the broker gives the requests' memory back
}

// bigFetchFrame asks for the whole of "big" in one answer.
func bigFetchFrame(t *testing.T) []byte {
	req := fetchReq(12, "big", runtime.UUID{}, 0, 0)
	req.MaxBytes, req.Topics[0].Partitions[0].PartitionMaxBytes = bigLog, bigLog
	frame, err := frameOf("big-reader", 1, req, 12)
	require.NoError(t, err)
	return frame
}

// unreadFetches: n connections each ask for the 64 MiB log and never read
// the answer. The broker encodes answers up to its queued response bytes
// and blocks writing the first; the others wait.
func unreadFetches(t *testing.T, b *rowBroker, n int) attackResult {
	frame := bigFetchFrame(t)
	open := openConns(t, b.addr, n)
	for _, c := range open {
		require.NoError(t, c.SetWriteDeadline(time.Now().Add(10*time.Second)))
		_, err := c.Write(frame)
		require.NoError(t, err)
	}
	time.Sleep(2 * time.Second) // the broker gathers, encodes and blocks
	return attackResult{
		release: func() { closeAll(open) },
		closed:  "0 during the 2 s hold (a write blocked past 30 s would close it)",
		note:    ", the baseline holds the 64 MiB log",
	}
}

// readersThenIdle: 20 connections each fetch the whole 64 MiB log and read
// all of it, then idle.
func readersThenIdle(t *testing.T, b *rowBroker) attackResult {
	const conns = 20
	frame := bigFetchFrame(t)
	open := openConns(t, b.addr, conns)
	var mu sync.Mutex
	var total int64
	require.NoError(t, inParallel(conns, func(i int) error {
		n, err := readWholeAnswer(open[i], frame)
		mu.Lock()
		total += n
		mu.Unlock()
		if err == nil && n < bigLogBatches*bigLogValue {
			err = fmt.Errorf("an answer of %d bytes, short of the log", n)
		}
		return err
	}))
	return attackResult{
		release: func() { closeAll(open) },
		closed:  "0 (all read; Kafka keeps idle connections until connections.max.idle.ms)",
		note:    fmt.Sprintf(", %s read, the baseline holds the 64 MiB log%s", mib(total), idleNote(t, b, conns)),
	}
}

// readWholeAnswer sends frame and reads the answer to its end without
// keeping it, returning its size.
func readWholeAnswer(conn net.Conn, frame []byte) (int64, error) {
	if err := conn.SetDeadline(time.Now().Add(time.Minute)); err != nil {
		return 0, err
	}
	if _, err := conn.Write(frame); err != nil {
		return 0, err
	}
	var size [4]byte
	if _, err := io.ReadFull(conn, size[:]); err != nil {
		return 0, err
	}
	return io.CopyN(io.Discard, conn, int64(binary.BigEndian.Uint32(size[:])))
}
