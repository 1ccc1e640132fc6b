package bench

import (
	"bytes"
	"fmt"
	"sync"
	"unsafe"

	"github.com/IBM/sarama"
	"github.com/kafkagen/kafkagen/conformance/diff/saramashim"
	"github.com/kafkagen/kafkagen/conformance/gen/clients"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// impl is one library's codec for one message. A nil func is an operation the
// library does not offer.
type impl struct {
	name         string
	encodeReused func(dst []byte) []byte // append into dst (len 0, room for the message)
	// encodeRelayed is encodeReused on a message whose record slices alias
	// the wire they arrived in (bytes-heavy messages only).
	encodeRelayed func(dst []byte) []byte
	encodeNil     func() []byte          // encode into a buffer of its own
	decodeFresh   func(src []byte) error // decode into a new message
	decodeReused  func(src []byte) error // decode into the same message every time
	decodeAliased func(src []byte) error // decode into the same message, aliasing src
	// encoded returns what the library encodes from the message it decoded
	// from wire (for the byte-identity checks).
	encoded func() []byte
}

// codecCase is one message, its bytes and the libraries that support it.
type codecCase struct {
	name    string
	version int16
	wire    []byte // encoded by kafkagen
	// alt has wire's shape but other record bytes (bytes-heavy messages only):
	// decoding wire and alt in turn shows Decode's cost when records change.
	alt   []byte
	impls []impl
	// bytesHeavy marks Fetch and Produce (targets relative to copy).
	bytesHeavy bool
	// records are the record slices of a bytes-heavy message, and at their
	// offsets in wire: copying each to its place is the floor of any
	// encoder of this layout (a second, tighter floor than one copy).
	records [][]byte
	at      []int
	// walk follows the message's lengths and nothing else (Produce only):
	// the floor under decode-aliased. It returns the bytes walked.
	walk func(wire []byte) int
	// store decodes the message into plain structs with nothing but the
	// checks that keep it from panicking (Produce only): the floor under
	// decode-aliased that keeps what it reads (floors_test.go). It returns
	// the bytes read, or -1.
	store func(wire []byte) int
}

// recordsAt finds each record slice's offset in wire.
func recordsAt(wire []byte, records [][]byte) []int {
	var at []int
	from := 0
	for _, r := range records {
		i := bytes.Index(wire[from:], r)
		if i < 0 {
			panic("record bytes not found in the encoding")
		}
		at = append(at, from+i)
		from += i + len(r)
	}
	return at
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

func mustEncode(m runtime.Message, v int16) []byte {
	b, err := m.AppendTo(nil, v)
	must(err)
	return b
}

// ours builds kafkagen's impl for msg; newMsg returns a message holding its
// defaults (NewX). For bytes-heavy messages, relay points the records of a
// message decoded from wire back into wire, for encodeRelayed.
func ours[M runtime.Message](msg M, newMsg func() M, v int16, wire []byte, relay func(M)) impl {
	reused := newMsg()
	aliased := newMsg()
	encoder := func(m M) func(dst []byte) []byte {
		return func(dst []byte) []byte {
			b, err := m.AppendTo(dst, v)
			must(err)
			return b
		}
	}
	var relayed func(dst []byte) []byte
	if relay != nil {
		m := newMsg()
		_, err := m.Decode(wire, v)
		must(err)
		relay(m)
		relayed = encoder(m)
	}
	return impl{
		name:          "kafkagen",
		encodeReused:  encoder(msg),
		encodeRelayed: relayed,
		encodeNil: func() []byte {
			b, err := msg.AppendTo(nil, v)
			must(err)
			return b
		},
		decodeFresh: func(src []byte) error {
			_, err := newMsg().Decode(src, v)
			return err
		},
		decodeReused: func(src []byte) error {
			_, err := reused.Decode(src, v)
			return err
		},
		decodeAliased: func(src []byte) error {
			_, err := aliased.DecodeAliased(src, v)
			return err
		},
		encoded: func() []byte { return mustEncode(msg, v) },
	}
}

// kmsgMessage is what kmsg's generated requests and responses have.
type kmsgMessage interface {
	SetVersion(int16)
	AppendTo([]byte) []byte
	ReadFrom([]byte) error
	UnsafeReadFrom([]byte) error
}

// kmsgImpl builds kmsg's impl; the message it encodes is the one it decoded
// from wire. ReadFrom leaves byte fields aliasing wire: that message is the
// relayed one, and own, if set, gives a second copy the records kafkagen's
// message holds, for encodeReused.
func kmsgImpl[M kmsgMessage](newMsg func() M, v int16, wire []byte, own func(M)) impl {
	mk := func() M {
		m := newMsg()
		m.SetVersion(v)
		return m
	}
	msg := mk()
	must(msg.ReadFrom(wire))
	encodeReused := func(dst []byte) []byte { return msg.AppendTo(dst) }
	var encodeRelayed func(dst []byte) []byte
	if own != nil {
		owned := mk()
		must(owned.ReadFrom(wire))
		own(owned)
		encodeReused = func(dst []byte) []byte { return owned.AppendTo(dst) }
		encodeRelayed = func(dst []byte) []byte { return msg.AppendTo(dst) }
	}
	reused := mk()
	aliased := mk()
	return impl{
		name:          "kmsg",
		encodeReused:  encodeReused,
		encodeRelayed: encodeRelayed,
		encodeNil:     func() []byte { return msg.AppendTo(nil) },
		decodeFresh:   func(src []byte) error { return mk().ReadFrom(src) },
		decodeReused:  func(src []byte) error { return reused.ReadFrom(src) },
		decodeAliased: func(src []byte) error {
			return aliased.UnsafeReadFrom(src)
		},
		encoded: func() []byte { return msg.AppendTo(nil) },
	}
}

// saramaImpl builds sarama's impl (through saramashim): encode always sizes and
// then allocates, so only encode-nil applies, and it has no aliasing decode.
// T is the sarama body type, such as sarama.FetchResponse.
func saramaImpl[T any](v int16, wire []byte) impl {
	msg := new(T)
	dec := saramashim.Decoder(msg)
	must(saramashim.Decode(wire, dec, v))
	enc := saramashim.Encoder(msg)
	tab := dec.Tab // the itab is per type: only the data word changes
	reused := saramashim.Decoder(new(T))
	return impl{
		name: "sarama",
		encodeNil: func() []byte {
			b, err := saramashim.Encode(enc)
			must(err)
			return b
		},
		decodeFresh: func(src []byte) error {
			return saramashim.Decode(src, saramashim.Iface{Tab: tab, Data: unsafe.Pointer(new(T))}, v)
		},
		decodeReused: func(src []byte) error { return saramashim.Decode(src, reused, v) },
		encoded: func() []byte {
			b, err := saramashim.Encode(enc)
			must(err)
			return b
		},
	}
}

var (
	casesOnce sync.Once
	allCases  []*codecCase
)

// cases builds the six messages once.
func cases() []*codecCase {
	casesOnce.Do(func() {
		allCases = buildCases()
	})
	return allCases
}

func buildCases() []*codecCase {
	var cs []*codecCase

	{
		msg, v := Metadata(), MetadataVersion
		wire := mustEncode(msg, v)
		cs = append(cs, &codecCase{
			name: "MetadataResponse", version: v, wire: wire,
			impls: []impl{
				ours(msg, clients.NewMetadataResponse, v, wire, nil),
				kmsgImpl(kmsg.NewPtrMetadataResponse, v, wire, nil),
				// sarama v1.61.1 supports MetadataResponse v0-11 only.
			},
		})
	}
	{
		msg, v := Fetch(0), FetchVersion
		wire := mustEncode(msg, v)
		records := fetchRecords(msg)
		at := recordsAt(wire, records)
		relayed := inWire(wire, records, at)
		cs = append(cs, &codecCase{
			name: "FetchResponse", version: v, wire: wire, alt: mustEncode(Fetch(1), v),
			bytesHeavy: true, records: records, at: at,
			impls: []impl{
				ours(msg, clients.NewFetchResponse, v, wire, func(m *clients.FetchResponse) { setRecords(fetchSlots(m), relayed) }),
				kmsgImpl(kmsg.NewPtrFetchResponse, v, wire, func(m *kmsg.FetchResponse) { setRecords(kmsgFetchSlots(m), records) }),
				saramaImpl[sarama.FetchResponse](v, wire),
			},
		})
	}
	{
		msg, v := Produce(0), ProduceVersion
		wire := mustEncode(msg, v)
		records := produceRecords(msg)
		at := recordsAt(wire, records)
		relayed := inWire(wire, records, at)
		cs = append(cs, &codecCase{
			name: "ProduceRequest", version: v, wire: wire, alt: mustEncode(Produce(1), v),
			bytesHeavy: true, records: records, at: at, walk: walkProduce,
			store: new(storedProduce).decode,
			impls: []impl{
				ours(msg, clients.NewProduceRequest, v, wire, func(m *clients.ProduceRequest) { setRecords(produceSlots(m), relayed) }),
				kmsgImpl(kmsg.NewPtrProduceRequest, v, wire, func(m *kmsg.ProduceRequest) { setRecords(kmsgProduceSlots(m), records) }),
				saramaImpl[sarama.ProduceRequest](v, wire),
			},
		})
	}
	{
		msg, v := APIVersions(), APIVersionsVersion
		wire := mustEncode(msg, v)
		cs = append(cs, &codecCase{
			name: "ApiVersionsResponse", version: v, wire: wire,
			impls: []impl{
				ours(msg, clients.NewAPIVersionsResponse, v, wire, nil),
				kmsgImpl(kmsg.NewPtrApiVersionsResponse, v, wire, nil),
				saramaImpl[sarama.ApiVersionsResponse](v, wire),
			},
		})
	}
	{
		msg, v := OffsetCommit(), OffsetCommitVersion
		wire := mustEncode(msg, v)
		cs = append(cs, &codecCase{
			name: "OffsetCommitRequest", version: v, wire: wire,
			impls: []impl{
				ours(msg, clients.NewOffsetCommitRequest, v, wire, nil),
				kmsgImpl(kmsg.NewPtrOffsetCommitRequest, v, wire, nil),
				saramaImpl[sarama.OffsetCommitRequest](v, wire),
			},
		})
	}
	{
		msg, v := DescribeConfigs(), DescribeConfigsVersion
		wire := mustEncode(msg, v)
		cs = append(cs, &codecCase{
			name: "DescribeConfigsResponse", version: v, wire: wire,
			impls: []impl{
				ours(msg, clients.NewDescribeConfigsResponse, v, wire, nil),
				kmsgImpl(kmsg.NewPtrDescribeConfigsResponse, v, wire, nil),
				// sarama v1.61.1 writes DescribeConfigsResponse v0-2 only.
			},
		})
	}
	return cs
}

func (c *codecCase) impl(name string) *impl {
	for i := range c.impls {
		if c.impls[i].name == name {
			return &c.impls[i]
		}
	}
	panic(fmt.Sprintf("%s: no impl %s", c.name, name))
}
