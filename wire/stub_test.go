package wire

import (
	"testing"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/runtime/codec"
	"github.com/kafkagen/kafkagen/wire/internal/wiretest"
)

// apiVersionsStub stands in for a generated ApiVersionsRequest (the main
// module's generated/ package has none): versions 0-3, flexible from 3, with
// an empty body (v3 and up: an empty tag section). It lets the tests take
// the one path Kafka answers instead of closing: an ApiVersions request
// above the supported range.
type apiVersionsStub struct{}

func (apiVersionsStub) Size(v int16) int {
	if v >= 3 {
		return 1
	}
	return 0
}

func (s apiVersionsStub) AppendTo(dst []byte, v int16) ([]byte, error) {
	if v >= 3 {
		return append(dst, 0), nil
	}
	return dst, nil
}

func (s apiVersionsStub) Decode(src []byte, v int16) (int, error) {
	if v < 3 {
		return 0, nil
	}
	if len(src) < 1 {
		return 0, &runtime.Error{Op: "decode", Message: "ApiVersionsRequest", Err: runtime.ErrShortBuffer}
	}
	return 1, nil
}

func (s apiVersionsStub) DecodeAliased(src []byte, v int16) (int, error) { return s.Decode(src, v) }
func (apiVersionsStub) Reset()                                           {}
func (apiVersionsStub) SpecName() string                                 { return "ApiVersionsRequest" }
func (apiVersionsStub) APIKey() int16                                    { return 18 }
func (apiVersionsStub) MinVersion() int16                                { return 0 }
func (apiVersionsStub) MaxVersion() int16                                { return 3 }
func (apiVersionsStub) IsFlexible(v int16) bool                          { return v >= 3 }
func (apiVersionsStub) IsRequest() bool                                  { return true }

// HeaderVersion follows Kafka's rule for requests: v2 when flexible, and it
// answers for versions above the range too, as Kafka's does.
func (apiVersionsStub) HeaderVersion(v int16) int16 {
	if v >= 3 {
		return 2
	}
	return 1
}

// testRequests is the server factory of the tests: generated/'s requests
// plus the ApiVersions stub.
func testRequests(key int16) runtime.APIMessage {
	if key == generated.APIKeyAPIVersions {
		return apiVersionsStub{}
	}
	return generated.NewRequest(key)
}

// apiVersionsResponseStub stands in for a generated ApiVersionsResponse:
// v0 is the error code and the api ranges (int32 count, then key, min and
// max); v1 to v3 add a throttle time after them, so that a v0 body does not
// read at those versions. Its header is v0 at every version, as Kafka's.
type apiVersionsResponseStub struct {
	ErrorCode int16
	Keys      []VersionRange
	Throttle  int32
}

func (s *apiVersionsResponseStub) Size(v int16) int {
	n := 2 + 4 + 6*len(s.Keys)
	if v >= 1 {
		n += 4
	}
	return n
}

func (s *apiVersionsResponseStub) AppendTo(dst []byte, v int16) ([]byte, error) {
	dst = codec.AppendInt16(dst, s.ErrorCode)
	dst = codec.AppendInt32(dst, int32(len(s.Keys)))
	for _, k := range s.Keys {
		dst = codec.AppendInt16(dst, k.APIKey)
		dst = codec.AppendInt16(dst, k.MinVersion)
		dst = codec.AppendInt16(dst, k.MaxVersion)
	}
	if v >= 1 {
		dst = codec.AppendInt32(dst, s.Throttle)
	}
	return dst, nil
}

func (s *apiVersionsResponseStub) Decode(src []byte, v int16) (int, error) {
	*s = apiVersionsResponseStub{}
	short := &runtime.Error{Op: "decode", Message: "ApiVersionsResponse", Version: v, Err: runtime.ErrShortBuffer}
	be := func(b []byte) int { return int(b[0])<<8 | int(b[1]) }
	if len(src) < 6 {
		return 0, short
	}
	s.ErrorCode = int16(be(src))
	count := be(src[2:])<<16 | be(src[4:])
	at := 6
	if count < 0 || len(src)-at < 6*count {
		return 0, short
	}
	for range count {
		s.Keys = append(s.Keys, VersionRange{APIKey: int16(be(src[at:])), MinVersion: int16(be(src[at+2:])), MaxVersion: int16(be(src[at+4:]))})
		at += 6
	}
	if v >= 1 {
		if len(src)-at < 4 {
			return 0, short
		}
		s.Throttle = int32(be(src[at:])<<16 | be(src[at+2:]))
		at += 4
	}
	return at, nil
}

func (s *apiVersionsResponseStub) DecodeAliased(src []byte, v int16) (int, error) {
	return s.Decode(src, v)
}
func (s *apiVersionsResponseStub) Reset()                  { *s = apiVersionsResponseStub{} }
func (*apiVersionsResponseStub) SpecName() string          { return "ApiVersionsResponse" }
func (*apiVersionsResponseStub) APIKey() int16             { return generated.APIKeyAPIVersions }
func (*apiVersionsResponseStub) MinVersion() int16         { return 0 }
func (*apiVersionsResponseStub) MaxVersion() int16         { return 3 }
func (*apiVersionsResponseStub) IsFlexible(int16) bool     { return false }
func (*apiVersionsResponseStub) IsRequest() bool           { return false }
func (*apiVersionsResponseStub) HeaderVersion(int16) int16 { return 0 }

func (s *apiVersionsResponseStub) mustAppend(v int16) []byte {
	b, _ := s.AppendTo(nil, v)
	return b
}

// unhex decodes a hex string of a test's bytes.
func unhex(t testing.TB, s string) []byte { t.Helper(); return wiretest.Unhex(t, s) }
