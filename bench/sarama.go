package bench

import (
	"reflect"
	"unsafe"

	"github.com/IBM/sarama"
	"github.com/rcrowley/go-metrics"
)

// sarama exports no codec for protocol bodies: (*MetadataResponse).decode,
// .encode and the package-level encode/versionedDecode that its broker code
// calls are all unexported, and so are the interfaces they take. To measure
// what sarama does on the wire we pull its two entry points with
// go:linkname (allowed for non-standard-library symbols) and build the
// interface values they take from exported places that carry those
// interface types:
//   - encoder: the exported field sarama.RequestResponse.Response;
//   - versionedDecoder: the parameter of the exported (*MockWrapper).For.
// An interface value is two words (itab, data) in Go's ABI, which is what
// saramaIface is.

type saramaIface struct{ tab, data unsafe.Pointer }

//go:linkname saramaEncode github.com/IBM/sarama.encode
func saramaEncode(e saramaIface, reg metrics.Registry) ([]byte, error)

//go:linkname saramaVersionedDecode github.com/IBM/sarama.versionedDecode
func saramaVersionedDecode(buf []byte, in saramaIface, version int16, reg metrics.Registry) error

var versionedDecoderType = reflect.TypeOf((*sarama.MockWrapper).For).In(1)

// saramaBody is a sarama request or response body, such as
// *sarama.MetadataResponse.
type saramaBody any

// saramaEncoder returns the encoder interface value of body, for saramaEncodeBody.
func saramaEncoder(body saramaBody) saramaIface {
	var rr sarama.RequestResponse
	v := reflect.ValueOf(&rr).Elem().FieldByName("Response")
	v.Set(reflect.ValueOf(body)) // panics unless body implements sarama's encoder
	return *(*saramaIface)(unsafe.Pointer(&rr.Response))
}

// saramaDecoder returns the versionedDecoder interface value of body, for
// saramaDecodeBody.
func saramaDecoder(body saramaBody) saramaIface {
	v := reflect.New(versionedDecoderType)
	v.Elem().Set(reflect.ValueOf(body)) // panics unless body implements versionedDecoder
	return *(*saramaIface)(v.UnsafePointer())
}

// saramaEncodeBody is sarama's encode(body, nil): a sizing pass, then a freshly
// allocated buffer filled by a second pass.
func saramaEncodeBody(e saramaIface) ([]byte, error) { return saramaEncode(e, nil) }

// saramaDecodeBody is sarama's versionedDecode(buf, body, version, nil).
func saramaDecodeBody(buf []byte, d saramaIface, version int16) error {
	return saramaVersionedDecode(buf, d, version, nil)
}
