package wire

import (
	"errors"
	"fmt"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/frames"
	"github.com/kafkagen/kafkagen/wire/internal/readerr"
)

// Errors of requests that a server cannot serve. Kafka answers an ApiVersions
// request at an unsupported version (see UnsupportedRequestError.Answerable)
// and closes the connection for all the others.
var (
	// ErrUnknownAPIKey: the api key is not one the server's package knows.
	ErrUnknownAPIKey = errors.New("unknown api key")
	// ErrUnsupportedRequestVersion: the key is known, the version is not
	// supported. It wraps runtime.ErrUnsupportedVersion.
	ErrUnsupportedRequestVersion = fmt.Errorf("request %w", runtime.ErrUnsupportedVersion)
	// ErrTrailingBytes: a frame holds bytes after the message it carries
	// (the same error as frames.ErrTrailingBytes).
	ErrTrailingBytes = readerr.ErrTrailingBytes
)

// UnsupportedRequestError is a request with an unknown api key or a version
// outside the supported range. Header holds what could be read of the
// request header (key, version and correlation id always; the client id and
// tags when the key is known).
type UnsupportedRequestError struct {
	Header frames.RequestHeader
	// Min and Max are the supported versions of the key; both -1 for an
	// unknown key.
	Min, Max int16
	Err      error // ErrUnknownAPIKey or ErrUnsupportedRequestVersion
}

// Error names the api key, version and correlation id, and the supported
// versions when the key is known.
func (e *UnsupportedRequestError) Error() string {
	if e.Min < 0 {
		return fmt.Sprintf("kafka request: api key %d (version %d, correlation id %d): %v",
			e.Header.APIKey, e.Header.APIVersion, e.Header.CorrelationID, e.Err)
	}
	return fmt.Sprintf("kafka request: api key %d version %d (correlation id %d): %v: supported versions are %d to %d",
		e.Header.APIKey, e.Header.APIVersion, e.Header.CorrelationID, e.Err, e.Min, e.Max)
}

// Unwrap returns ErrUnknownAPIKey or ErrUnsupportedRequestVersion.
func (e *UnsupportedRequestError) Unwrap() error { return e.Err }

// Answerable reports whether Kafka answers this request instead of closing
// the connection: an ApiVersions request above the supported range, answered
// by frames.AppendAPIVersionsUnsupported.
func (e *UnsupportedRequestError) Answerable() bool {
	return e.Header.APIKey == generated.APIKeyAPIVersions && e.Min >= 0
}

// Request is a decoded request: its header and its body, a generated message
// of the right type for the api key.
type Request struct {
	Header frames.RequestHeader
	// HeaderVersion is the version Header was read at (the body's
	// HeaderVersion for its version); -1 when the api key is unknown.
	HeaderVersion int16
	// Body is the decoder's message for the api key, decoded at
	// Header.APIVersion; nil when decoding failed.
	Body runtime.APIMessage
	// Frame is the request's frame (without the size prefix); the body starts
	// at BodyOffset. A server that re-encodes requests to check them compares
	// against Frame[BodyOffset:].
	Frame      []byte
	BodyOffset int
}

// VersionRange is the versions of one api, as ApiVersionsResponse lists them.
type VersionRange struct {
	APIKey     int16
	MinVersion int16
	MaxVersion int16
}

// String is "key K vMIN-vMAX".
func (v VersionRange) String() string {
	return fmt.Sprintf("key %d v%d-v%d", v.APIKey, v.MinVersion, v.MaxVersion)
}

// RequestDecoder decodes request frames into the generated messages of one
// package, keeping one message per api key and decoding into it again on
// the next request of that key, so that steady-state decoding reuses memory.
type RequestDecoder struct {
	newRequest func(apiKey int16) runtime.APIMessage
	alias      bool
	aliasKeys  map[int16]bool // bodies aliased although alias is false
	limits     map[int16]VersionRange
	bodies     map[int16]runtime.APIMessage
}

// NewRequestDecoder decodes with newRequest, a generated package's
// NewRequest. With alias, bodies are decoded with DecodeAliased and their
// strings and byte slices point into the frame, which must then stay
// unchanged while the request is in use; without, they are copied. Limits,
// when not empty, narrows the versions accepted per key (a key not listed is
// refused) to what the server implements; it is what the server advertises
// in its ApiVersions answer.
func NewRequestDecoder(newRequest func(apiKey int16) runtime.APIMessage, alias bool, limits []VersionRange) *RequestDecoder {
	d := &RequestDecoder{newRequest: newRequest, alias: alias, bodies: map[int16]runtime.APIMessage{}}
	if len(limits) > 0 {
		d.limits = make(map[int16]VersionRange, len(limits))
		for _, l := range limits {
			d.limits[l.APIKey] = l
		}
	}
	return d
}

// AliasKeys makes the decoder decode the bodies of these api keys with
// DecodeAliased, as alias does for every key, and copy the others. Headers
// stay copied: every key shares one, and a copying decode keeps a client id
// equal to the one it holds, which could then still point into an earlier
// frame. A server that copies what it keeps of one large request (a
// broker's Produce, whose records go into its log) then holds it once
// instead of twice, while the handlers of the other keys keep what they
// like.
func (d *RequestDecoder) AliasKeys(keys ...int16) {
	d.aliasKeys = make(map[int16]bool, len(keys))
	for _, k := range keys {
		d.aliasKeys[k] = true
	}
}

// body returns the reused message of a key, or nil if the key is unknown.
func (d *RequestDecoder) body(key int16) runtime.APIMessage {
	if m, ok := d.bodies[key]; ok {
		return m
	}
	if d.limits != nil {
		if _, ok := d.limits[key]; !ok {
			return nil
		}
	}
	m := d.newRequest(key)
	if m != nil {
		d.bodies[key] = m
	}
	return m
}

// Range returns the versions of key that the decoder accepts.
func (d *RequestDecoder) Range(key int16) (VersionRange, bool) {
	m := d.body(key)
	if m == nil {
		return VersionRange{}, false
	}
	r := VersionRange{APIKey: key, MinVersion: m.MinVersion(), MaxVersion: m.MaxVersion()}
	if l, ok := d.limits[key]; ok {
		r.MinVersion = max(r.MinVersion, l.MinVersion)
		r.MaxVersion = min(r.MaxVersion, l.MaxVersion)
	}
	return r, r.MinVersion <= r.MaxVersion
}

// Decode decodes a request frame (without its size prefix) into req. The
// body is the decoder's message for the key, valid until the next Decode of
// the same key. An unknown key or unsupported version gives an
// *UnsupportedRequestError; a malformed header or body gives the
// *runtime.Error naming the field and byte offset.
func (d *RequestDecoder) Decode(frame []byte, req *Request) error {
	key, version, err := frames.PeekRequestKey(frame)
	if err != nil {
		return err
	}
	req.Frame, req.Body, req.BodyOffset = frame, nil, 0
	m := d.body(key)
	if m == nil {
		req.Header = frames.RequestHeader{APIKey: key, APIVersion: version, CorrelationID: peekCorrelation(frame)}
		req.HeaderVersion = -1
		return &UnsupportedRequestError{Header: req.Header, Min: -1, Max: -1, Err: ErrUnknownAPIKey}
	}
	req.HeaderVersion = m.HeaderVersion(version)
	n, err := req.Header.Decode(frame, req.HeaderVersion, d.alias)
	if err != nil {
		return err
	}
	r, ok := d.Range(key)
	if !ok || version < r.MinVersion || version > r.MaxVersion {
		return &UnsupportedRequestError{Header: req.Header, Min: r.MinVersion, Max: r.MaxVersion, Err: ErrUnsupportedRequestVersion}
	}
	var used int
	if d.alias || d.aliasKeys[key] {
		used, err = m.DecodeAliased(frame[n:], version)
	} else {
		used, err = m.Decode(frame[n:], version)
	}
	if err := readerr.Check(err, m, version, len(frame), n, used); err != nil {
		return err
	}
	req.Body, req.BodyOffset = m, n
	return nil
}

// peekCorrelation reads the correlation id of a request frame, 0 if short.
func peekCorrelation(frame []byte) int32 {
	if len(frame) < 8 {
		return 0
	}
	return int32(uint32(frame[4])<<24 | uint32(frame[5])<<16 | uint32(frame[6])<<8 | uint32(frame[7]))
}
