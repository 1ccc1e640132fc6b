package proxy

import (
	"fmt"
	"math"
	"time"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/wire/frames"
)

// responsePeek is how much of a response the pump reads before it chooses
// what to do: the correlation id.
const responsePeek = 4

// responsePump reads the broker's responses and relays them to the client:
// as bytes when no filter wants them, else decoded, filtered and encoded
// again if a filter changed them. ApiVersions answers are narrowed to the
// versions the proxy reads.
type responsePump struct {
	c       *conn
	decoder *frames.ResponseDecoder
	resp    frames.DecodedResponse
	out     []byte
}

// run relays responses until the broker leaves or a failure. It holds the
// client's side of the connection except while it waits for the broker.
func (rp *responsePump) run() error {
	c, r := rp.c, rp.c.toClient
	rp.decoder = frames.NewResponseDecoder(c.p.cfg.NewResponse, true)
	c.out.Lock()
	defer c.out.Unlock()
	for {
		size, err := r.next(responsePeek, math.MaxInt32)
		if err != nil {
			return fmt.Errorf("reading a response: %w", err)
		}
		if taken, err := rp.handOverLogin(size); taken || err != nil {
			if err != nil {
				return err
			}
			continue
		}
		f, s, err := rp.match(size)
		if err != nil {
			return err
		}
		if err := c.writeLocals(f.Seq); err != nil {
			return err
		}
		c.midFrame = true
		if s.filters != 0 || f.APIKey == generated.APIKeyAPIVersions || s.bridged != nil {
			err = rp.decoded(size, f, s)
		} else {
			err = r.pass(size)
		}
		c.midFrame = false
		if err != nil {
			return err
		}
		c.observe(f.APIKey, f.APIVersion, &s, 4+size)
		if err := c.writeLocals(f.Seq + 1); err != nil {
			return err
		}
		if c.draining.Load() {
			if err := r.flush(); err != nil {
				return err
			}
			c.checkDrained()
		}
	}
}

// match pairs the response with its request and frees the request's slot
// (and the slots of requests it shows were never answered).
func (rp *responsePump) match(size int) (frames.InFlight, slot, error) {
	c := rp.c
	c.pending.Lock()
	f, skipped, err := c.pending.pairing.Match(rp.c.toClient.prefix(size))
	var s slot
	if err == nil {
		n := uint64(len(c.pending.slots))
		s = c.pending.slots[f.Seq%n]
		for seq := f.Seq - uint64(skipped); seq <= f.Seq; seq++ {
			c.pending.slots[seq%n] = slot{}
		}
	}
	c.pending.Unlock()
	if err != nil {
		return f, s, fmt.Errorf("reading a response: %w", err)
	}
	c.release(skipped + 1)
	return f, s, nil
}

// decoded reads a response whole, narrows an ApiVersions answer, runs the
// filters that want it and relays it.
func (rp *responsePump) decoded(size int, f frames.InFlight, s slot) error {
	c := rp.c
	if size > c.p.cfg.MaxFrameSize {
		return fmt.Errorf("a %d-byte response to api key %d v%d is longer than the %d bytes the proxy decodes (%w)",
			size, f.APIKey, f.APIVersion, c.p.cfg.MaxFrameSize, errTooLargeToDecode)
	}
	frame, err := c.toClient.frame(size)
	if err != nil {
		return err
	}
	defer rp.release()
	if f.APIKey == generated.APIKeyAPIVersions {
		if frame, err = rp.clampVersions(frame, f); err != nil {
			return err
		}
	}
	switch {
	case s.bridged != nil:
		if frame, err = rp.translateResponse(frame, f, s); err != nil {
			return err
		}
	case s.filters != 0:
		if frame, err = rp.filter(frame, f, s); err != nil {
			return err
		}
	}
	return c.toClient.output(frame)
}

// clampVersions narrows an ApiVersions answer to the versions the proxy and
// its filters read.
func (rp *responsePump) clampVersions(frame []byte, f frames.InFlight) ([]byte, error) {
	if err := rp.decoder.Decode(frame[4:], f, &rp.resp); err != nil {
		return nil, fmt.Errorf("decoding an ApiVersions response: %w", err)
	}
	out, err := rp.c.p.clamp.rewrite(rp.out[:0], f.CorrelationID, frame[4+rp.resp.BodyOffset:], rp.resp.Version, false)
	if err != nil {
		return nil, err
	}
	rp.out = out
	return out, nil
}

// filter decodes a response and runs the filters that want it; the frame to
// relay is the one read, or the response encoded again if a filter changed
// it.
func (rp *responsePump) filter(frame []byte, f frames.InFlight, s slot) ([]byte, error) {
	c := rp.c
	if err := rp.decoder.Decode(frame[4:], f, &rp.resp); err != nil {
		return nil, fmt.Errorf("decoding a response for the filters: %w", err)
	}
	x := s.x
	if x == nil {
		x = &Exchange{Conn: &c.info, Started: time.Now(),
			Header: frames.RequestHeader{APIKey: f.APIKey, APIVersion: f.APIVersion, CorrelationID: f.CorrelationID}}
	}
	x.Response, x.ResponseVersion, x.edited, x.ResponseBytes = rp.resp.Body, rp.resp.Version, false, len(frame)
	err := c.p.filters.response(x, s.filters, len(c.p.filters.filters))
	x.Response = nil
	if err != nil || !x.edited {
		return frame, err
	}
	// The encoding goes after the bytes of an ApiVersions answer that frame
	// may point into.
	start := len(rp.out)
	out, err := frames.AppendResponseHeader(rp.out, &rp.resp.Header, rp.resp.Body, rp.resp.Version)
	if err != nil {
		return nil, fmt.Errorf("encoding a response a filter changed: %w", err)
	}
	rp.out = out
	return out[start:], nil
}

// release drops buffers too large to keep.
func (rp *responsePump) release() {
	rp.c.toClient.release()
	if cap(rp.out) > keepBuffer {
		rp.out = nil
	}
	rp.out = rp.out[:0]
}
