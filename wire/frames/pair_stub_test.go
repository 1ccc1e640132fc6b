package frames

import (
	"encoding/binary"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/runtime"
)

// produceStub stands in for a generated Produce request or response (the
// main module's generated/ has no Produce): versions 0-11, flexible from 9,
// which is all pairing asks of it. Its codec methods are never called.
type produceStub struct{ response bool }

func (produceStub) Size(int16) int { return -1 }
func (produceStub) AppendTo(dst []byte, v int16) ([]byte, error) {
	return dst, runtime.ErrUnsupportedVersion
}
func (produceStub) Decode([]byte, int16) (int, error) { return 0, runtime.ErrUnsupportedVersion }
func (produceStub) DecodeAliased(src []byte, v int16) (int, error) {
	return 0, runtime.ErrUnsupportedVersion
}
func (produceStub) Reset() {}
func (s produceStub) SpecName() string {
	return map[bool]string{false: "ProduceRequest", true: "ProduceResponse"}[s.response]
}
func (produceStub) APIKey() int16                 { return produceKey }
func (produceStub) MinVersion() int16             { return 0 }
func (produceStub) MaxVersion() int16             { return 11 }
func (produceStub) IsFlexible(v int16) bool       { return v >= 9 }
func (s produceStub) IsRequest() bool             { return !s.response }
func (s produceStub) HeaderVersion(v int16) int16 { return headerVersionRule(s.response, v >= 9) }

// headerVersionRule is Kafka's header version of a message that is not
// ApiVersions or ControlledShutdown v0.
func headerVersionRule(response, flexible bool) int16 {
	switch {
	case response && flexible:
		return 1
	case response:
		return 0
	case flexible:
		return 2
	}
	return 1
}

// pairRequests and pairResponses are the package of the pairing tests:
// generated/ (ApiVersions 0-4, SaslHandshake, StopReplica...) and Produce.
func pairRequests(key int16) runtime.APIMessage {
	return withProduce(key, produceStub{}, generated.NewRequest)
}

func pairResponses(key int16) runtime.APIMessage {
	return withProduce(key, produceStub{response: true}, generated.NewResponse)
}

func withProduce(key int16, produce runtime.APIMessage, others func(int16) runtime.APIMessage) runtime.APIMessage {
	if key == produceKey {
		return produce
	}
	return others(key)
}

// produceFrame builds the start of a Produce request frame (no size prefix)
// at version: header (client id, header tags when flexible), transactional
// id (from v3; nil for null) and acks, then filler bytes standing in for the
// topics.
func produceFrame(version int16, corr int32, clientID string, headerTags runtime.Tags, txnID *string, acks int16, filler int) []byte {
	b := binary.BigEndian.AppendUint16(nil, uint16(produceKey))
	b = binary.BigEndian.AppendUint16(b, uint16(version))
	b = binary.BigEndian.AppendUint32(b, uint32(corr))
	b = binary.BigEndian.AppendUint16(b, uint16(len(clientID)))
	b = append(b, clientID...)
	flexible := version >= 9
	if flexible {
		b = binary.AppendUvarint(b, uint64(len(headerTags)))
		for _, t := range headerTags {
			b = binary.AppendUvarint(b, uint64(t.Tag))
			b = binary.AppendUvarint(b, uint64(len(t.Data)))
			b = append(b, t.Data...)
		}
	}
	if version >= 3 {
		switch {
		case txnID == nil && flexible:
			b = append(b, 0)
		case txnID == nil:
			b = binary.BigEndian.AppendUint16(b, 0xffff)
		case flexible:
			b = binary.AppendUvarint(b, uint64(len(*txnID)+1))
			b = append(b, *txnID...)
		default:
			b = binary.BigEndian.AppendUint16(b, uint16(len(*txnID)))
			b = append(b, *txnID...)
		}
	}
	b = binary.BigEndian.AppendUint16(b, uint16(acks))
	return append(b, make([]byte, filler)...)
}

// requestFrame is the 8 bytes every request header starts with, then body.
func requestStart(key, version int16, corr int32, body ...byte) []byte {
	b := binary.BigEndian.AppendUint16(nil, uint16(key))
	b = binary.BigEndian.AppendUint16(b, uint16(version))
	b = binary.BigEndian.AppendUint32(b, uint32(corr))
	return append(b, body...)
}
