package proxy

import (
	"encoding/binary"
	"fmt"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
	"github.com/kafkagen/kafkagen/wire/frames"
)

// saslHandshakeKey is SaslHandshake's api key. After a v0 handshake the
// client sends bare SASL tokens, frames with no request header, which
// cannot be paired with their answers: a relayed handshake is advertised
// from v1. The proxy's own answer before authentication, where it serves
// the exchange itself (identity.go), lists v0 too: librdkafka 2.0.2
// will not authenticate with a server that does not (docs/protocol.md,
// "SASL").
const saslHandshakeKey int16 = 17

// versionClamp computes the versions the proxy advertises: for each api the
// range the broker, the generated package (request and response) and the
// filters all accept.
type versionClamp struct {
	newRequest, newResponse func(int16) runtime.APIMessage
	limiters                []VersionLimiter
	bridge                  Bridge // nil: none
}

func newVersionClamp(newRequest, newResponse func(int16) runtime.APIMessage, limiters []VersionLimiter) *versionClamp {
	return &versionClamp{newRequest: newRequest, newResponse: newResponse, limiters: limiters}
}

// limit narrows the broker's range of key; ok false drops the api.
func (vc *versionClamp) limit(key, lo, hi int16) (int16, int16, bool) {
	req, resp := vc.newRequest(key), vc.newResponse(key)
	if req == nil || resp == nil {
		return 0, 0, false
	}
	lo = max(lo, req.MinVersion(), resp.MinVersion())
	hi = min(hi, req.MaxVersion(), resp.MaxVersion())
	if vc.bridge != nil {
		// The union of what the broker serves and what the bridge
		// translates up to it.
		if b, ok := vc.bridge.Lowest(key); ok && b < lo && lo <= hi {
			lo = b
		}
	}
	if key == saslHandshakeKey {
		lo = max(lo, 1)
	}
	for _, l := range vc.limiters {
		var ok bool
		if lo, hi, ok = l.LimitVersions(key, lo, hi); !ok {
			return 0, 0, false
		}
	}
	return lo, hi, lo <= hi
}

// packageRange is the ApiVersions range the proxy reads, for KIP-511's answer
// to a version above it.
func (vc *versionClamp) packageRange() wire.VersionRange {
	lo, hi, _ := vc.limit(generated.APIKeyAPIVersions, 0, 0x7fff)
	return wire.VersionRange{APIKey: generated.APIKeyAPIVersions, MinVersion: lo, MaxVersion: hi}
}

// rewrite appends to dst the frame (size prefix included) of an ApiVersions
// response whose body, read at version, is body, with its api list
// narrowed and the feature levels that need what it took out lowered (see
// featureNeeds): everything else is kept byte for byte. With saslAtProxy
// (the proxy's answer before it authenticates the client itself),
// SaslHandshake keeps the lowest version of body.
func (vc *versionClamp) rewrite(dst []byte, correlationID int32, body []byte, version int16, saslAtProxy bool) ([]byte, error) {
	compact := version >= 3
	fail := func(what string, off int) ([]byte, error) {
		return dst, fmt.Errorf("ApiVersionsResponse v%d: %s at byte %d of a %d-byte body: %w", version, what, off, len(body), runtime.ErrShortBuffer)
	}
	if len(body) < 2 {
		return fail("the error code", 0)
	}
	off := 2
	var count int
	if compact {
		n, k := binary.Uvarint(body[off:])
		if k <= 0 || n == 0 {
			return fail("the api list's length", off)
		}
		count, off = int(n-1), off+k
	} else {
		if len(body) < off+4 {
			return fail("the api list's length", off)
		}
		count, off = int(int32(binary.BigEndian.Uint32(body[off:]))), off+4
	}
	b, start := frames.BeginFrame(dst)
	b = binary.BigEndian.AppendUint32(b, uint32(correlationID))
	b = append(b, body[:2]...)
	countAt := len(b)
	b = append(b, 0, 0, 0, 0) // the count, once known (compact: up to 4 bytes)
	kept := 0
	advertised := map[int16]int16{}
	for i := 0; i < count; i++ {
		entry := off
		if len(body) < off+6 {
			return fail(fmt.Sprintf("api %d of %d", i, count), off)
		}
		key := int16(binary.BigEndian.Uint16(body[off:]))
		bodyLo := int16(binary.BigEndian.Uint16(body[off+2:]))
		lo, hi, ok := vc.limit(key, bodyLo, int16(binary.BigEndian.Uint16(body[off+4:])))
		if ok && saslAtProxy && key == saslHandshakeKey {
			lo = min(lo, bodyLo)
		}
		off += 6
		if compact {
			end, err := skipTags(body, off)
			if err != nil {
				return fail(fmt.Sprintf("the tags of api %d (%v)", i, err), off)
			}
			off = end
		}
		if !ok {
			continue
		}
		kept++
		advertised[key] = hi
		b = binary.BigEndian.AppendUint16(b, uint16(key))
		b = binary.BigEndian.AppendUint16(b, uint16(lo))
		b = binary.BigEndian.AppendUint16(b, uint16(hi))
		b = append(b, body[entry+6:off]...)
	}
	restAt := len(b)
	b = append(b, body[off:]...)
	if err := clampFeatures(b[restAt:], version, advertised); err != nil {
		return dst, err
	}
	b = putCount(b, countAt, kept, compact)
	if err := frames.EndFrame(b, start); err != nil {
		return dst, err
	}
	return b, nil
}

// putCount writes the api count into the 4 bytes reserved at at: an int32,
// or a compact uvarint of count+1 with the bytes it does not use removed.
func putCount(b []byte, at, count int, compact bool) []byte {
	if !compact {
		binary.BigEndian.PutUint32(b[at:], uint32(count))
		return b
	}
	var v [binary.MaxVarintLen32]byte
	n := binary.PutUvarint(v[:], uint64(count)+1)
	copy(b[at:], v[:n])
	return append(b[:at+n], b[at+4:]...)
}

// skipTags returns the offset after the tag section at off.
func skipTags(b []byte, off int) (int, error) {
	n, k := binary.Uvarint(b[off:])
	if k <= 0 {
		return 0, runtime.ErrMalformedVarint
	}
	off += k
	for range n {
		if _, k = binary.Uvarint(b[off:]); k <= 0 {
			return 0, runtime.ErrMalformedVarint
		}
		off += k
		size, k := binary.Uvarint(b[off:])
		if k <= 0 || size > uint64(len(b)-off-k) {
			return 0, runtime.ErrInvalidLength
		}
		off += k + int(size)
	}
	return off, nil
}
