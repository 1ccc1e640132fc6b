package proxy

import (
	"fmt"
	"net"
	"time"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
	"github.com/kafkagen/kafkagen/wire/frames"
)

// Bridge translates requests at versions the broker does not serve into
// versions it does, and their responses back (package proxy/bridge is
// one). It is part of the engine rather than a Filter because it changes
// what filters cannot: the version a request travels at (and so its
// header and how its response is paired and read), the response's
// version on the way back, and the ranges ApiVersions advertises; and it
// must know the broker's ranges before the client's first request, which
// may not be an ApiVersions at all (a Kafka 0.8 client never asks).
type Bridge interface {
	// Lowest is the lowest version of key the bridge translates to any
	// higher one; ok false when it translates none. ApiVersions answers
	// advertise from there (the union of what the broker serves and what
	// the bridge translates).
	Lowest(key int16) (version int16, ok bool)
	// Conn starts the bridge of one connection, given the ranges the
	// broker listed in its ApiVersions answer.
	Conn(broker []wire.VersionRange) BridgeConn
}

// BridgeConn is the bridge of one connection; its methods are called by
// the connection's request pump (Target, Request) and response pump
// (Response), never at once for the same request.
type BridgeConn interface {
	// Target reports the version to forward a request of key at version
	// at, when the broker does not serve version and the bridge
	// translates it.
	Target(key, version int16) (to int16, ok bool)
	// Request turns req, decoded at from, into the request to encode at
	// to, in place. It returns what Response needs of the request.
	Request(req runtime.APIMessage, from, to int16) (state any, err error)
	// Response turns resp, decoded at the broker's version from, into the
	// response to encode at the client's version to, in place.
	Response(resp runtime.APIMessage, from, to int16, state any) error
}

// bridged is what the response pump needs of a translated request.
type bridged struct {
	clientVersion int16
	state         any
}

// learnBrokerVersions asks the broker for its ranges (ApiVersions v0,
// which every broker answers) on the fresh upstream connection, before any
// client request, and returns the connection's bridge.
func learnBrokerVersions(b Bridge, upstream net.Conn, timeout time.Duration) (BridgeConn, error) {
	if err := upstream.SetDeadline(time.Now().Add(timeout)); err != nil {
		return nil, err
	}
	defer upstream.SetDeadline(time.Time{})
	h := frames.RequestHeader{APIKey: generated.APIKeyAPIVersions, APIVersion: 0, CorrelationID: 0,
		ClientID: runtime.NewNullString("kafkagen-bridge")}
	frame, err := frames.AppendRequest(nil, &h, generated.NewAPIVersionsRequest())
	if err != nil {
		return nil, err
	}
	if _, err := upstream.Write(frame); err != nil {
		return nil, fmt.Errorf("bridge: asking the broker's versions: %w", err)
	}
	resp, err := frames.NewFrameReader(upstream, 1<<20).Next()
	if err != nil {
		return nil, fmt.Errorf("bridge: reading the broker's versions: %w", err)
	}
	var rh frames.ResponseHeader
	n, err := rh.Decode(resp, 0, false)
	if err != nil {
		return nil, fmt.Errorf("bridge: the broker's ApiVersions answer: %w", err)
	}
	body := generated.NewAPIVersionsResponse()
	if _, err := body.Decode(resp[n:], 0); err != nil {
		return nil, fmt.Errorf("bridge: the broker's ApiVersions answer: %w", err)
	}
	ranges, err := wire.BrokerVersions(body)
	if err != nil {
		return nil, fmt.Errorf("bridge: %w", err)
	}
	return b.Conn(ranges), nil
}

// translate has the bridge turn the decoded request into one at version
// to, encodes it, and updates info (for pairing its response) and s (for
// turning the response back). It returns the frame to forward.
func (rp *requestPump) translate(info *frames.RequestInfo, to int16, s *slot) ([]byte, error) {
	c := rp.c
	from := info.APIVersion
	state, err := c.bridge.Request(rp.req.Body, from, to)
	if err != nil {
		return nil, fmt.Errorf("bridge: %s v%d to v%d: %w", apiName(rp.req.Body), from, to, err)
	}
	rp.req.Header.APIVersion = to
	out, err := frames.AppendRequest(rp.out[:0], &rp.req.Header, rp.req.Body)
	if err != nil {
		return nil, fmt.Errorf("bridge: encoding %s v%d (from v%d): %w", apiName(rp.req.Body), to, from, err)
	}
	rp.out = out
	c.pending.Lock()
	translated, need, err := c.pending.pairing.Inspect(out[4:], len(out)-4)
	c.pending.Unlock()
	if err != nil || need != 0 {
		return nil, fmt.Errorf("bridge: pairing %s v%d: %v (need %d)", apiName(rp.req.Body), to, err, need)
	}
	*info = translated
	s.bridged = &bridged{clientVersion: from, state: state}
	return out, nil
}

// translateResponse reads a response to a translated request at the
// broker's version, has the bridge turn it back into the client's, runs
// the filters that want it, and returns the frame to relay.
func (rp *responsePump) translateResponse(frame []byte, f frames.InFlight, s slot) ([]byte, error) {
	c := rp.c
	if err := rp.decoder.Decode(frame[4:], f, &rp.resp); err != nil {
		return nil, fmt.Errorf("bridge: decoding the response: %w", err)
	}
	body, to := rp.resp.Body, s.bridged.clientVersion
	if err := c.bridge.Response(body, f.APIVersion, to, s.bridged.state); err != nil {
		return nil, fmt.Errorf("bridge: %s v%d to v%d: %w", apiName(body), f.APIVersion, to, err)
	}
	if s.filters != 0 {
		x := s.x
		x.Response, x.ResponseVersion, x.edited = body, to, false
		err := c.p.filters.response(x, s.filters, len(c.p.filters.filters))
		x.Response = nil
		if err != nil {
			return nil, err
		}
	}
	if body.HeaderVersion(to) == 0 {
		rp.resp.Header.Tags = nil // a v0 response header has no tag section
	}
	start := len(rp.out)
	out, err := frames.AppendResponseHeader(rp.out, &rp.resp.Header, body, to)
	if err != nil {
		return nil, fmt.Errorf("bridge: encoding %s v%d (from v%d): %w", apiName(body), to, f.APIVersion, err)
	}
	rp.out = out
	return out[start:], nil
}
