package frames

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/runtime"
)

// Pairing responses with their requests, for code that watches or relays a
// connection it did not open (proxies, sniffers): Kafka answers the requests
// of a connection in order, every response starts with the correlation id of
// its request whatever its header version, and only a Produce with acks 0
// goes unanswered. Pairing reads no more of a request than it must (8 bytes,
// or the header and the start of the body for Produce), so that the rest of
// a frame can be relayed without being read into memory.

// produceKey is the api key of Produce (Kafka's ApiKeys), the one request
// Kafka may leave unanswered (acks 0). The project's own generated package
// has no Produce to take the constant from.
const produceKey int16 = 0

// requestHeaderMinLen is the fixed start of every request header: api key,
// api version and correlation id.
const requestHeaderMinLen = 8

// ErrInFlightFull is returned by Pairing.Track when as many requests as the
// pairing holds are waiting for their responses.
var ErrInFlightFull = errors.New("kafka pairing: too many requests in flight")

// InFlight is a request waiting for its response.
type InFlight struct {
	// Seq numbers the tracked requests of a connection from 0, in the
	// order they were sent.
	Seq           uint64
	CorrelationID int32
	APIKey        int16
	APIVersion    int16
	// RequestHeaderVersion is the version of the request's header, and
	// ResponseHeaderVersion the version its response's header will have;
	// both are -1 when the package does not know the api key or version
	// (a request newer than the specs): the request was read by its first 8
	// bytes only, and its response can only be relayed as bytes. An
	// ApiVersions response has header v0 at every version (KIP-511), so its
	// ResponseHeaderVersion is 0 even then.
	RequestHeaderVersion  int16
	ResponseHeaderVersion int16
}

// Known reports whether the package knows the request's api key and version,
// so that the request and its response can be decoded.
func (f InFlight) Known() bool { return f.RequestHeaderVersion >= 0 }

// RequestInfo is what Pairing.Inspect reads from the start of a request frame.
type RequestInfo struct {
	InFlight
	// Unanswered: Kafka sends no response to this request (Produce with
	// acks 0), so Track records nothing for it.
	Unanswered bool
}

// UnpairedResponseError is a response whose correlation id matches no
// request in flight: the stream can no longer be trusted.
type UnpairedResponseError struct {
	CorrelationID int32
	InFlight      int   // requests waiting
	Oldest        int32 // the oldest one's correlation id, when InFlight > 0
}

// Error names the correlation id and what was waiting.
func (e *UnpairedResponseError) Error() string {
	if e.InFlight == 0 {
		return fmt.Sprintf("kafka pairing: a response with correlation id %d arrived with no request in flight", e.CorrelationID)
	}
	return fmt.Sprintf("kafka pairing: response correlation id %d matches none of the %d requests in flight (the oldest has %d)",
		e.CorrelationID, e.InFlight, e.Oldest)
}

// Pairing pairs the responses of one connection with its requests. It is not
// safe for concurrent use: a proxy reading requests and responses on two
// goroutines guards it with a lock.
type Pairing struct {
	newRequest  func(apiKey int16) runtime.APIMessage
	newResponse func(apiKey int16) runtime.APIMessage
	// keys caches the messages of each api key the package knows, so that
	// inspecting a request allocates nothing once its key has been seen.
	keys    map[int16]pairKey
	ring    []InFlight
	head    int // index of the oldest entry
	n       int // entries in the ring
	nextSeq uint64
}

// pairKey is the request and response messages of one api key.
type pairKey struct{ req, resp runtime.APIMessage }

// NewPairing pairs with a generated package's NewRequest and NewResponse,
// holding at most maxInFlight requests waiting for responses (at least 1).
func NewPairing(newRequest, newResponse func(apiKey int16) runtime.APIMessage, maxInFlight int) *Pairing {
	return &Pairing{newRequest: newRequest, newResponse: newResponse, keys: map[int16]pairKey{}, ring: make([]InFlight, max(maxInFlight, 1))}
}

// Len is the number of requests waiting for their responses.
func (p *Pairing) Len() int { return p.n }

// Full reports whether Track would refuse another request.
func (p *Pairing) Full() bool { return p.n == len(p.ring) }

// NextSeq is the Seq the next tracked request will get.
func (p *Pairing) NextSeq() uint64 { return p.nextSeq }

// Oldest returns the request that has waited longest, if any.
func (p *Pairing) Oldest() (InFlight, bool) {
	if p.n == 0 {
		return InFlight{}, false
	}
	return p.ring[p.head], true
}

// messages returns the package's request and response of key.
func (p *Pairing) messages(key int16) pairKey {
	k, ok := p.keys[key]
	if !ok {
		k = pairKey{req: p.newRequest(key), resp: p.newResponse(key)}
		if k.req == nil || k.resp == nil {
			// Not kept: a peer sending every key there is would make the
			// cache grow past the package's keys.
			return pairKey{}
		}
		p.keys[key] = k
	}
	return k
}

// Inspect reads what pairing needs from prefix, the first bytes of a request
// frame of frameSize bytes (without its size prefix). When prefix is too
// short it returns need, the prefix length to call again with (never more
// than frameSize); otherwise need is 0. A frame too short for the parts
// that must be there is an error naming the part.
func (p *Pairing) Inspect(prefix []byte, frameSize int) (info RequestInfo, need int, err error) {
	if frameSize < requestHeaderMinLen {
		return info, 0, fmt.Errorf("kafka pairing: a %d-byte request frame is shorter than the 8 bytes of api key, version and correlation id", frameSize)
	}
	if len(prefix) < requestHeaderMinLen {
		return info, requestHeaderMinLen, nil
	}
	info.APIKey = int16(binary.BigEndian.Uint16(prefix))
	info.APIVersion = int16(binary.BigEndian.Uint16(prefix[2:]))
	info.CorrelationID = int32(binary.BigEndian.Uint32(prefix[4:]))
	info.RequestHeaderVersion, info.ResponseHeaderVersion = -1, -1
	k := p.messages(info.APIKey)
	switch {
	case k.req == nil:
		return info, 0, nil // an api key the package does not know
	case info.APIKey == generated.APIKeyAPIVersions:
		// KIP-511: the response header is v0 at any version, and an answer
		// comes even to a version the broker does not support.
		info.ResponseHeaderVersion = 0
		if info.APIVersion >= k.req.MinVersion() && info.APIVersion <= k.req.MaxVersion() {
			info.RequestHeaderVersion = k.req.HeaderVersion(info.APIVersion)
		}
		return info, 0, nil
	case info.APIVersion < k.req.MinVersion() || info.APIVersion > k.req.MaxVersion():
		return info, 0, nil // newer (or older) than the specs: by its header alone
	}
	info.RequestHeaderVersion = k.req.HeaderVersion(info.APIVersion)
	info.ResponseHeaderVersion = k.resp.HeaderVersion(info.APIVersion)
	if info.APIKey != produceKey {
		return info, 0, nil
	}
	acks, need, err := produceAcks(prefix, frameSize, info.RequestHeaderVersion, info.APIVersion, k.req.IsFlexible(info.APIVersion))
	info.Unanswered = need == 0 && err == nil && acks == 0
	return info, need, err
}

// Track records a request inspected by Inspect as waiting for its response,
// giving it the next Seq; an unanswered one is not recorded. It returns the
// entry, or ErrInFlightFull when the pairing is full.
func (p *Pairing) Track(info RequestInfo) (InFlight, error) {
	if info.Unanswered {
		return info.InFlight, nil
	}
	if p.Full() {
		return InFlight{}, fmt.Errorf("%w: %d waiting (api key %d, correlation id %d not tracked)", ErrInFlightFull, p.n, info.APIKey, info.CorrelationID)
	}
	f := info.InFlight
	f.Seq = p.nextSeq
	p.nextSeq++
	p.ring[(p.head+p.n)%len(p.ring)] = f
	p.n++
	return f, nil
}

// Match pairs a response with its request by the correlation id in its
// first 4 bytes, and removes the request from those in flight. Requests
// older than the one matched are removed too and counted in skipped: Kafka
// answers in order, so they were never going to be answered (a Produce whose
// acks Inspect could not read, being newer than the specs). A response
// matching no request is an *UnpairedResponseError.
func (p *Pairing) Match(response []byte) (f InFlight, skipped int, err error) {
	if len(response) < 4 {
		return f, 0, fmt.Errorf("kafka pairing: a %d-byte response is shorter than its 4-byte correlation id", len(response))
	}
	id := int32(binary.BigEndian.Uint32(response))
	for i := range p.n {
		e := p.ring[(p.head+i)%len(p.ring)]
		if e.CorrelationID != id {
			continue
		}
		for j := 0; j <= i; j++ {
			p.ring[(p.head+j)%len(p.ring)] = InFlight{}
		}
		p.head = (p.head + i + 1) % len(p.ring)
		p.n -= i + 1
		return e, i, nil
	}
	e := &UnpairedResponseError{CorrelationID: id, InFlight: p.n}
	if p.n > 0 {
		e.Oldest = p.ring[p.head].CorrelationID
	}
	return f, 0, e
}
