package bridge

import (
	"fmt"

	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
)

// keepBuffer is the largest conversion buffer kept between requests: a
// connection holds at most one Produce and one Fetch conversion at a time,
// each bounded by the decompression limit, and keeps no more than this
// after it.
const keepBuffer = 1 << 20

// connBridge is the bridge of one connection: the broker's ranges and the
// record converter and buffers of its Produce and Fetch conversions (one
// request at a time each way: the request pump converts Produce, the
// response pump Fetch).
type connBridge struct {
	b      *Bridge
	broker map[int16]wire.VersionRange

	conv  records.Converter // the request pump's (Produce)
	upBuf []byte
	down  records.Converter // the response pump's (Fetch)
	dnBuf []byte
}

// Target is the broker's lowest version when version is below it and the
// bridge translates the api.
func (c *connBridge) Target(key, version int16) (int16, bool) {
	r, ok := c.broker[key]
	if !ok || version >= r.MinVersion {
		return 0, false
	}
	if lo, ok := c.b.Lowest(key); !ok || version < lo {
		return 0, false
	}
	if req := c.b.newRequest(key); req == nil || r.MinVersion > req.MaxVersion() {
		return 0, false
	}
	return r.MinVersion, true
}

// Request translates a request with the api's adapter.
func (c *connBridge) Request(req runtime.APIMessage, from, to int16) (any, error) {
	a, ok := adapters[req.APIKey()]
	if !ok {
		return nil, fmt.Errorf("no translation for %s", req.SpecName())
	}
	state, err := a.request(c, structOf(req), from, to)
	if err == nil {
		c.b.count(req.APIKey(), from, to)
	}
	return state, err
}

// Response translates a response back with the api's adapter, then maps
// the error codes the client's version does not know.
func (c *connBridge) Response(resp runtime.APIMessage, from, to int16, state any) error {
	a, ok := adapters[resp.APIKey()]
	if !ok {
		return fmt.Errorf("no translation for %s", resp.SpecName())
	}
	v := structOf(resp)
	if err := a.response(c, v, from, to, state); err != nil {
		return err
	}
	mapErrors(resp.APIKey(), v, to)
	return nil
}

// trim drops a conversion buffer grown past keepBuffer.
func trim(b []byte) []byte {
	if cap(b) > keepBuffer {
		return nil
	}
	return b[:0]
}
