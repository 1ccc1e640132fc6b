package main

import (
	"context"
	"net"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
)

// keepBufferBytes is the largest buffer a connection keeps between
// requests. Its frame, decoded request, re-encode check, response and
// decompression buffers grow to the largest request it served; past this
// size they are dropped once the request is answered, so that an idle
// connection does not keep a 100 MiB Produce or a decompression bomb's
// buffer alive.
const keepBufferBytes = 128 << 10

// connBuffers are the reusable state of one connection: its reader and
// writer of frames, its re-encode check and its record tools.
type connBuffers struct {
	conn  net.Conn
	sc    *wire.ServerConn
	check reencoder
	rec   *recordTools
	// large is set while the connection holds a buffer past
	// keepBufferBytes (from reading a request until release drops it).
	large bool
}

func newConnBuffers(conn net.Conn) *connBuffers {
	cb := &connBuffers{conn: conn, rec: newRecordTools()}
	cb.sc = cb.newServerConn()
	return cb
}

func (cb *connBuffers) newServerConn() *wire.ServerConn {
	return wire.NewServerConn(cb.conn, wire.ServerConfig{NewRequest: newServedRequest, Supported: supportedRanges})
}

// note marks the connection as holding large buffers when a request's
// frame, its answer (nil for none) or the record tools serving it grew past
// keepBufferBytes. It is called before the answer is written, so that a
// connection that ends in the middle of writing it is counted too.
func (cb *connBuffers) note(frame int, resp runtime.APIMessage, version int16) {
	if frame > keepBufferBytes || resp != nil && resp.Size(version) > keepBufferBytes || cb.rec.held > keepBufferBytes {
		cb.large = true
	}
}

// release drops whatever grew past keepBufferBytes serving the last
// request, reporting whether it dropped anything. A new ServerConn loses
// nothing: its frame reader reads exactly one frame at a time.
func (cb *connBuffers) release() bool {
	if !cb.large {
		cb.rec.forget()
		return false
	}
	cb.sc = cb.newServerConn()
	cb.check.buf = nil
	cb.rec = newRecordTools()
	cb.large = false
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
}

// newRecordTools returns a connection's record tools, with codecs that
// report how far their output grew into recordTools.held.
func newRecordTools() *recordTools {
	t := &recordTools{}
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
		t.dec.SetCodec(c.compression, measuredCodec{Codec: c.codec, held: &t.held})
	}
	return t
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
