package frames

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/kafkagen/kafkagen/wire/internal/readerr"
)

// DefaultMaxFrameSize is the largest frame accepted when no limit is set:
// 100 MiB, the default of Kafka's socket.request.max.bytes.
const DefaultMaxFrameSize = 100 * 1024 * 1024

// ErrFrameSize is wrapped by every refused frame size (negative, or above the
// limit); the error is a *FrameSizeError.
var ErrFrameSize = errors.New("frame size out of range")

// FrameSizeError is a frame whose 4-byte size prefix is negative or above the
// reader's limit. Nothing was allocated for it, and the stream cannot be read
// further: the frame's bytes were not consumed.
type FrameSizeError struct {
	Size int32 // the size prefix as read
	Max  int   // the limit in force
}

// Error says which size was refused and why.
func (e *FrameSizeError) Error() string {
	if e.Size < 0 {
		return fmt.Sprintf("kafka frame: negative size %d", e.Size)
	}
	return fmt.Sprintf("kafka frame: size %d is above the limit of %d bytes", e.Size, e.Max)
}

// Unwrap returns ErrFrameSize.
func (e *FrameSizeError) Unwrap() error { return ErrFrameSize }

// DefaultRetainSize is the largest frame buffer a FrameReader keeps
// between frames when no other size is set: a burst of large frames is
// served, then its memory is given back.
const DefaultRetainSize = 1 << 20

// firstChunk is the most a FrameReader allocates for a frame before its
// bytes arrive: a peer announcing a large frame gets this much, and more
// only as it sends.
const firstChunk = 64 << 10

// FrameReader reads Kafka frames (a big-endian int32 size, then that many
// bytes) from a stream into a buffer that it reuses. The buffer grows with
// the bytes that arrive, never from the size prefix alone: a peer that
// announces 100 MiB and sends 10 bytes costs 64 KiB, not 100 MiB. A buffer
// grown beyond the retain size (DefaultRetainSize) is dropped when the next
// frame is read, so memory taken by a burst of large frames is given back.
type FrameReader struct {
	r      io.Reader
	max    int
	retain int
	buf    []byte
	size   [4]byte
}

// NewFrameReader reads frames from r, refusing any larger than max bytes;
// max <= 0 means DefaultMaxFrameSize.
func NewFrameReader(r io.Reader, max int) *FrameReader {
	if max <= 0 {
		max = DefaultMaxFrameSize
	}
	return &FrameReader{r: r, max: max, retain: DefaultRetainSize}
}

// Max is the largest frame size the reader accepts.
func (f *FrameReader) Max() int { return f.max }

// SetRetainSize sets the largest buffer kept from one frame to the next;
// n <= 0 keeps none.
func (f *FrameReader) SetRetainSize(n int) { f.retain = max(n, 0) }

// Release drops the frame buffer now (the slice Next returned last is
// still valid: it is not reused). A server calls it on a connection going
// idle.
func (f *FrameReader) Release() { f.buf = nil }

// Next reads the next frame and returns its bytes (without the size prefix).
// The slice is valid until the next call to Next. At a clean end of stream,
// before the first byte of a frame, it returns io.EOF; a stream that ends
// inside a frame gives an error wrapping io.ErrUnexpectedEOF; a negative size
// or one above the limit gives a *FrameSizeError before anything is allocated.
func (f *FrameReader) Next() ([]byte, error) {
	size, err := f.ReadSize()
	if err != nil {
		return nil, err
	}
	buf, err := f.ReadBody(size, nil)
	if err != nil {
		f.buf = buf[:0]
		return nil, err
	}
	return buf, nil
}

// ReadBody reads the body of a frame of size (from ReadSize) into the
// reader's buffer, after got, the bytes of it read already (nil at first).
// On an error, a read deadline say, it returns the bytes read so far with
// an error wrapping the read's, and a call with them resumes. The body read
// whole is valid until the next frame is read. ReadSize, ReadBody and
// Discard read a frame in steps, for a reader that must be able to stop in
// the middle of one (a client whose caller gave up); Next and Skip are the
// one-call forms.
func (f *FrameReader) ReadBody(size int, got []byte) ([]byte, error) {
	buf := got
	if len(buf) == 0 {
		buf = f.start(size)
	}
	for len(buf) < size {
		var err error
		if buf, err = f.fill(buf, size); err != nil {
			return buf, readerr.ShortFrame(size, len(buf), err)
		}
	}
	f.buf = buf
	return buf, nil
}

// start returns the empty buffer a frame of size is read into: the kept
// one, unless it grew past the retain size, or a first chunk.
func (f *FrameReader) start(size int) []byte {
	if cap(f.buf) > f.retain {
		f.buf = nil
	}
	if cap(f.buf) == 0 && size > 0 {
		return make([]byte, 0, min(size, firstChunk))
	}
	return f.buf[:0]
}

// fill reads more of a frame of size into buf, which holds what arrived so
// far: into the room there is, after doubling it (up to the size) when it
// is full. It returns buf with every byte that arrived, on error too, so a
// read cut short by a deadline can be resumed.
func (f *FrameReader) fill(buf []byte, size int) ([]byte, error) {
	if len(buf) == cap(buf) {
		grown := make([]byte, len(buf), min(size, 2*cap(buf)))
		copy(grown, buf)
		buf = grown
	}
	n, err := io.ReadFull(f.r, buf[len(buf):min(cap(buf), size)])
	return buf[:len(buf)+n], err
}

// Skip reads the next frame's first len(head) bytes into head (fewer when
// the frame is shorter) and discards the rest as it arrives, with no buffer
// of the frame's size: for a frame nobody waits for any more. It returns
// the frame's size and how many bytes of head were filled.
func (f *FrameReader) Skip(head []byte) (size, n int, err error) {
	if size, err = f.ReadSize(); err != nil {
		return 0, 0, err
	}
	n, err = io.ReadFull(f.r, head[:min(len(head), size)])
	if err != nil {
		return size, n, readerr.ShortFrame(size, n, err)
	}
	return size, n, f.Discard(size, n)
}

// Discard reads and drops the rest of a frame of size of which got bytes
// were read, through io.Discard's pooled buffer.
func (f *FrameReader) Discard(size, got int) error {
	n, err := io.CopyN(io.Discard, f.r, int64(size-got))
	if err != nil {
		return readerr.ShortFrame(size, got+int(n), err)
	}
	return nil
}

// ReadSize reads a frame's size prefix and checks it against the limit: a
// negative size or one above it is a *FrameSizeError. At a clean end of
// stream it returns io.EOF.
func (f *FrameReader) ReadSize() (int, error) {
	if n, err := io.ReadFull(f.r, f.size[:]); err != nil {
		if err == io.EOF {
			return 0, io.EOF
		}
		return 0, fmt.Errorf("kafka frame: reading the size: got %d of 4 bytes: %w", n, err)
	}
	size := int32(binary.BigEndian.Uint32(f.size[:]))
	if size < 0 || int64(size) > int64(f.max) {
		return 0, &FrameSizeError{Size: size, Max: f.max}
	}
	return int(size), nil
}

// BeginFrame appends a placeholder for a frame's size to dst and returns the
// result with the offset of the placeholder, for EndFrame to fill in once the
// frame's contents have been appended after it.
func BeginFrame(dst []byte) ([]byte, int) {
	return append(dst, 0, 0, 0, 0), len(dst)
}

// EndFrame writes into the placeholder at start (from BeginFrame) the number
// of bytes that follow it in frame. A frame too long for an int32 size is an
// error.
func EndFrame(frame []byte, start int) error {
	n := len(frame) - start - 4
	if n < 0 {
		return fmt.Errorf("kafka frame: no size placeholder at offset %d of %d bytes", start, len(frame))
	}
	if n > math.MaxInt32 {
		return fmt.Errorf("kafka frame: %d bytes do not fit an int32 size", n)
	}
	binary.BigEndian.PutUint32(frame[start:], uint32(n))
	return nil
}

// AppendFrame appends body to dst as one frame: its size, then the bytes.
func AppendFrame(dst, body []byte) ([]byte, error) {
	dst, start := BeginFrame(dst)
	dst = append(dst, body...)
	if err := EndFrame(dst, start); err != nil {
		return dst[:start], err
	}
	return dst, nil
}
