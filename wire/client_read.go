package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/wire/frames"
	"github.com/kafkagen/kafkagen/wire/internal/readerr"
)

// readLoop reads responses and hands each to the oldest call in flight.
func (c *Client) readLoop(fr *frames.FrameReader) {
	defer close(c.readerDone)
	for {
		size, err := fr.ReadSize()
		if err != nil {
			c.fail(fmt.Errorf("kafka client: reading a response: %w", err))
			return
		}
		c.mu.Lock()
		if len(c.pending) == 0 {
			c.mu.Unlock()
			c.fail(fmt.Errorf("kafka client: a %d-byte response arrived with no request in flight", size))
			return
		}
		cl := c.pending[0]
		c.pending[0] = nil
		c.pending = c.pending[1:]
		c.mu.Unlock()
		if err := c.readResponse(fr, size, cl); err != nil {
			cl.finish(err)
			c.fail(err)
			return
		}
	}
}

// readResponse reads the size-byte response of cl and delivers it, or
// discards it as it arrives when cl's caller has given up, before or while
// it is read. It returns an error only when the stream cannot be read
// further.
func (c *Client) readResponse(fr *frames.FrameReader, size int, cl *call) error {
	if cl.gaveUp() {
		return c.skip(fr, size, nil, cl)
	}
	// A caller giving up in the middle of a large response wakes the
	// reader (abandon), so that a response nobody waits for costs no more
	// than a first chunk from then on.
	large := size > largeResponse
	if large {
		c.watch(cl)
	}
	buf, err := fr.ReadBody(size, nil)
	for err != nil {
		if !large || !c.wokenUp(err) {
			return fmt.Errorf("kafka client: reading the response to correlation id %d: %w", cl.id, err)
		}
		if cl.gaveUp() {
			c.unwatch()
			fr.Release()
			return c.skip(fr, size, buf, cl)
		}
		buf, err = fr.ReadBody(size, buf)
	}
	if large {
		c.unwatch()
	}
	return c.deliver(buf, cl)
}

// largeResponse is the size above which a response takes more than the
// first chunk frames.FrameReader reads a frame into, and so more than one
// read: a caller giving up while it arrives wakes the reader.
const largeResponse = 64 << 10

// watch lets abandon wake the reader while it reads cl's response.
func (c *Client) watch(cl *call) {
	c.readMu.Lock()
	c.reading = cl
	c.readMu.Unlock()
}

// unwatch ends watch, undoing a wake-up that came too late to be seen.
func (c *Client) unwatch() {
	c.readMu.Lock()
	c.reading = nil
	if c.poked {
		c.poked = false
		_ = c.conn.SetReadDeadline(time.Time{})
	}
	c.readMu.Unlock()
}

// wokenUp reports whether err is the timeout of a wake-up from abandon,
// and clears it so that reading can go on.
func (c *Client) wokenUp(err error) bool {
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		return false
	}
	c.readMu.Lock()
	defer c.readMu.Unlock()
	if !c.poked {
		return false
	}
	c.poked = false
	_ = c.conn.SetReadDeadline(time.Time{})
	return true
}

// skip discards the rest of a size-byte response of which head has been
// read, after checking that its correlation id is cl's.
func (c *Client) skip(fr *frames.FrameReader, size int, head []byte, cl *call) error {
	defer cl.finish(nil) // nobody waits for it
	var id [4]byte
	got := copy(id[:], head)
	if got < len(id) {
		n, err := io.ReadFull(c.conn, id[got:min(len(id), size)])
		got += n
		if err != nil {
			return fmt.Errorf("kafka client: reading the response to correlation id %d: %w", cl.id, readerr.ShortFrame(size, got, err))
		}
	}
	if size < len(id) {
		return fmt.Errorf("kafka client: the response to correlation id %d: %d bytes, too short for a header", cl.id, size)
	}
	if corr := int32(binary.BigEndian.Uint32(id[:])); corr != cl.id {
		return &CorrelationError{Want: cl.id, Got: corr, APIKey: cl.key}
	}
	return fr.Discard(size, max(len(head), got))
}

// deliver decodes one response for cl. It returns an error only when the
// stream cannot be trusted any more (a header that does not decode or does
// not match); a body that does not decode fails the call alone.
func (c *Client) deliver(frame []byte, cl *call) error {
	var h frames.ResponseHeader
	n, err := h.Decode(frame, cl.resp.HeaderVersion(cl.version), false)
	if err != nil {
		return fmt.Errorf("kafka client: response to correlation id %d: %w", cl.id, err)
	}
	if h.CorrelationID != cl.id {
		return &CorrelationError{Want: cl.id, Got: h.CorrelationID, APIKey: cl.key}
	}
	cl.mu.Lock()
	defer cl.mu.Unlock()
	if cl.abandoned {
		cl.finish(nil)
		return nil
	}
	used, err := cl.resp.Decode(frame[n:], cl.version)
	if (err != nil || n+used != len(frame)) && cl.key == generated.APIKeyAPIVersions && cl.version > 0 {
		// KIP-511: a broker answers an ApiVersions request above its range
		// with a v0 response (UNSUPPORTED_VERSION and its ApiVersions range).
		// Kafka's clients read a body that does not fit the version sent at
		// v0 (ApiVersionsResponse.parse), and so does this one.
		if used0, err0 := cl.resp.Decode(frame[n:], 0); err0 == nil && n+used0 == len(frame) {
			used, err = used0, nil
		}
	}
	cl.finish(readerr.Check(err, cl.resp, cl.version, len(frame), n, used))
	return nil
}
