package wire

import (
	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/runtime"
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
	if key == APIVersionsKey {
		return apiVersionsStub{}
	}
	return generated.NewRequest(key)
}
