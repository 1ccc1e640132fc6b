package records

import (
	"bytes"
	"errors"
	"io"
	"strconv"

	"github.com/klauspost/compress/gzip"
)

// GzipCodec is gzip (RFC 1952) through klauspost/compress, the same framing
// in every magic. Its reader and writer are created once and reset for
// each batch.
type GzipCodec struct {
	// Level is a compress/flate level (1 fastest to 9 best); 0 means
	// gzip.DefaultCompression, Java's default.
	Level int

	w   *gzip.Writer
	out appendWriter
	r   *gzip.Reader
	in  bytes.Reader
}

// appendWriter is an io.Writer appending to a slice.
type appendWriter struct{ b []byte }

func (w *appendWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}

// AppendCompressed appends src as one gzip member.
func (g *GzipCodec) AppendCompressed(dst, src []byte, _ int8) ([]byte, error) {
	g.out.b = dst
	if g.w == nil {
		level := g.Level
		if level == 0 {
			level = gzip.DefaultCompression
		}
		w, err := gzip.NewWriterLevel(&g.out, level)
		if err != nil {
			return dst, codecError(ErrCompression, "gzip level "+strconv.Itoa(g.Level))
		}
		g.w = w
	} else {
		g.w.Reset(&g.out)
	}
	if _, err := g.w.Write(src); err != nil {
		return dst, err
	}
	if err := g.w.Close(); err != nil {
		return dst, err
	}
	out := g.out.b
	g.out.b = nil
	return out, nil
}

// AppendDecompressed appends the content of every gzip member of src.
func (g *GzipCodec) AppendDecompressed(dst, src []byte, _ int8, limit int) ([]byte, error) {
	g.in.Reset(src)
	var err error
	if g.r == nil {
		g.r, err = gzip.NewReader(&g.in)
		if err != nil {
			g.r = nil
		}
	} else {
		err = g.r.Reset(&g.in)
	}
	if err != nil {
		return dst, codecError(ErrCorrupt, "gzip: "+err.Error())
	}
	start := len(dst)
	if cap(dst)-start < 4*len(src) {
		dst = growCapped(dst, min(4*len(src), limit+1), start+limit+1)
	}
	for {
		if len(dst) == cap(dst) {
			if len(dst)-start > limit {
				return dst[:start+limit], tooLarge(limit)
			}
			dst = growCapped(dst, min(cap(dst), limit+1-(len(dst)-start)), start+limit+1)
		}
		// Read one byte past the limit at most, to tell a bomb from an
		// output of exactly limit bytes.
		room := min(cap(dst), start+limit+1)
		n, err := g.r.Read(dst[len(dst):room])
		dst = dst[:len(dst)+n]
		if len(dst)-start > limit {
			return dst[:start+limit], tooLarge(limit)
		}
		if errors.Is(err, io.EOF) {
			return dst, nil
		}
		if err != nil {
			return dst, codecError(ErrCorrupt, "gzip: "+err.Error())
		}
	}
}

func tooLarge(limit int) error {
	return codecError(ErrTooLarge, "more than "+strconv.Itoa(limit)+" bytes")
}
