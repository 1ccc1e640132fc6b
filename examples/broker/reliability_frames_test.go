//go:build reliability

package main

import (
	"encoding/binary"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/wire/frames"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// The rows of large or many requests: frames that stall, Produce frames of
// 100 MiB, gzip bombs, client ids of 32,000 bytes.

// bombSize is what each gzip bomb decompresses to.
const bombSize = 1 << 30

func frameRows(t *testing.T) []row {
	// Made once: compressing 1 GiB of zeros takes a second. At gzip's
	// fastest level the bomb is 1.3 MB, over the default
	// -max-message-bytes, which would refuse it unread: its row raises it.
	bomb := gzipBomb(t, bombSize, time.Now().UnixMilli())
	bombFrame, err := frameOf("bomb", 1, produceReq("bombs", 0, 1, bomb), 9)
	require.NoError(t, err)
	return []row{
		{name: "20 connections each send 100 MiB - 1 of a 100 MiB frame and stall", attack: stalledFrames},
		{name: "five valid 100 MiB Produce frames", attack: hugeProduces},
		{
			name:   "30 connections each send a 1 GiB gzip bomb and stay open",
			args:   []string{"-max-message-bytes", "2097152"},
			setup:  func(t *testing.T, b *rowBroker) { createTopic(t, dialClient(t, b.addr, "setup"), "bombs", 1) },
			attack: func(t *testing.T, b *rowBroker) attackResult { return gzipBombs(t, b, bombFrame, len(bomb)) },
		},
		{name: "20,000 ApiVersions each with a new 32,000-byte client id", attack: manyClientIDs},
	}
}

// stalledFrames: 20 connections each announce a 100 MiB Produce and send
// all of it but the last byte. The broker reads as many at once as its
// queued bytes allow (two copies of one such request by default), each
// into a buffer that grows with what arrived; the others wait unread.
func stalledFrames(t *testing.T, b *rowBroker) attackResult {
	const conns, size = 20, frames.DefaultMaxFrameSize
	head, err := frameOf("stall", 1, kafkamsg.NewProduceRequest(), 9)
	require.NoError(t, err)
	binary.BigEndian.PutUint32(head, size) // the announced size; the header is real
	open := openConns(t, b.addr, conns)
	var sent atomic.Int64
	var wg sync.WaitGroup
	for _, c := range open {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.SetWriteDeadline(time.Now().Add(time.Minute))
			if _, err := c.Write(head); err != nil {
				return
			}
			chunk := make([]byte, 1<<20)
			for left := size - 1 - (len(head) - 4); left > 0; left -= len(chunk) {
				n, err := c.Write(chunk[:min(left, len(chunk))])
				sent.Add(int64(n))
				if err != nil {
					return
				}
			}
		}()
	}
	// The attack holds once the bytes sent stop growing (at most 30 s).
	last := int64(-1)
	for i := 0; i < 30 && sent.Load() != last; i++ {
		last = sent.Load()
		time.Sleep(time.Second)
	}
	return attackResult{
		release: func() { closeAll(open); wg.Wait() },
		closed:  "0 during the hold (-request-read-timeout-ms 30000 would close each once its turn to be read came)",
		note:    fmt.Sprintf(", %s sent by the %d connections before they stalled", mib(sent.Load()), conns),
	}
}

// hugeProduces: five connections each send a valid Produce of one 100 MiB
// batch. Each is answered MESSAGE_TOO_LARGE (the default -max-message-bytes
// is Kafka's 1 MiB); the connections then idle, holding no large buffer.
// Produce bodies are decoded aliased, so each frame is held once.
func hugeProduces(t *testing.T, b *rowBroker) attackResult {
	const conns = 5
	value := make([]byte, frames.DefaultMaxFrameSize-4096)
	batch := v2Batch(t, records.CompressionNone, testRecord{value: value, timestamp: time.Now().UnixMilli()})
	frame, err := frameOf("huge", 1, produceReq(normalTopic, 0, 1, batch), 9)
	require.NoError(t, err)
	require.LessOrEqual(t, len(frame)-4, frames.DefaultMaxFrameSize)
	open := openConns(t, b.addr, conns)
	for _, answer := range exchangeOnEach(t, open, frame) {
		assert.Equal(t, kerrors.MessageTooLarge.Code, produceAnswerCode(t, answer))
	}
	return attackResult{
		release: func() { closeAll(open) },
		closed:  "0 (answered MESSAGE_TOO_LARGE; Kafka keeps the connection too)",
		note:    idleNote(t, b, conns),
	}
}

// gzipBombs: 30 connections each send a batch that gzip-decompresses to
// 1 GiB; each is answered CORRUPT_MESSAGE and the connections stay open.
func gzipBombs(t *testing.T, b *rowBroker, frame []byte, bombLen int) attackResult {
	const conns = 30
	open := openConns(t, b.addr, conns)
	for _, answer := range exchangeOnEach(t, open, frame) {
		assert.Equal(t, kerrors.CorruptMessage.Code, produceAnswerCode(t, answer))
	}
	return attackResult{
		release: func() { closeAll(open) },
		closed:  "0 (answered CORRUPT_MESSAGE; Kafka keeps the connection too)",
		note:    fmt.Sprintf(", bombs of %.1f MB (-max-message-bytes 2097152)%s", float64(bombLen)/1e6, idleNote(t, b, conns)),
	}
}

// manyClientIDs: 20,000 ApiVersions requests over four connections, each
// with a client id of 32,000 bytes never seen before.
func manyClientIDs(t *testing.T, b *rowBroker) attackResult {
	const conns, requests, idSize = 4, 20000, 32000
	ids, _ := distinctClientIDs(requests, idSize)
	open := openConns(t, b.addr, conns)
	require.NoError(t, inParallel(conns, func(c int) error {
		for i := c; i < requests; i += conns {
			frame, err := frameOf(ids[i], int32(i), kafkamsg.NewAPIVersionsRequest(), 3)
			if err != nil {
				return err
			}
			answer, err := exchange(open[c], frame)
			if err != nil {
				return fmt.Errorf("request %d: %w", i, err)
			}
			if got := int32(binary.BigEndian.Uint32(answer)); got != int32(i) {
				return fmt.Errorf("request %d: answer for correlation id %d", i, got)
			}
		}
		return nil
	}))
	closeAll(open)
	return attackResult{closed: "0 (all answered)", note: fmt.Sprintf(", %d requests answered", requests)}
}
