package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
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

// FrameReader reads Kafka frames (a big-endian int32 size, then that many
// bytes) from a stream into one buffer that it reuses: once the buffer has
// grown to the largest frame seen, reading allocates nothing.
type FrameReader struct {
	r    io.Reader
	max  int
	buf  []byte
	size [4]byte
}

// NewFrameReader reads frames from r, refusing any larger than max bytes;
// max <= 0 means DefaultMaxFrameSize.
func NewFrameReader(r io.Reader, max int) *FrameReader {
	if max <= 0 {
		max = DefaultMaxFrameSize
	}
	return &FrameReader{r: r, max: max}
}

// Max is the largest frame size the reader accepts.
func (f *FrameReader) Max() int { return f.max }

// Next reads the next frame and returns its bytes (without the size prefix).
// The slice is valid until the next call to Next. At a clean end of stream,
// before the first byte of a frame, it returns io.EOF; a stream that ends
// inside a frame gives an error wrapping io.ErrUnexpectedEOF; a negative size
// or one above the limit gives a *FrameSizeError before anything is allocated.
func (f *FrameReader) Next() ([]byte, error) {
	if n, err := io.ReadFull(f.r, f.size[:]); err != nil {
		if err == io.EOF {
			return nil, io.EOF
		}
		return nil, fmt.Errorf("kafka frame: reading the size: got %d of 4 bytes: %w", n, err)
	}
	size := int32(binary.BigEndian.Uint32(f.size[:]))
	if size < 0 || int64(size) > int64(f.max) {
		return nil, &FrameSizeError{Size: size, Max: f.max}
	}
	if cap(f.buf) < int(size) {
		f.buf = make([]byte, size)
	}
	f.buf = f.buf[:size]
	if n, err := io.ReadFull(f.r, f.buf); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("kafka frame: reading a %d-byte frame: got %d bytes: %w", size, n, err)
	}
	return f.buf, nil
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
