package dynamic

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sort"

	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/runtime"
)

// Specs are the messages of a spec folder a frame can hold: requests and
// responses by api key, and the request and response headers.
type Specs struct {
	Requests       map[int16]*schema.Spec
	Responses      map[int16]*schema.Spec
	RequestHeader  *schema.Spec
	ResponseHeader *schema.Spec
}

// ErrFrame: a frame that no spec describes (an unknown api key, no header
// spec), or bytes left after its message.
var ErrFrame = errors.New("invalid frame")

// NewSpecs indexes loaded specs for framing. It fails when the folder has no
// RequestHeader and ResponseHeader specs or no request.
func NewSpecs(specs []*schema.Spec) (*Specs, error) {
	s := &Specs{Requests: map[int16]*schema.Spec{}, Responses: map[int16]*schema.Spec{}}
	for _, spec := range specs {
		switch {
		case spec.Type == schema.TypeHeader && spec.Name == "RequestHeader":
			s.RequestHeader = spec
		case spec.Type == schema.TypeHeader && spec.Name == "ResponseHeader":
			s.ResponseHeader = spec
		case spec.Type == schema.TypeRequest && spec.HasAPIKey:
			s.Requests[spec.APIKey] = spec
		case spec.Type == schema.TypeResponse && spec.HasAPIKey:
			s.Responses[spec.APIKey] = spec
		}
	}
	switch {
	case s.RequestHeader == nil || s.ResponseHeader == nil:
		return nil, errors.New("the spec folder has no RequestHeader.json and ResponseHeader.json")
	case len(s.Requests) == 0:
		return nil, errors.New("the spec folder has no request specs")
	}
	return s, nil
}

// APIKeys lists the api keys with a request spec, ascending.
func (s *Specs) APIKeys() []int16 {
	keys := make([]int16, 0, len(s.Requests))
	for k := range s.Requests {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	return keys
}

// RequestHeaderVersion is the request header version that version of api
// travels with: 2 at flexible versions, else 1, and 0 for
// ControlledShutdown v0 (whose header has no client id).
func RequestHeaderVersion(api *schema.Spec, version int16) int16 {
	switch {
	case api.APIKey == 7 && version == 0:
		return 0
	case api.FlexibleVersions.Contains(version):
		return 2
	}
	return 1
}

// ResponseHeaderVersion is the response header version: 1 at flexible
// versions, else 0, and always 0 for ApiVersions (KIP-511: a client must
// read the error of a version the broker does not support).
func ResponseHeaderVersion(api *schema.Spec, version int16) int16 {
	if api.APIKey != 18 && api.FlexibleVersions.Contains(version) {
		return 1
	}
	return 0
}

// Frame is a decoded request or response (the header and the message), or
// a message of any other spec, without a header (DecodeMessage).
type Frame struct {
	Request       bool
	Spec          *schema.Spec // the message's
	Version       int16
	HeaderSpec    *schema.Spec
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
	if len(frame) < 4 {
		return nil, &runtime.Error{Op: "decode", Message: "RequestHeader", Offset: 0, Err: runtime.ErrShortBuffer,
			Detail: fmt.Sprintf("need 4 bytes for the api key and version, have %d", len(frame))}
	}
	key := int16(binary.BigEndian.Uint16(frame))
	version := int16(binary.BigEndian.Uint16(frame[2:]))
	api := s.Requests[key]
	if api == nil {
		return nil, &runtime.Error{Op: "decode", Message: "RequestHeader", Field: "RequestApiKey", Offset: 0, Err: ErrFrame,
			Detail: fmt.Sprintf("no request spec has api key %d", key)}
	}
	if !api.ValidVersions.Contains(version) {
		e := runtime.UnsupportedVersion("decode", api.Name, version, api.ValidVersions.Lo, api.ValidVersions.Hi).(*runtime.Error)
		e.Offset = 2
		return nil, e
	}
	return s.decode(frame, true, api, version, s.RequestHeader, RequestHeaderVersion(api, version))
}

// DecodeResponse reads a response frame (without its size prefix) to a
// request of api key and version, which the frame itself does not name.
func (s *Specs) DecodeResponse(frame []byte, key, version int16) (*Frame, error) {
	api := s.Responses[key]
	if api == nil {
		return nil, &runtime.Error{Op: "decode", Message: "ResponseHeader", Offset: 0, Err: ErrFrame,
			Detail: fmt.Sprintf("no response spec has api key %d", key)}
	}
	return s.decode(frame, false, api, version, s.ResponseHeader, ResponseHeaderVersion(api, version))
}

func (s *Specs) decode(frame []byte, request bool, api *schema.Spec, version int16, hspec *schema.Spec, hversion int16) (*Frame, error) {
	f := &Frame{Request: request, Spec: api, Version: version, HeaderSpec: hspec, HeaderVersion: hversion}
	header, n, err := Decode(hspec, frame, hversion)
	if err != nil {
		return nil, err
	}
	f.Header = header
	if i := fieldIndex(hspec.Root, "CorrelationId"); i >= 0 {
		f.CorrelationID = int32(header.Fields[i].Int)
	}
	body, m, err := Decode(api, frame[n:], version)
	if err != nil {
		if e, ok := err.(*runtime.Error); ok && e.Offset >= 0 {
			e.Offset += n
		}
		return f, err
	}
	f.Body = body
	if rest := len(frame) - n - m; rest > 0 {
		return f, &runtime.Error{Op: "decode", Message: api.Name, Version: version, Offset: n + m, Err: ErrFrame,
			Detail: fmt.Sprintf("%d bytes after the message", rest)}
	}
	return f, nil
}

// DecodeMessage reads a frame holding one message of spec at version and
// nothing else: a metadata log record, a coordinator key or value, a
// snapshot record.
func DecodeMessage(spec *schema.Spec, frame []byte, version int16) (*Frame, error) {
	body, n, err := Decode(spec, frame, version)
	if err != nil {
		return nil, err
	}
	if rest := len(frame) - n; rest > 0 {
		return nil, &runtime.Error{Op: "decode", Message: spec.Name, Version: version, Offset: n, Err: ErrFrame,
			Detail: fmt.Sprintf("%d bytes after the message", rest)}
	}
	return &Frame{Spec: spec, Version: version, Body: body}, nil
}

func fieldIndex(def *schema.Struct, name string) int {
	for i, f := range def.Fields {
		if f.Name == name {
			return i
		}
	}
	return -1
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
	b = runtime.AppendJSONString(b, f.Spec.Name)
	b = append(b, `,"version":`...)
	b = runtime.AppendJSONInt(b, int64(f.Version))
	var err error
	if f.Header == nil {
		side = "message"
	} else {
		b = append(b, `,"`+side+`Header":`...)
		if b, err = AppendJSON(b, f.HeaderSpec, f.Header, f.HeaderVersion, opts); err != nil {
			return b, err
		}
	}
	b = append(b, `,"`+side+`":`...)
	if b, err = AppendJSON(b, f.Spec, f.Body, f.Version, opts); err != nil {
		return b, err
	}
	return append(b, '}'), nil
}
