package proxy

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/kafkagen/kafkagen/wire/frames"
)

// relayBufferSize is the read buffer of each direction of a connection: one
// read takes in many small frames, which go out in one write.
const relayBufferSize = 64 << 10

// spliceMin is the shortest rest of a frame that is spliced (moved from
// socket to socket by the kernel) instead of read through the buffer: a
// splice costs two system calls, as a read and a write do, but copies
// nothing; a frame shorter than this often shares a read with others.
const spliceMin = 32 << 10

// headRead is how much is looked at, at a frame boundary after a spliced
// frame (peeked, not taken: see peeker): enough for any header.
const headRead = 512

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

	// The deadlines in force, moved only when less than half their timeout
	// is left: a deadline set on every read and write costs a timer update
	// each, some of them waking the poller.
	readDeadline, writeDeadline time.Time
	readIdle                    bool // readDeadline is the idle one

	// spliced says the last frame was spliced: the next is likely long
	// too, so its head is only peeked at, and then spliced with the rest.
	// peeked says buf[pos:end] are such bytes, still waiting in the socket.
	spliced, peeked bool
	peeker          *peeker

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
		r.peeker = newPeeker(src)
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

// readKind says where in the stream a read is, which decides its deadline
// and what the end of the stream means there.
type readKind int8

const (
	// atBoundary: between frames, within the idle timeout; the peer may
	// close the connection here.
	atBoundary readKind = iota
	// inFrame: inside a frame relayed as bytes, within the idle timeout:
	// the proxy holds no more of it than its fixed buffer.
	inFrame
	// holding: inside a frame read whole for the filters, within the read
	// timeout, so that a slow peer cannot hold a frame buffer for long.
	holding
)

// extendRead makes the read deadline the idle or the read timeout from now,
// within half of it.
func (r *relay) extendRead(idle bool) error {
	d := r.timeouts.Read
	if idle {
		d = r.timeouts.Idle
	}
	now := time.Now()
	if idle == r.readIdle && r.readDeadline.Sub(now) > d/2 {
		return nil
	}
	r.readIdle, r.readDeadline = idle, now.Add(d)
	return r.src.SetReadDeadline(r.readDeadline)
}

// extendWrite makes the write deadline the write timeout from now, within
// half of it.
func (r *relay) extendWrite() error {
	now := time.Now()
	if r.writeDeadline.Sub(now) > r.timeouts.Write/2 {
		return nil
	}
	r.writeDeadline = now.Add(r.timeouts.Write)
	return r.dst.SetWriteDeadline(r.writeDeadline)
}

// write writes b to dst within the write timeout.
func (r *relay) write(b []byte) error {
	if err := r.extendWrite(); err != nil {
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

// read reads once into buf[end:], releasing the pump's lock while it waits,
// within the deadline of kind.
func (r *relay) read(kind readKind) error {
	// More is needed than was peeked: take it all.
	r.unpeek()
	// Between frames, with nothing of the next one yet, the peer may end.
	idle := kind == atBoundary && r.pos == r.end
	if err := r.extendRead(kind != holding); err != nil {
		return err
	}
	room := r.buf[r.end:]
	peek := idle && r.spliced && r.peeker != nil
	if peek {
		room = room[:min(len(room), headRead)]
	}
	r.unlock()
	var n int
	var err error
	if peek {
		n, err = r.peeker.peek(room)
		r.peeked = n > 0
	} else {
		n, err = r.src.Read(room)
	}
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
// what is relayed before it reads.
func (r *relay) fill(n int, kind readKind) error {
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
		if err := r.read(kind); err != nil {
			return err
		}
	}
	return nil
}

// next reads the size of the next frame and up to peek bytes of it (all of
// it when shorter), and returns the size. A size that is negative or above
// max is a *frames.FrameSizeError; io.EOF means the peer closed between frames.
func (r *relay) next(peek, max int) (int, error) {
	if err := r.fill(4, atBoundary); err != nil {
		return 0, err
	}
	size := int32(binary.BigEndian.Uint32(r.buf[r.pos:]))
	if size < 0 || int64(size) > int64(max) {
		return 0, &frames.FrameSizeError{Size: size, Max: max}
	}
	return int(size), r.fill(4+min(peek, int(size)), inFrame)
}

// prefix is what has been read of the current frame (after its size), up to
// its end.
func (r *relay) prefix(size int) []byte {
	return r.buf[r.pos+4 : r.pos+4+min(size, r.end-r.pos-4)]
}

// unpeek forgets the bytes peeked at: they will be read.
func (r *relay) unpeek() {
	if r.peeked {
		r.end, r.peeked = r.pos, false
	}
}

// pass relays the current frame, of size bytes after its size, unread.
func (r *relay) pass(size int) error {
	total := 4 + size
	if r.peeked && total >= spliceMin {
		// The whole frame is still in the socket.
		r.unpeek()
		if err := r.flush(); err != nil {
			return err
		}
		return r.splice(total)
	}
	r.unpeek()
	r.spliced = false
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
			r.spliced = true
			return r.splice(rest)
		}
		if err := r.read(inFrame); err != nil {
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
		if err := r.extendRead(true); err != nil {
			return err
		}
		if err := r.extendWrite(); err != nil {
			return err
		}
		r.lr.R, r.lr.N = r.srcTCP, int64(chunk)
		moved, err := r.dstTCP.ReadFrom(&r.lr)
		n -= int(moved)
		if err == nil && int(moved) < chunk {
			err = fmt.Errorf("the %s closed the connection inside a frame: %w", r.side, io.ErrUnexpectedEOF)
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
	r.unpeek()
	if err := r.flush(); err != nil {
		return nil, err
	}
	total := 4 + size
	if total <= len(r.buf) {
		if err := r.fill(total, holding); err != nil {
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
		if err := r.extendRead(false); err != nil {
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
