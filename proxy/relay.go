package proxy

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/kafkagen/kafkagen/wire"
)

// relayBufferSize is the read buffer of each direction of a connection: one
// read takes in many small frames, which go out in one write.
const relayBufferSize = 64 << 10

// spliceMin is the shortest rest of a frame that is spliced (moved from
// socket to socket by the kernel) instead of read through the buffer; a
// splice costs two system calls, so short rests are cheaper read.
const spliceMin = 64 << 10

// spliceChunk bounds one splice, so that a slow peer gets a fresh deadline
// for every chunk instead of one for a whole long frame.
const spliceChunk = 1 << 20

// keepBuffer is the largest whole-frame buffer kept between frames; a larger
// one, needed for one long frame, is released after it.
const keepBuffer = 1 << 20

// relay moves the frames of one direction of a connection from src to dst.
// Frames that no one needs decoded are relayed as read: bytes gathered in
// the buffer go out in one write before the next read that could block, and
// the long rest of a frame is spliced. The pump (requests or responses)
// looks at each frame's size and first bytes and chooses pass or whole.
type relay struct {
	src, dst       net.Conn
	srcTCP, dstTCP *net.TCPConn // both set when the rest of a frame can be spliced
	side           string       // "client" or "broker": whose bytes src carries, for errors
	timeouts       *Timeouts

	// buf[start:pos] are relayed bytes not yet written, buf[pos:end] bytes
	// read but not yet looked at.
	buf             []byte
	start, pos, end int
	whole           []byte // a frame longer than buf, read whole
	lr              io.LimitedReader

	// unlock and lock are called around reads that may block, so that the
	// response pump does not hold the client's output while it waits.
	unlock, lock func()
}

func newRelay(src, dst net.Conn, side string, t *Timeouts) *relay {
	r := &relay{src: src, dst: dst, side: side, timeouts: t, buf: make([]byte, relayBufferSize), unlock: nop, lock: nop}
	s, ok1 := src.(*net.TCPConn)
	d, ok2 := dst.(*net.TCPConn)
	if ok1 && ok2 {
		r.srcTCP, r.dstTCP = s, d
	}
	return r
}

func nop() {}

// flush writes the relayed bytes not yet written.
func (r *relay) flush() error {
	if r.pos == r.start {
		return nil
	}
	err := r.write(r.buf[r.start:r.pos])
	r.start = r.pos
	return err
}

// write writes b to dst within the write timeout.
func (r *relay) write(b []byte) error {
	if err := r.dst.SetWriteDeadline(time.Now().Add(r.timeouts.Write)); err != nil {
		return err
	}
	if _, err := r.dst.Write(b); err != nil {
		return fmt.Errorf("writing %d bytes to the %s: %w", len(b), r.peer(), err)
	}
	return nil
}

// peer names the other side of the relay.
func (r *relay) peer() string {
	if r.side == "client" {
		return "broker"
	}
	return "client"
}

// output writes b, a frame the pump made, after the relayed bytes before it.
func (r *relay) output(b []byte) error {
	if err := r.flush(); err != nil {
		return err
	}
	return r.write(b)
}

// read reads once into buf[end:], releasing the pump's lock while it waits:
// within the idle timeout between frames (boundary, and nothing of the next
// frame read yet), the read timeout inside one.
func (r *relay) read(boundary bool) error {
	idle := boundary && r.pos == r.end
	d := r.timeouts.Read
	if idle {
		d = r.timeouts.Idle
	}
	if err := r.src.SetReadDeadline(time.Now().Add(d)); err != nil {
		return err
	}
	r.unlock()
	n, err := r.src.Read(r.buf[r.end:])
	r.lock()
	r.end += n
	if n > 0 {
		return nil
	}
	if err == io.EOF && !idle {
		return fmt.Errorf("the %s closed the connection inside a frame: %w", r.side, io.ErrUnexpectedEOF)
	}
	return err
}

// fill makes at least n bytes (n <= len(buf)) available after pos, writing
// what is relayed before it reads; boundary says pos is between frames.
func (r *relay) fill(n int, boundary bool) error {
	if r.end-r.pos >= n {
		return nil
	}
	if err := r.flush(); err != nil {
		return err
	}
	if r.pos > 0 {
		r.end = copy(r.buf, r.buf[r.pos:r.end])
		r.start, r.pos = 0, 0
	}
	for r.end < n {
		if err := r.read(boundary); err != nil {
			return err
		}
	}
	return nil
}

// next reads the size of the next frame and up to peek bytes of it (all of
// it when shorter), and returns the size. A size that is negative or above
// max is a *wire.FrameSizeError; io.EOF means the peer closed between frames.
func (r *relay) next(peek, max int) (int, error) {
	if err := r.fill(4, true); err != nil {
		return 0, err
	}
	size := int32(binary.BigEndian.Uint32(r.buf[r.pos:]))
	if size < 0 || int64(size) > int64(max) {
		return 0, &wire.FrameSizeError{Size: size, Max: max}
	}
	return int(size), r.fill(4+min(peek, int(size)), false)
}

// prefix is what has been read of the current frame (after its size), up to
// its end.
func (r *relay) prefix(size int) []byte {
	return r.buf[r.pos+4 : r.pos+4+min(size, r.end-r.pos-4)]
}

// pass relays the current frame, of size bytes after its size, unread.
func (r *relay) pass(size int) error {
	total := 4 + size
	if r.end-r.pos >= total {
		r.pos += total
		return nil
	}
	rest := total - (r.end - r.pos)
	r.pos = r.end
	for rest > 0 {
		if err := r.flush(); err != nil {
			return err
		}
		r.start, r.pos, r.end = 0, 0, 0
		if rest >= spliceMin && r.srcTCP != nil {
			return r.splice(rest)
		}
		if err := r.read(false); err != nil {
			return err
		}
		r.pos = min(r.end, rest)
		rest -= r.pos
	}
	return nil
}

// splice moves n bytes from src to dst in the kernel, a chunk at a time.
func (r *relay) splice(n int) error {
	for n > 0 {
		chunk := min(n, spliceChunk)
		now := time.Now()
		if err := r.src.SetReadDeadline(now.Add(r.timeouts.Read)); err != nil {
			return err
		}
		if err := r.dst.SetWriteDeadline(now.Add(r.timeouts.Write)); err != nil {
			return err
		}
		r.lr.R, r.lr.N = r.srcTCP, int64(chunk)
		moved, err := r.dstTCP.ReadFrom(&r.lr)
		n -= int(moved)
		if err == nil && int(moved) < chunk {
			err = io.ErrUnexpectedEOF // the source ended
		}
		if err != nil {
			return fmt.Errorf("relaying a frame from the %s to the %s (%d bytes left): %w", r.side, r.peer(), n, err)
		}
	}
	return nil
}

// frame reads the current frame whole and returns it, its size prefix
// included, valid until the next call. What was relayed before it is
// written first.
func (r *relay) frame(size int) ([]byte, error) {
	if err := r.flush(); err != nil {
		return nil, err
	}
	total := 4 + size
	if total <= len(r.buf) {
		if err := r.fill(total, false); err != nil {
			return nil, err
		}
		f := r.buf[r.pos : r.pos+total]
		r.pos += total
		r.start = r.pos
		return f, nil
	}
	if cap(r.whole) < total {
		r.whole = make([]byte, total)
	}
	f := r.whole[:total]
	n := copy(f, r.buf[r.pos:r.end])
	r.start, r.pos, r.end = 0, 0, 0
	for n < total {
		if err := r.src.SetReadDeadline(time.Now().Add(r.timeouts.Read)); err != nil {
			return nil, err
		}
		r.unlock()
		k, err := r.src.Read(f[n:])
		r.lock()
		n += k
		if err != nil && n < total {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return nil, fmt.Errorf("reading a %d-byte frame from the %s (%d read): %w", size, r.side, n-4, err)
		}
	}
	return f, nil
}

// release drops a whole-frame buffer too large to keep.
func (r *relay) release() {
	if cap(r.whole) > keepBuffer {
		r.whole = nil
	}
}
