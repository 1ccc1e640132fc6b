package proxy

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/runtime"
)

// The proxy's tests run over a small package of hand-written messages, as a
// generated package would provide them: a Metadata with broker addresses
// and topic names, and a Produce with acks, a topic and records (both v0-2,
// never flexible), beside generated/'s ApiVersions and SaslHandshake.

// testRequests and testResponses are the package of the tests.
func testRequests(key int16) runtime.APIMessage {
	switch key {
	case 0:
		return &produceRequest{stubAPI: stubAPI{"ProduceRequest", 0, false}}
	case 3:
		return &metadataRequest{stubAPI: stubAPI{"MetadataRequest", 3, false}}
	case 10:
		return findCoordinatorStub{stubAPI{"FindCoordinatorRequest", 10, false}}
	}
	return generated.NewRequest(key)
}

func testResponses(key int16) runtime.APIMessage {
	switch key {
	case 0:
		return &produceResponse{stubAPI: stubAPI{"ProduceResponse", 0, true}}
	case 3:
		return &metadataResponse{stubAPI: stubAPI{"MetadataResponse", 3, true}}
	case 10:
		return findCoordinatorStub{stubAPI{"FindCoordinatorResponse", 10, true}}
	}
	return generated.NewResponse(key)
}

// stubAPI is the Versioned and header part shared by the stubs.
type stubAPI struct {
	name     string
	key      int16
	response bool
}

func (s stubAPI) SpecName() string    { return s.name }
func (s stubAPI) APIKey() int16       { return s.key }
func (stubAPI) MinVersion() int16     { return 0 }
func (stubAPI) MaxVersion() int16     { return 2 }
func (stubAPI) IsFlexible(int16) bool { return false }
func (s stubAPI) IsRequest() bool     { return !s.response }
func (s stubAPI) HeaderVersion(int16) int16 {
	if s.response {
		return 0
	}
	return 1
}

// reader reads a stub's body, failing once with ErrShortBuffer.
type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) take(n int) []byte {
	if r.err != nil || n < 0 || len(r.b)-r.off < n {
		r.err = &runtime.Error{Op: "decode", Message: "stub", Offset: r.off, Err: runtime.ErrShortBuffer}
		return make([]byte, max(n, 0))
	}
	r.off += n
	return r.b[r.off-n : r.off]
}
func (r *reader) i16() int16         { return int16(binary.BigEndian.Uint16(r.take(2))) }
func (r *reader) i32() int32         { return int32(binary.BigEndian.Uint32(r.take(4))) }
func (r *reader) i64() int64         { return int64(binary.BigEndian.Uint64(r.take(8))) }
func (r *reader) str() string        { return string(r.take(int(r.i16()))) }
func (r *reader) bytes() []byte      { return append([]byte(nil), r.take(int(r.i32()))...) }
func (r *reader) count() int         { n := int(r.i32()); return min(max(n, 0), len(r.b)-r.off) }
func (r *reader) done() (int, error) { return r.off, r.err }

func appendStr(b []byte, s string) []byte {
	return append(binary.BigEndian.AppendUint16(b, uint16(len(s))), s...)
}

func versionError(name string, v int16) error {
	return &runtime.Error{Op: "decode", Message: name, Version: v, Offset: -1, Err: runtime.ErrUnsupportedVersion}
}

// metadataRequest names topics.
type metadataRequest struct {
	stubAPI
	Topics []string
}

func (m *metadataRequest) Reset()           { m.Topics = m.Topics[:0] }
func (m *metadataRequest) Size(v int16) int { b, _ := m.AppendTo(nil, v); return len(b) }
func (m *metadataRequest) AppendTo(dst []byte, v int16) ([]byte, error) {
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(m.Topics)))
	for _, t := range m.Topics {
		dst = appendStr(dst, t)
	}
	return dst, nil
}
func (m *metadataRequest) Decode(src []byte, v int16) (int, error) {
	if v < 0 || v > 2 {
		return 0, versionError("MetadataRequest", v)
	}
	m.Reset()
	r := reader{b: src}
	for n := r.count(); n > 0 && r.err == nil; n-- {
		m.Topics = append(m.Topics, r.str())
	}
	return r.done()
}
func (m *metadataRequest) DecodeAliased(src []byte, v int16) (int, error) { return m.Decode(src, v) }
func (m *metadataRequest) VisitEntities(v int16, t runtime.EntityType, vis *runtime.EntityVisitor) {
	if t == runtime.EntityTopicName && vis.String != nil {
		for i := range m.Topics {
			vis.String(&m.Topics[i])
		}
	}
}
func (m *metadataRequest) VisitEndpoints(int16, func(int32, *string, *int32)) {}

// metadataResponse lists brokers and topics.
type metadataResponse struct {
	stubAPI
	Brokers []broker
	Topics  []topicError
}

type broker struct {
	NodeID int32
	Host   string
	Port   int32
}

type topicError struct {
	ErrorCode int16
	Name      string
}

func (m *metadataResponse) Reset()           { m.Brokers, m.Topics = m.Brokers[:0], m.Topics[:0] }
func (m *metadataResponse) Size(v int16) int { b, _ := m.AppendTo(nil, v); return len(b) }
func (m *metadataResponse) AppendTo(dst []byte, v int16) ([]byte, error) {
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(m.Brokers)))
	for _, b := range m.Brokers {
		dst = binary.BigEndian.AppendUint32(dst, uint32(b.NodeID))
		dst = appendStr(dst, b.Host)
		dst = binary.BigEndian.AppendUint32(dst, uint32(b.Port))
	}
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(m.Topics)))
	for _, t := range m.Topics {
		dst = binary.BigEndian.AppendUint16(dst, uint16(t.ErrorCode))
		dst = appendStr(dst, t.Name)
	}
	return dst, nil
}
func (m *metadataResponse) Decode(src []byte, v int16) (int, error) {
	if v < 0 || v > 2 {
		return 0, versionError("MetadataResponse", v)
	}
	m.Reset()
	r := reader{b: src}
	for n := r.count(); n > 0 && r.err == nil; n-- {
		m.Brokers = append(m.Brokers, broker{NodeID: r.i32(), Host: r.str(), Port: r.i32()})
	}
	for n := r.count(); n > 0 && r.err == nil; n-- {
		m.Topics = append(m.Topics, topicError{ErrorCode: r.i16(), Name: r.str()})
	}
	return r.done()
}
func (m *metadataResponse) DecodeAliased(src []byte, v int16) (int, error) { return m.Decode(src, v) }
func (m *metadataResponse) VisitEntities(v int16, t runtime.EntityType, vis *runtime.EntityVisitor) {
	switch {
	case t == runtime.EntityTopicName && vis.String != nil:
		for i := range m.Topics {
			vis.String(&m.Topics[i].Name)
		}
	case t == runtime.EntityBrokerID && vis.Int32 != nil:
		for i := range m.Brokers {
			vis.Int32(&m.Brokers[i].NodeID)
		}
	}
}
func (m *metadataResponse) VisitEndpoints(v int16, fn func(int32, *string, *int32)) {
	for i := range m.Brokers {
		fn(m.Brokers[i].NodeID, &m.Brokers[i].Host, &m.Brokers[i].Port)
	}
}

// produceRequest carries one topic's records.
type produceRequest struct {
	stubAPI
	Acks      int16
	TimeoutMs int32
	Topic     string
	Records   []byte
}

func (m *produceRequest) Reset()           { m.Acks, m.TimeoutMs, m.Topic, m.Records = 0, 0, "", m.Records[:0] }
func (m *produceRequest) Size(v int16) int { return 2 + 4 + 2 + len(m.Topic) + 4 + len(m.Records) }
func (m *produceRequest) AppendTo(dst []byte, v int16) ([]byte, error) {
	dst = binary.BigEndian.AppendUint16(dst, uint16(m.Acks))
	dst = binary.BigEndian.AppendUint32(dst, uint32(m.TimeoutMs))
	dst = appendStr(dst, m.Topic)
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(m.Records)))
	return append(dst, m.Records...), nil
}
func (m *produceRequest) Decode(src []byte, v int16) (int, error) {
	if v < 0 || v > 2 {
		return 0, versionError("ProduceRequest", v)
	}
	r := reader{b: src}
	m.Acks, m.TimeoutMs, m.Topic, m.Records = r.i16(), r.i32(), r.str(), r.bytes()
	return r.done()
}
func (m *produceRequest) DecodeAliased(src []byte, v int16) (int, error) { return m.Decode(src, v) }
func (m *produceRequest) VisitEntities(v int16, t runtime.EntityType, vis *runtime.EntityVisitor) {
	if t == runtime.EntityTopicName && vis.String != nil {
		vis.String(&m.Topic)
	}
}
func (m *produceRequest) VisitEndpoints(int16, func(int32, *string, *int32)) {}

// produceResponse answers for the topic.
type produceResponse struct {
	stubAPI
	Topic      string
	ErrorCode  int16
	BaseOffset int64
}

func (m *produceResponse) Reset()           { m.Topic, m.ErrorCode, m.BaseOffset = "", 0, 0 }
func (m *produceResponse) Size(v int16) int { return 2 + len(m.Topic) + 2 + 8 }
func (m *produceResponse) AppendTo(dst []byte, v int16) ([]byte, error) {
	dst = appendStr(dst, m.Topic)
	dst = binary.BigEndian.AppendUint16(dst, uint16(m.ErrorCode))
	return binary.BigEndian.AppendUint64(dst, uint64(m.BaseOffset)), nil
}
func (m *produceResponse) Decode(src []byte, v int16) (int, error) {
	if v < 0 || v > 2 {
		return 0, versionError("ProduceResponse", v)
	}
	r := reader{b: src}
	m.Topic, m.ErrorCode, m.BaseOffset = r.str(), r.i16(), r.i64()
	return r.done()
}
func (m *produceResponse) DecodeAliased(src []byte, v int16) (int, error) { return m.Decode(src, v) }
func (m *produceResponse) VisitEntities(v int16, t runtime.EntityType, vis *runtime.EntityVisitor) {
	if t == runtime.EntityTopicName && vis.String != nil {
		vis.String(&m.Topic)
	}
}
func (m *produceResponse) VisitEndpoints(int16, func(int32, *string, *int32)) {}

// AppendJSON writes the stubs in Kafka's JSON form, records by size as
// Kafka's request log does, with a secret in the Produce request's
// "authBytes" so that the log's redaction shows.
func (m *produceRequest) AppendJSON(dst []byte, v int16, _ runtime.JSONOptions) ([]byte, error) {
	return fmt.Appendf(dst, `{"acks":%d,"timeoutMs":%d,"topic":%q,"authBytes":"c2VjcmV0","recordsSizeInBytes":%d}`, m.Acks, m.TimeoutMs, m.Topic, len(m.Records)), nil
}

func (m *produceResponse) AppendJSON(dst []byte, v int16, _ runtime.JSONOptions) ([]byte, error) {
	return fmt.Appendf(dst, `{"topic":%q,"errorCode":%d,"baseOffset":%d}`, m.Topic, m.ErrorCode, m.BaseOffset), nil
}

func (m *produceRequest) DecodeJSON([]byte, int16) error  { return errors.New("not needed") }
func (m *produceResponse) DecodeJSON([]byte, int16) error { return errors.New("not needed") }

// findCoordinatorStub is there because New refuses to rewrite addresses
// without FindCoordinator; the fake broker never lists it, so the proxy
// never advertises it and its codec is never called.
type findCoordinatorStub struct{ stubAPI }

func (findCoordinatorStub) Reset()         {}
func (findCoordinatorStub) Size(int16) int { return -1 }
func (s findCoordinatorStub) AppendTo(dst []byte, v int16) ([]byte, error) {
	return dst, versionError(s.name, v)
}
func (s findCoordinatorStub) Decode(_ []byte, v int16) (int, error) {
	return 0, versionError(s.name, v)
}
func (s findCoordinatorStub) DecodeAliased(src []byte, v int16) (int, error) {
	return s.Decode(src, v)
}
func (findCoordinatorStub) VisitEndpoints(int16, func(int32, *string, *int32)) {}
