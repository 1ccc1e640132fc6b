package wire

import (
	"encoding/binary"
	"fmt"

	"github.com/kafkagen/kafkagen/runtime"
)

// Header versions (Kafka's RequestHeader.json and ResponseHeader.json):
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

// headerError builds the error of a header that cannot be encoded.
func headerError(message string, version int16, detail string, err error) error {
	return &runtime.Error{Op: "encode", Message: message, Version: version, Offset: -1, Err: err, Detail: detail}
}

// Size is the encoded length of h at header version v.
func (h *RequestHeader) Size(v int16) int {
	n := 8
	if v >= 1 {
		n += 2
		if h.ClientID.Valid {
			n += len(h.ClientID.Value)
		}
	}
	if v >= 2 {
		n += h.Tags.SectionSize()
	}
	return n
}

// AppendTo appends h at header version v (0, 1 or 2) to dst. A client id over
// 32767 bytes, tags at a version without a tag section, or tags out of order
// are errors, and dst is returned unchanged.
func (h *RequestHeader) AppendTo(dst []byte, v int16) ([]byte, error) {
	if v < 0 || v > 2 {
		return dst, runtime.UnsupportedVersion("encode", "RequestHeader", v, 0, 2)
	}
	if v < 2 && len(h.Tags) > 0 {
		return dst, headerError("RequestHeader", v, "", runtime.ErrTaggedFields)
	}
	if v >= 1 && len(h.ClientID.Value) > runtime.MaxStringLen {
		return dst, headerError("RequestHeader", v, fmt.Sprintf("ClientId is %d bytes", len(h.ClientID.Value)), runtime.ErrStringTooLong)
	}
	b := binary.BigEndian.AppendUint16(dst, uint16(h.APIKey))
	b = binary.BigEndian.AppendUint16(b, uint16(h.APIVersion))
	b = binary.BigEndian.AppendUint32(b, uint32(h.CorrelationID))
	if v >= 1 {
		b = runtime.AppendNullString(b, h.ClientID, false)
	}
	if v >= 2 {
		var err error
		if b, err = runtime.AppendTagSection(b, h.Tags, -1); err != nil {
			return dst, runtime.Finish(err, "RequestHeader", v)
		}
	}
	return b, nil
}

// Decode resets h and decodes it from the start of src at header version v,
// returning the bytes read. With alias the client id and tag data point into
// src; without, they are copied (an unchanged client id is kept, so decoding
// a stream from one client allocates nothing).
func (h *RequestHeader) Decode(src []byte, v int16, alias bool) (int, error) {
	if v < 0 || v > 2 {
		return 0, runtime.UnsupportedVersion("decode", "RequestHeader", v, 0, 2)
	}
	var d runtime.Decoder
	initDecoder(&d, src, alias)
	p := d.Fixed(0, 8)
	if p == nil {
		end := d.FailRun(0, []int{2, 4, 8}, []string{"RequestApiKey", "RequestApiVersion", "CorrelationId"})
		return d.Finish("RequestHeader", v, end)
	}
	h.APIKey = int16(binary.BigEndian.Uint16(p))
	h.APIVersion = int16(binary.BigEndian.Uint16(p[2:]))
	h.CorrelationID = int32(binary.BigEndian.Uint32(p[4:]))
	off := 8
	if v >= 1 {
		// Classic in v2 too: only the tag section is flexible.
		h.ClientID, off = d.NullString(off, runtime.Classic, h.ClientID, "ClientId")
	} else {
		h.ClientID = runtime.NullString{}
	}
	h.Tags = h.Tags[:0]
	if v >= 2 {
		off = readTags(&d, off, &h.Tags)
	}
	return d.Finish("RequestHeader", v, off)
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

// Size is the encoded length of h at header version v.
func (h *ResponseHeader) Size(v int16) int {
	if v >= 1 {
		return 4 + h.Tags.SectionSize()
	}
	return 4
}

// AppendTo appends h at header version v (0 or 1) to dst.
func (h *ResponseHeader) AppendTo(dst []byte, v int16) ([]byte, error) {
	if v < 0 || v > 1 {
		return dst, runtime.UnsupportedVersion("encode", "ResponseHeader", v, 0, 1)
	}
	if v < 1 && len(h.Tags) > 0 {
		return dst, headerError("ResponseHeader", v, "", runtime.ErrTaggedFields)
	}
	b := binary.BigEndian.AppendUint32(dst, uint32(h.CorrelationID))
	if v >= 1 {
		var err error
		if b, err = runtime.AppendTagSection(b, h.Tags, -1); err != nil {
			return dst, runtime.Finish(err, "ResponseHeader", v)
		}
	}
	return b, nil
}

// Decode resets h and decodes it from the start of src at header version v,
// returning the bytes read; with alias, tag data points into src.
func (h *ResponseHeader) Decode(src []byte, v int16, alias bool) (int, error) {
	if v < 0 || v > 1 {
		return 0, runtime.UnsupportedVersion("decode", "ResponseHeader", v, 0, 1)
	}
	var d runtime.Decoder
	initDecoder(&d, src, alias)
	var off int
	h.CorrelationID, off = d.Int32(0, "CorrelationId")
	h.Tags = h.Tags[:0]
	if v >= 1 {
		off = readTags(&d, off, &h.Tags)
	}
	return d.Finish("ResponseHeader", v, off)
}

// initDecoder prepares d to decode src, aliasing it or not.
func initDecoder(d *runtime.Decoder, src []byte, alias bool) {
	if alias {
		d.InitAliased(src)
	} else {
		d.Init(src)
	}
}

// readTags reads a header's tag section at off into *tags, which the caller
// has emptied: Kafka defines no header tag, so every tag read is kept as
// unknown. A failure inside the section is reported under _tagged_fields.
func readTags(d *runtime.Decoder, off int, tags *runtime.Tags) int {
	return d.Within(off, d.Tags(off, tags), "_tagged_fields")
}
