package wire

import (
	"fmt"
	"sync"
	"time"

	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/frames"
)

// responseBuffers pools response buffers of up to maxPooledResponse bytes;
// larger ones are dropped once written, and the pool itself empties at
// garbage collections, so a burst's memory is given back.
var responseBuffers sync.Pool

const maxPooledResponse = frames.DefaultRetainSize

// respond writes resp as the answer to the request with header h.
func (c *serverConn) respond(h *frames.RequestHeader, resp runtime.APIMessage) error {
	if resp.APIKey() != h.APIKey {
		return fmt.Errorf("kafka server: api key %d answered with %s (key %d)", h.APIKey, resp.SpecName(), resp.APIKey())
	}
	v := h.APIVersion
	rh := frames.ResponseHeader{CorrelationID: h.CorrelationID}
	size := 4 + rh.Size(resp.HeaderVersion(v)) + resp.Size(v)
	return c.send(size, func(dst []byte) ([]byte, error) {
		return frames.AppendResponse(dst, h.CorrelationID, resp, v)
	})
}

// send writes one frame of size bytes (size prefix included) that appendTo
// encodes, once it fits in the queued response bytes, within the write
// timeout.
func (c *serverConn) send(size int, appendTo func(dst []byte) ([]byte, error)) error {
	if size-4 > c.srv.limits.MaxResponseSize {
		return fmt.Errorf("kafka server: a %d-byte response: %w (%d bytes)", size-4, ErrResponseSize, c.srv.limits.MaxResponseSize)
	}
	if err := c.srv.responses.acquire(c.ctx, int64(size)); err != nil {
		return ErrServerClosed
	}
	defer c.srv.responses.release(int64(size))
	buf := responseBuffer(size)
	out, err := appendTo((*buf)[:0])
	if err != nil {
		return err
	}
	*buf = out
	_ = c.nc.SetWriteDeadline(deadline(time.Now(), c.srv.limits.WriteTimeout))
	_, err = c.nc.Write(out)
	if cap(out) <= maxPooledResponse {
		responseBuffers.Put(buf)
	}
	c.lastActive = time.Now()
	if err != nil {
		if isTimeout(err) {
			return fmt.Errorf("kafka server: writing a %d-byte response: %w (%v)", len(out), ErrWriteTimeout, c.srv.limits.WriteTimeout)
		}
		return errorf(err, "kafka server: writing a %d-byte response", len(out))
	}
	return nil
}

// responseBuffer returns an empty buffer with room for size bytes: a pooled
// one when size allows.
func responseBuffer(size int) *[]byte {
	if size <= maxPooledResponse {
		if b, ok := responseBuffers.Get().(*[]byte); ok && cap(*b) >= size {
			return b
		}
		b := make([]byte, 0, max(size, 4<<10))
		return &b
	}
	b := make([]byte, 0, size)
	return &b
}
