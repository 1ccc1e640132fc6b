// Package saramashim calls sarama's own codec for protocol bodies, which
// sarama does not export: (*MetadataResponse).decode, .encode and the
// package-level encode and versionedDecode its broker code calls are all
// unexported, and so are the interfaces they take. The benchmarks (bench/)
// measure sarama through it and recordsdiff compares records/ with it.
//
// The two entry points are pulled by name with go:linkname (allowed for
// symbols outside the standard library). The interface values they take
// are built from exported places whose types are those interfaces: the
// field sarama.RequestResponse.Response is an encoder, and the second
// parameter of (*sarama.MockWrapper).For a versionedDecoder. An interface
// value is two words (itab, data) in Go's ABI, which is what Iface is.
package saramashim

import (
	"reflect"
	"unsafe"

	"github.com/IBM/sarama"
	"github.com/rcrowley/go-metrics"
)

// Iface is an interface value of one of sarama's unexported codec
// interfaces: its type word and its data word.
type Iface struct{ Tab, Data unsafe.Pointer }

//go:linkname saramaEncode github.com/IBM/sarama.encode
func saramaEncode(e Iface, reg metrics.Registry) ([]byte, error)

//go:linkname saramaVersionedDecode github.com/IBM/sarama.versionedDecode
func saramaVersionedDecode(buf []byte, in Iface, version int16, reg metrics.Registry) error

var versionedDecoderType = reflect.TypeOf((*sarama.MockWrapper).For).In(1)

// Encoder returns the encoder interface value of body (a sarama request
// or response body, *sarama.RecordBatch or *sarama.MessageSet), for
// Encode. It panics unless body implements sarama's encoder.
func Encoder(body any) Iface {
	var rr sarama.RequestResponse
	reflect.ValueOf(&rr).Elem().FieldByName("Response").Set(reflect.ValueOf(body))
	return *(*Iface)(unsafe.Pointer(&rr.Response))
}

// Decoder returns the versionedDecoder interface value of body, for
// Decode. It panics unless body implements sarama's versionedDecoder.
func Decoder(body any) Iface {
	v := reflect.New(versionedDecoderType)
	v.Elem().Set(reflect.ValueOf(body))
	return *(*Iface)(v.UnsafePointer())
}

// Encode is sarama's encode(body, nil): a sizing pass, then a freshly
// allocated buffer filled by a second pass.
func Encode(e Iface) ([]byte, error) { return saramaEncode(e, nil) }

// Decode is sarama's versionedDecode(buf, body, version, nil).
func Decode(buf []byte, d Iface, version int16) error {
	return saramaVersionedDecode(buf, d, version, nil)
}
