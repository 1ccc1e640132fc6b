package frames

import (
	"fmt"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/runtime/codec"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// AppendRequest appends one request frame to dst: size, header (h, at
// req's header version for h.APIVersion) and req encoded at h.APIVersion.
// h.APIKey must be req's api key.
func AppendRequest(dst []byte, h *RequestHeader, req runtime.APIMessage) ([]byte, error) {
	if h.APIKey != req.APIKey() {
		return dst, fmt.Errorf("kafka request: header api key %d, but the body is %s (key %d)", h.APIKey, req.SpecName(), req.APIKey())
	}
	b, start := BeginFrame(dst)
	b, err := h.AppendTo(b, req.HeaderVersion(h.APIVersion))
	if err != nil {
		return dst, err
	}
	if b, err = req.AppendTo(b, h.APIVersion); err != nil {
		return dst, err
	}
	if err := EndFrame(b, start); err != nil {
		return dst, err
	}
	return b, nil
}

// AppendResponse appends one response frame to dst: size, a response header
// holding correlationID at resp's header version for version, and resp
// encoded at version.
func AppendResponse(dst []byte, correlationID int32, resp runtime.APIMessage, version int16) ([]byte, error) {
	h := ResponseHeader{CorrelationID: correlationID}
	return AppendResponseHeader(dst, &h, resp, version)
}

// AppendResponseHeader is AppendResponse with a whole header, tags included.
func AppendResponseHeader(dst []byte, h *ResponseHeader, resp runtime.APIMessage, version int16) ([]byte, error) {
	b, start := BeginFrame(dst)
	b, err := h.AppendTo(b, resp.HeaderVersion(version))
	if err != nil {
		return dst, err
	}
	if b, err = resp.AppendTo(b, version); err != nil {
		return dst, err
	}
	if err := EndFrame(b, start); err != nil {
		return dst, err
	}
	return b, nil
}

// AppendAPIVersionsUnsupported appends the frame Kafka sends for an
// ApiVersions request above the supported range: response header v0 with
// the request's correlation id, and an ApiVersionsResponse v0 body with
// error UNSUPPORTED_VERSION (35) listing one api, ApiVersions itself with
// its supported range (minVersion to maxVersion), so that the client retries at a version it has in
// common with the server (Kafka's ApiVersionsRequest.getErrorResponse).
func AppendAPIVersionsUnsupported(dst []byte, correlationID int32, minVersion, maxVersion int16) []byte {
	b, start := BeginFrame(dst)
	b = codec.AppendInt32(b, correlationID)
	b = codec.AppendInt16(b, kerrors.UnsupportedVersion.Code)
	b = codec.AppendInt32(b, 1) // ApiKeys: one element
	b = codec.AppendInt16(b, generated.APIKeyAPIVersions)
	b = codec.AppendInt16(b, minVersion)
	b = codec.AppendInt16(b, maxVersion)
	_ = EndFrame(b, start) // 20 bytes always fit
	return b
}
