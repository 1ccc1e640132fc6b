package proxy

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/wire"
	"github.com/kafkagen/kafkagen/wire/frames"
)

// requestPeek is how much of a request the pump reads before it chooses
// what to do: the api key, version and correlation id.
const requestPeek = 8

// requestPump reads the client's requests and forwards them to the broker:
// as bytes when no filter wants them, else decoded, filtered and forwarded
// (encoded again if a filter changed them) or answered by the proxy.
type requestPump struct {
	c       *conn
	decoder *wire.RequestDecoder
	req     wire.Request
	out     []byte
}

// run serves requests until the client leaves, a failure, or a drain.
func (rp *requestPump) run() error {
	c := rp.c
	rp.decoder = wire.NewRequestDecoder(c.p.cfg.NewRequest, true, nil)
	for {
		if c.draining.Load() {
			return rp.stop()
		}
		size, err := c.toBroker.next(requestPeek, c.p.cfg.MaxFrameSize)
		if err != nil {
			var ne net.Error
			if c.draining.Load() && errors.As(err, &ne) && ne.Timeout() {
				return rp.stop()
			}
			return fmt.Errorf("reading a request: %w", err)
		}
		if err := rp.waitThrottle(); err != nil {
			return err
		}
		if c.upstreamLogin.isDue() {
			if err := rp.reauthenticateUpstream(); err != nil {
				return err
			}
		}
		if err := rp.one(size); err != nil {
			return err
		}
	}
}

// stop ends the reading of requests for a drain: what was read is sent, and
// the connection ends when the answers have been relayed.
func (rp *requestPump) stop() error {
	if err := rp.c.toBroker.flush(); err != nil {
		return err
	}
	rp.c.checkDrained()
	<-rp.c.done
	return errDrained
}

// one handles the request whose size has been read.
func (rp *requestPump) one(size int) error {
	c, r := rp.c, rp.c.toBroker
	info, frame, err := rp.inspect(size)
	if err != nil {
		return err
	}
	if c.session != nil {
		if taken, err := rp.reauthenticate(info, size, frame); taken || err != nil {
			return err
		}
	}
	if info.APIKey == generated.APIKeyAPIVersions {
		if vr := c.p.clamp.packageRange(); info.APIVersion > vr.MaxVersion {
			// KIP-511: the answer that makes the client ask again at a
			// version the proxy reads.
			if frame == nil {
				if _, err := r.frame(size); err != nil {
					return err
				}
			}
			return c.answerLocally(frames.AppendAPIVersionsUnsupported(rp.out[:0], info.CorrelationID, vr.MinVersion, vr.MaxVersion))
		}
	}
	requests, responses := c.p.filters.wants(info.APIKey, info.APIVersion)
	if requests|responses != 0 && !info.Known() {
		return fmt.Errorf("api key %d v%d (correlation id %d): a filter needs it decoded, and %w",
			info.APIKey, info.APIVersion, info.CorrelationID, errNotReadable)
	}
	var to int16
	translate := false
	if c.bridge != nil && info.Known() {
		to, translate = c.bridge.Target(info.APIKey, info.APIVersion)
	}
	s := slot{filters: responses}
	c.observeStart(&s, 4+size)
	if requests == 0 && !translate {
		if responses != 0 {
			s.x = &Exchange{Conn: &c.info, Started: time.Now(), RequestBytes: 4 + size,
				Header: frames.RequestHeader{APIKey: info.APIKey, APIVersion: info.APIVersion, CorrelationID: info.CorrelationID}}
		}
		if err := rp.track(info, s); err != nil {
			return err
		}
		if frame != nil {
			return r.output(frame)
		}
		return r.pass(size)
	}
	if frame == nil {
		if frame, err = r.frame(size); err != nil {
			return err
		}
	}
	if translate {
		return rp.filtered(info, frame, requests, s, &to)
	}
	return rp.filtered(info, frame, requests, s, nil)
}

// inspect reads what pairing needs of the request. When that is more than
// the buffer holds (a Produce with very long client and transactional ids)
// it reads the frame whole and returns it.
func (rp *requestPump) inspect(size int) (frames.RequestInfo, []byte, error) {
	c, r := rp.c, rp.c.toBroker
	var frame []byte
	for {
		prefix := r.prefix(size)
		if frame != nil {
			prefix = frame[4:]
		}
		c.pending.Lock()
		info, need, err := c.pending.pairing.Inspect(prefix, size)
		c.pending.Unlock()
		switch {
		case err != nil:
			return info, nil, err
		case need == 0:
			return info, frame, nil
		case 4+need <= len(r.buf):
			err = r.fill(4+need, inFrame)
		default:
			frame, err = r.frame(size)
		}
		if err != nil {
			return info, nil, err
		}
	}
}

// filtered decodes a request, runs the filters that want it, and forwards
// or answers it; with bridgeTo, the bridge translates it to that version
// first.
func (rp *requestPump) filtered(info frames.RequestInfo, frame []byte, requests uint64, s slot, bridgeTo *int16) error {
	c := rp.c
	if err := rp.decoder.Decode(frame[4:], &rp.req); err != nil {
		return fmt.Errorf("decoding a request for the filters: %w", err)
	}
	x := &Exchange{Conn: &c.info, Header: rp.req.Header, Request: rp.req.Body, Started: time.Now(), Unanswered: info.Unanswered,
		RequestBytes: len(frame)}
	answeredBy, err := c.p.filters.request(x, requests)
	x.Request = nil // its memory is the frame's, reused next
	if err != nil {
		return err
	}
	if answeredBy >= 0 {
		x.Response, x.ResponseVersion = x.answer, info.APIVersion
		if err := c.p.filters.response(x, s.filters, answeredBy); err != nil {
			return err
		}
		out, err := frames.AppendResponse(rp.out[:0], info.CorrelationID, x.answer, info.APIVersion)
		if err != nil {
			return fmt.Errorf("encoding a filter's answer: %w", err)
		}
		rp.out = out
		c.observe(info.APIKey, info.APIVersion, &s, len(out))
		return c.answerLocally(out)
	}
	if bridgeTo != nil {
		if frame, err = rp.translate(&info, *bridgeTo, &s); err != nil {
			return err
		}
	} else if x.edited {
		out, err := frames.AppendRequest(rp.out[:0], &rp.req.Header, rp.req.Body)
		if err != nil {
			return fmt.Errorf("encoding a request a filter changed: %w", err)
		}
		rp.out, frame = out, out
	}
	x.edited = false
	if s.filters != 0 {
		// The header's strings point into the frame, which the next
		// request overwrites.
		x.Header.ClientID.Value = strings.Clone(x.Header.ClientID.Value)
		x.Header.Tags = nil
		s.x = x
	}
	if err := rp.track(info, s); err != nil {
		return err
	}
	err = c.toBroker.output(frame)
	rp.release()
	return err
}

// track records the request as in flight, waiting for room when MaxInFlight
// requests are (after writing what was relayed, so that they can be
// answered).
func (rp *requestPump) track(info frames.RequestInfo, s slot) error {
	c := rp.c
	if info.Unanswered {
		c.observe(info.APIKey, info.APIVersion, &s, 0)
		return nil
	}
	select {
	case c.capacity <- struct{}{}:
	default:
		if err := c.toBroker.flush(); err != nil {
			return err
		}
		if err := c.acquire(); err != nil {
			return err
		}
	}
	c.pending.Lock()
	defer c.pending.Unlock()
	f, err := c.pending.pairing.Track(info)
	if err == nil {
		c.pending.slots[f.Seq%uint64(len(c.pending.slots))] = s
	}
	return err
}

// release drops buffers too large to keep.
func (rp *requestPump) release() {
	rp.c.toBroker.release()
	if cap(rp.out) > keepBuffer {
		rp.out = nil
	}
}
