package recordsdiff

import (
	"reflect"
	"unsafe"

	"github.com/IBM/sarama"
	"github.com/rcrowley/go-metrics"
)

// sarama keeps its encoder and decoder entry points unexported; these pull
// them by name (go:linkname of a non-standard-library symbol). Each takes
// an interface value, two words, built from an exported place whose type
// is that interface: sarama.RequestResponse.Response is an `encoder`, and
// the second parameter of (*sarama.MockWrapper).For a `versionedDecoder`.

type saramaIface struct{ tab, data unsafe.Pointer }

//go:linkname saramaEncode github.com/IBM/sarama.encode
func saramaEncode(e saramaIface, reg metrics.Registry) ([]byte, error)

//go:linkname saramaVersionedDecode github.com/IBM/sarama.versionedDecode
func saramaVersionedDecode(buf []byte, in saramaIface, version int16, reg metrics.Registry) error

// encodeSarama runs sarama's own encoder over v (a *sarama.RecordBatch or
// *sarama.MessageSet): records, compression, lengths and CRC.
func encodeSarama(v any) ([]byte, error) {
	var rr sarama.RequestResponse
	reflect.ValueOf(&rr).Elem().FieldByName("Response").Set(reflect.ValueOf(v))
	return saramaEncode(*(*saramaIface)(unsafe.Pointer(&rr.Response)), nil)
}

var versionedDecoderType = reflect.TypeOf((*sarama.MockWrapper).For).In(1)

// decodeSaramaFetch decodes a Fetch response body with sarama.
func decodeSaramaFetch(body []byte, version int16) (*sarama.FetchResponse, error) {
	resp := &sarama.FetchResponse{}
	iface := reflect.New(versionedDecoderType)
	iface.Elem().Set(reflect.ValueOf(resp))
	err := saramaVersionedDecode(body, *(*saramaIface)(iface.UnsafePointer()), version, nil)
	return resp, err
}
