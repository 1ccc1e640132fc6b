package dynamic

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/runtime/codec"
)

// ErrFrame: a frame that no spec describes (an unknown api key, no header
// spec), or bytes left after its message.
var ErrFrame = errors.New("invalid frame")

// Frame is a decoded request or response (the header and the message), or
// a message of any other spec, without a header (Message.DecodeFrame).
type Frame struct {
	Request       bool
	Message       *Message // the body's spec
	Version       int16
	HeaderMessage *Message // nil without a header
	HeaderVersion int16
	Header        *Struct
	Body          *Struct
	CorrelationID int32
}

// DecodeRequest reads a request frame (without its size prefix): the api
// key and version from the header's first four bytes, the header at the
// version they call for, then the request. Errors are *runtime.Error with
// offsets from the frame's start.
func (s *Specs) DecodeRequest(frame []byte) (*Frame, error) {
	if err := s.Framing(); err != nil {
		return nil, &runtime.Error{Op: "decode", Message: "RequestHeader", Err: ErrFrame, Detail: err.Error()}
	}
	if len(frame) < 4 {
		return nil, &runtime.Error{Op: "decode", Message: "RequestHeader", Offset: 0, Err: runtime.ErrShortBuffer,
			Detail: fmt.Sprintf("need 4 bytes for the api key and version, have %d", len(frame))}
	}
	key := int16(binary.BigEndian.Uint16(frame))
	version := int16(binary.BigEndian.Uint16(frame[2:]))
	api := s.requests[key]
	if api == nil {
		return nil, &runtime.Error{Op: "decode", Message: "RequestHeader", Field: "RequestApiKey", Offset: 0, Err: ErrFrame,
			Detail: fmt.Sprintf("no request spec has api key %d", key)}
	}
	if vs := api.Spec.ValidVersions; !vs.Contains(version) {
		e := codec.UnsupportedVersion("decode", api.Spec.Name, version, vs.Lo, vs.Hi).(*runtime.Error)
		e.Offset = 2
		return nil, e
	}
	return s.decode(frame, true, api, version, s.requestHeader)
}

// DecodeResponse reads a response frame (without its size prefix) to a
// request of api key and version, which the frame itself does not name.
func (s *Specs) DecodeResponse(frame []byte, apiKey, version int16) (*Frame, error) {
	if err := s.Framing(); err != nil {
		return nil, &runtime.Error{Op: "decode", Message: "ResponseHeader", Err: ErrFrame, Detail: err.Error()}
	}
	api := s.responses[apiKey]
	if api == nil {
		return nil, &runtime.Error{Op: "decode", Message: "ResponseHeader", Offset: 0, Err: ErrFrame,
			Detail: fmt.Sprintf("no response spec has api key %d", apiKey)}
	}
	return s.decode(frame, false, api, version, s.responseHeader)
}

func (s *Specs) decode(frame []byte, request bool, api *Message, version int16, header *Message) (*Frame, error) {
	hversion := api.Spec.HeaderVersions().At(version)
	f := &Frame{Request: request, Message: api, Version: version, HeaderMessage: header, HeaderVersion: hversion}
	h, n, err := header.Decode(frame, hversion)
	if err != nil {
		return nil, err
	}
	f.Header = h
	if id, ok := h.Field("CorrelationId"); ok {
		f.CorrelationID = int32(id.Int)
	}
	body, m, err := api.Decode(frame[n:], version)
	if err != nil {
		if e, ok := err.(*runtime.Error); ok && e.Offset >= 0 {
			e.Offset += n
		}
		return f, err
	}
	f.Body = body
	if rest := len(frame) - n - m; rest > 0 {
		return f, &runtime.Error{Op: "decode", Message: api.Spec.Name, Version: version, Offset: n + m, Err: ErrFrame,
			Detail: fmt.Sprintf("%d bytes after the message", rest)}
	}
	return f, nil
}

// DecodeFrame reads a frame holding the message at version and nothing
// else: a metadata log record, a coordinator key or value, a snapshot
// record.
func (m *Message) DecodeFrame(frame []byte, version int16) (*Frame, error) {
	body, n, err := m.Decode(frame, version)
	if err != nil {
		return nil, err
	}
	if rest := len(frame) - n; rest > 0 {
		return nil, &runtime.Error{Op: "decode", Message: m.Spec.Name, Version: version, Offset: n, Err: ErrFrame,
			Detail: fmt.Sprintf("%d bytes after the message", rest)}
	}
	return &Frame{Message: m, Version: version, Body: body}, nil
}

// AppendJSON writes the frame as one JSON object: the message's name and
// version, then the header and the message under the keys Kafka's request
// log uses, or a headerless message under "message":
//
//	{"name":"FetchRequest","version":12,"requestHeader":{...},"request":{...}}
//	{"name":"FetchResponse","version":12,"responseHeader":{...},"response":{...}}
//	{"name":"PartitionChangeRecord","version":0,"message":{...}}
func (f *Frame) AppendJSON(b []byte, opts Options) ([]byte, error) {
	side := "response"
	if f.Request {
		side = "request"
	}
	b = append(b, `{"name":`...)
	b = codec.AppendJSONString(b, f.Message.Spec.Name)
	b = append(b, `,"version":`...)
	b = codec.AppendJSONInt(b, int64(f.Version))
	var err error
	if f.Header == nil {
		side = "message"
	} else {
		b = append(b, `,"`+side+`Header":`...)
		if b, err = f.HeaderMessage.AppendJSON(b, f.Header, f.HeaderVersion, opts); err != nil {
			return b, err
		}
	}
	b = append(b, `,"`+side+`":`...)
	if b, err = f.Message.AppendJSON(b, f.Body, f.Version, opts); err != nil {
		return b, err
	}
	return append(b, '}'), nil
}
