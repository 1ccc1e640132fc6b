package frames

import (
	"encoding/binary"
	"fmt"
	"sync"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/runtime"
)

// Header versions (Kafka's RequestHeader.json and ResponseHeader.json, of
// which schemas/ keeps the project's copies; the codec is the one kafkagen
// generates from them, package generated):
//
//	request v0:  int16 api key, int16 api version, int32 correlation id
//	request v1:  v0, then the client id: a nullable string with an int16 length
//	request v2:  v1, then a tag section (the client id keeps its int16 length)
//	response v0: int32 correlation id
//	response v1: v0, then a tag section
//
// A message's HeaderVersion method (runtime.APIMessage) says which version
// travels with each message version: request v0 only for ControlledShutdown
// v0, v2 for flexible versions and v1 otherwise; response v1 for flexible
// versions and v0 otherwise, except ApiVersions responses, always v0.

// RequestHeader is the header in front of every request body.
type RequestHeader struct {
	APIKey        int16
	APIVersion    int16
	CorrelationID int32
	// ClientID is absent from header v0 (and then not written).
	ClientID runtime.NullString
	// Tags are the header's tagged fields (v2 only). Kafka defines none, so
	// every tag read is kept here and written back as read.
	Tags runtime.Tags
}

// ResponseHeader is the header in front of every response body.
type ResponseHeader struct {
	CorrelationID int32
	// Tags are the header's tagged fields (v1 only), kept as read.
	Tags runtime.Tags
}

// The generated messages a header is encoded with: AppendTo holds on to
// its message (it is written through an interface), so a message on the
// stack would be moved to the heap at every call.
var (
	requestHeaders  = sync.Pool{New: func() any { return new(generated.RequestHeader) }}
	responseHeaders = sync.Pool{New: func() any { return new(generated.ResponseHeader) }}
)

// generated is h as the generated codec's message.
func (h *RequestHeader) generated() generated.RequestHeader {
	return generated.RequestHeader{RequestAPIKey: h.APIKey, RequestAPIVersion: h.APIVersion,
		CorrelationID: h.CorrelationID, ClientID: h.ClientID, UnknownTags: h.Tags}
}

// Size is the encoded length of h at header version v (0, 1 or 2), or -1
// at another version.
func (h *RequestHeader) Size(v int16) int {
	g := h.generated()
	return g.Size(v)
}

// AppendTo appends h at header version v (0, 1 or 2) to dst. A client id over
// 32767 bytes, tags at a version without a tag section, or tags out of order
// are errors, and dst is returned unchanged.
func (h *RequestHeader) AppendTo(dst []byte, v int16) ([]byte, error) {
	g := requestHeaders.Get().(*generated.RequestHeader)
	*g = h.generated()
	b, err := g.AppendTo(dst, v)
	*g = generated.RequestHeader{} // keep nothing of h in the pool
	requestHeaders.Put(g)
	return b, err
}

// Decode resets h and decodes it from the start of src at header version v,
// returning the bytes read. With alias the client id and tag data point into
// src; without, they are copied (an unchanged client id is kept, so decoding
// a stream from one client allocates nothing).
func (h *RequestHeader) Decode(src []byte, v int16, alias bool) (int, error) {
	g := h.generated()
	var n int
	var err error
	if alias {
		n, err = g.DecodeAliased(src, v)
	} else {
		n, err = g.Decode(src, v)
	}
	h.APIKey, h.APIVersion, h.CorrelationID = g.RequestAPIKey, g.RequestAPIVersion, g.CorrelationID
	h.ClientID, h.Tags = g.ClientID, g.UnknownTags
	if v < 1 {
		h.ClientID = runtime.NullString{} // header v0 has none: not its spec default
	}
	return n, tagSectionError(err, v >= 2)
}

// PeekRequestKey returns the api key and version at the start of a request
// frame, which decide its header version.
func PeekRequestKey(frame []byte) (apiKey, version int16, err error) {
	if len(frame) < 4 {
		return 0, 0, &runtime.Error{Op: "decode", Message: "RequestHeader", Field: "RequestApiVersion", Offset: len(frame),
			Err: runtime.ErrShortBuffer, Detail: fmt.Sprintf("need 4 bytes for the api key and version, have %d", len(frame))}
	}
	return int16(binary.BigEndian.Uint16(frame)), int16(binary.BigEndian.Uint16(frame[2:])), nil
}

// generated is h as the generated codec's message.
func (h *ResponseHeader) generated() generated.ResponseHeader {
	return generated.ResponseHeader{CorrelationID: h.CorrelationID, UnknownTags: h.Tags}
}

// Size is the encoded length of h at header version v (0 or 1), or -1 at
// another version.
func (h *ResponseHeader) Size(v int16) int {
	g := h.generated()
	return g.Size(v)
}

// AppendTo appends h at header version v (0 or 1) to dst.
func (h *ResponseHeader) AppendTo(dst []byte, v int16) ([]byte, error) {
	g := responseHeaders.Get().(*generated.ResponseHeader)
	*g = h.generated()
	b, err := g.AppendTo(dst, v)
	*g = generated.ResponseHeader{}
	responseHeaders.Put(g)
	return b, err
}

// Decode resets h and decodes it from the start of src at header version v,
// returning the bytes read; with alias, tag data points into src.
func (h *ResponseHeader) Decode(src []byte, v int16, alias bool) (int, error) {
	g := h.generated()
	var n int
	var err error
	if alias {
		n, err = g.DecodeAliased(src, v)
	} else {
		n, err = g.Decode(src, v)
	}
	h.CorrelationID, h.Tags = g.CorrelationID, g.UnknownTags
	return n, tagSectionError(err, v >= 1)
}

// tagSectionError names the tag section in the path of a decoding error
// that no field of the header claims: with a tag section (tagged), such an
// error happened in it, Kafka defining no header tag.
func tagSectionError(err error, tagged bool) error {
	if e, ok := err.(*runtime.Error); ok && tagged && e.Field == "" && e.Err != runtime.ErrUnsupportedVersion {
		e.Field = "_tagged_fields"
	}
	return err
}
