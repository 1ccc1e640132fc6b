package frames

import (
	"fmt"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/internal/readerr"
)

// ErrTrailingBytes: a frame holds bytes after the message it carries (the
// same error as wire.ErrTrailingBytes).
var ErrTrailingBytes = readerr.ErrTrailingBytes

// DecodedResponse is a response decoded for the request it answers.
type DecodedResponse struct {
	Header ResponseHeader
	// Version is the version the body was read at: the request's, or 0 for
	// the ApiVersions answer of KIP-511.
	Version int16
	// Body is the decoder's message for the api key; nil when decoding
	// failed.
	Body runtime.APIMessage
	// Frame is the response's frame (without the size prefix); the body
	// starts at BodyOffset.
	Frame      []byte
	BodyOffset int
}

// ResponseDecoder decodes response frames into the generated messages of one
// package, keeping one message per api key and decoding into it again, so
// that steady-state decoding reuses memory.
type ResponseDecoder struct {
	newResponse func(apiKey int16) runtime.APIMessage
	alias       bool
	bodies      map[int16]runtime.APIMessage
}

// NewResponseDecoder decodes with newResponse, a generated package's
// NewResponse; with alias, bodies alias the frame (see NewRequestDecoder).
func NewResponseDecoder(newResponse func(apiKey int16) runtime.APIMessage, alias bool) *ResponseDecoder {
	return &ResponseDecoder{newResponse: newResponse, alias: alias, bodies: map[int16]runtime.APIMessage{}}
}

// Decode decodes a response frame (without its size prefix) answering f. An
// ApiVersions body that does not read at the version asked is read at v0:
// it is Kafka's UNSUPPORTED_VERSION answer (KIP-511). The body is the
// decoder's message for the key, valid until the next Decode of that key.
func (d *ResponseDecoder) Decode(frame []byte, f InFlight, resp *DecodedResponse) error {
	resp.Frame, resp.Body, resp.BodyOffset, resp.Version = frame, nil, 0, f.APIVersion
	m, ok := d.bodies[f.APIKey]
	if !ok {
		if m = d.newResponse(f.APIKey); m != nil {
			d.bodies[f.APIKey] = m
		}
	}
	if m == nil || f.ResponseHeaderVersion < 0 {
		return fmt.Errorf("kafka response to api key %d v%d (correlation id %d): the package cannot read it (%w): relay it as bytes",
			f.APIKey, f.APIVersion, f.CorrelationID, runtime.ErrUnsupportedVersion)
	}
	n, err := resp.Header.Decode(frame, f.ResponseHeaderVersion, d.alias)
	if err != nil {
		return err
	}
	used, err := d.body(m, frame[n:], f.APIVersion)
	if (err != nil || n+used != len(frame)) && f.APIKey == generated.APIKeyAPIVersions && f.APIVersion > 0 {
		if used0, err0 := d.body(m, frame[n:], 0); err0 == nil && n+used0 == len(frame) {
			used, err, resp.Version = used0, nil, 0
		}
	}
	if err := readerr.Check(err, m, f.APIVersion, len(frame), n, used); err != nil {
		return err
	}
	resp.Body, resp.BodyOffset = m, n
	return nil
}

// body decodes src into m at version, aliased or not.
func (d *ResponseDecoder) body(m runtime.APIMessage, src []byte, version int16) (int, error) {
	if d.alias {
		return m.DecodeAliased(src, version)
	}
	return m.Decode(src, version)
}
