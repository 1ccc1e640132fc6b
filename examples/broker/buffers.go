package main

import (
	"context"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/runtime"
)

// keepBufferBytes is the largest buffer a connection keeps between
// requests. Its re-encode check, decompression and conversion buffers grow
// to the largest request it served; past this size they are dropped once
// the request is served, so that an idle connection does not keep a
// 100 MiB Produce's or a decompression bomb's buffer alive. (wire drops its
// own frame and response buffers past 1 MiB.)
const keepBufferBytes = 128 << 10

// connState is what the broker keeps per connection (in wire.Peer.State):
// the context of its waits, its re-encode check and its record tools.
type connState struct {
	ctx   context.Context // ends when the connection closes or at Server.Close
	check reencoder
	rec   *recordTools
	// large is set while the connection holds a buffer past
	// keepBufferBytes (from serving a request until release drops it);
	// heldLarge stays set once it ever did, so that its end returns memory.
	large, heldLarge bool
	// answer is what its answer being written took from the answer budget.
	answer answerHold
}

func newConnState(answers *answerBudget) *connState {
	return &connState{rec: newRecordTools(), answer: answerHold{budget: answers}}
}

// note marks the connection as holding large buffers when a request's
// frame, its answer (nil for none) or the record tools serving it grew past
// keepBufferBytes.
func (cs *connState) note(frame int, resp runtime.APIMessage, version int16) {
	if frame > keepBufferBytes || resp != nil && resp.Size(version) > keepBufferBytes || cs.rec.held > keepBufferBytes {
		cs.large, cs.heldLarge = true, true
	}
}

// release drops whatever grew past keepBufferBytes serving the last
// request, reporting whether anything large was let go (wire drops the
// frame and, once written, the answer).
func (cs *connState) release() bool {
	if !cs.large {
		cs.rec.forget()
		return false
	}
	cs.check.buf = nil
	cs.rec = newRecordTools()
	cs.large = false
	return true
}

// memoryReturner gives memory back to the operating system once a burst of
// large requests is over: Go returns freed heap to the system only slowly,
// so the RSS after a 100 MiB Produce would stay up for minutes. After a
// second with no large buffer dropped, it frees the memory at once
// (debug.FreeOSMemory, a collection), at most once a second.
type memoryReturner struct {
	lastDrop atomic.Int64 // unix nanoseconds of the last drop not yet returned, 0 for none
}

func (m *memoryReturner) dropped() { m.lastDrop.Store(time.Now().UnixNano()) }

// run returns memory until ctx ends.
func (m *memoryReturner) run(ctx context.Context) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick.C:
			last := m.lastDrop.Load()
			if last != 0 && now.UnixNano()-last >= int64(time.Second) && m.lastDrop.CompareAndSwap(last, 0) {
				debug.FreeOSMemory()
			}
		}
	}
}

// forget drops the tools' views of the last request's records and of the
// log's batches, which would keep them alive while the connection idles.
func (t *recordTools) forget() {
	t.reader.Reset(nil)
	*t.reader.Batch() = records.Batch{}
	t.stored.Reset(nil)
	*t.stored.Batch() = records.Batch{}
	t.rr = records.RecordReader{}
	t.rec = records.Record{}
	if t.converted {
		t.conv = records.Converter{Decompressor: t.conv.Decompressor, Compressor: t.conv.Compressor}
		t.converted = false
	}
}

// newRecordTools returns a connection's record tools, with codecs that
// report how far their output grew into recordTools.held.
func newRecordTools() *recordTools {
	t := &recordTools{}
	t.dec = newMeasuredDecompressor(&t.held)
	t.conv.Decompressor = newMeasuredDecompressor(&t.held)
	return t
}

// newMeasuredDecompressor returns a decompressor whose codecs report how
// far their output grew into held.
func newMeasuredDecompressor(held *int) records.Decompressor {
	var dec records.Decompressor
	codecs := []struct {
		compression records.Compression
		codec       records.Codec
	}{
		{records.CompressionGzip, &records.GzipCodec{}},
		{records.CompressionSnappy, &records.SnappyCodec{}},
		{records.CompressionLZ4, &records.LZ4Codec{}},
		{records.CompressionZstd, &records.ZstdCodec{}},
	}
	for _, c := range codecs {
		dec.SetCodec(c.compression, measuredCodec{Codec: c.codec, held: held})
	}
	return dec
}

// measuredCodec is a codec that records the largest output buffer it
// produced, a rejected bomb's included: the Decompressor keeps that buffer
// for its next call.
type measuredCodec struct {
	records.Codec
	held *int
}

func (m measuredCodec) AppendDecompressed(dst, src []byte, magic int8, limit int) ([]byte, error) {
	out, err := m.Codec.AppendDecompressed(dst, src, magic, limit)
	*m.held = max(*m.held, cap(out))
	return out, err
}
