// Package downstream is a module that uses kafkagen the way a user's module
// does: kafkagen is a tool of the module (go.mod's tool directive), the
// messages package is generated from the spec files in specs/ by go generate,
// and frame_test.go pins the result with golden round trips of known frames.
//
// The code here reads and writes whole Kafka frames (a 4-byte size, a header,
// a body) with the generated types; it is the part a user writes by hand.
package downstream

//go:generate go tool kafkagen -json -in specs -out messages -package messages

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"example.com/downstream/messages"
	"github.com/kafkagen/kafkagen/runtime"
)

// ErrFrame reports a frame that is not a whole, known request or response.
var ErrFrame = errors.New("bad frame")

// Request is one decoded request frame.
type Request struct {
	Header messages.RequestHeader
	// Body is a *messages.BrokerHeartbeatRequest, or another request of the
	// package, at version Header.RequestAPIVersion.
	Body runtime.APIMessage
}

// ReadRequest decodes a request frame. The header's first four bytes (API
// key and version) choose the body type and the header version.
func ReadRequest(frame []byte) (*Request, error) {
	payload, err := framePayload(frame)
	if err != nil {
		return nil, err
	}
	if len(payload) < 4 {
		return nil, fmt.Errorf("%w: %d bytes cannot hold an API key and version", ErrFrame, len(payload))
	}
	key := int16(binary.BigEndian.Uint16(payload))
	version := int16(binary.BigEndian.Uint16(payload[2:]))
	req := &Request{Body: messages.NewRequest(key)}
	if req.Body == nil {
		return nil, fmt.Errorf("%w: unknown API key %d", ErrFrame, key)
	}
	n, err := req.Header.Decode(payload, req.Body.HeaderVersion(version))
	if err != nil {
		return nil, err
	}
	if err := decodeBody(req.Body, payload[n:], version); err != nil {
		return nil, err
	}
	return req, nil
}

// AppendTo appends the request as a frame to dst.
func (r *Request) AppendTo(dst []byte) ([]byte, error) {
	version := r.Header.RequestAPIVersion
	return appendFrame(dst, &r.Header, r.Body.HeaderVersion(version), r.Body, version)
}

// Response is one decoded response frame.
type Response struct {
	Header messages.ResponseHeader
	Body   runtime.APIMessage
}

// ReadResponse decodes a response frame to a request of API key at
// version: a response does not name its API, the client knows it from the
// correlation id.
func ReadResponse(frame []byte, key, version int16) (*Response, error) {
	payload, err := framePayload(frame)
	if err != nil {
		return nil, err
	}
	resp := &Response{Body: messages.NewResponse(key)}
	if resp.Body == nil {
		return nil, fmt.Errorf("%w: unknown API key %d", ErrFrame, key)
	}
	n, err := resp.Header.Decode(payload, resp.Body.HeaderVersion(version))
	if err != nil {
		return nil, err
	}
	if err := decodeBody(resp.Body, payload[n:], version); err != nil {
		return nil, err
	}
	return resp, nil
}

// AppendTo appends the response at version as a frame to dst.
func (r *Response) AppendTo(dst []byte, version int16) ([]byte, error) {
	return appendFrame(dst, &r.Header, r.Body.HeaderVersion(version), r.Body, version)
}

// framePayload checks the size prefix and returns what follows it.
func framePayload(frame []byte) ([]byte, error) {
	if len(frame) < 4 {
		return nil, fmt.Errorf("%w: %d bytes cannot hold the size", ErrFrame, len(frame))
	}
	size := binary.BigEndian.Uint32(frame)
	if uint64(size) != uint64(len(frame)-4) {
		return nil, fmt.Errorf("%w: size %d, but %d bytes follow it", ErrFrame, size, len(frame)-4)
	}
	return frame[4:], nil
}

// decodeBody decodes src as the whole body.
func decodeBody(body runtime.Message, src []byte, version int16) error {
	n, err := body.Decode(src, version)
	if err != nil {
		return err
	}
	if n != len(src) {
		return fmt.Errorf("%w: %d bytes after the body", ErrFrame, len(src)-n)
	}
	return nil
}

// appendFrame writes the size, the header and the body, sizing the frame
// first so that dst grows at most once.
func appendFrame(dst []byte, header runtime.Message, headerVersion int16, body runtime.Message, version int16) ([]byte, error) {
	size := header.Size(headerVersion) + body.Size(version)
	dst = slices.Grow(dst, 4+size)
	out := binary.BigEndian.AppendUint32(dst, uint32(size))
	out, err := header.AppendTo(out, headerVersion)
	if err != nil {
		return dst, err
	}
	out, err = body.AppendTo(out, version)
	if err != nil {
		return dst, err
	}
	return out, nil
}
