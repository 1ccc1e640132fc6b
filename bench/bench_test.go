package bench

import (
	"testing"
)

// Benchmark names are BenchmarkMessage/op=OP/impl=IMPL, so that
// `benchstat -col /impl` puts the libraries side by side. The ops:
//
//	encode-reused   AppendTo into a reused buffer with room for the message;
//	                Fetch and Produce records sit in buffers of their own
//	                (the same slices for every library)
//	encode-relayed  encode-reused with the records aliasing the wire they
//	                arrived in (Fetch, Produce), as a relaying broker has them
//	encode-nil      AppendTo(nil): the encoder allocates its buffer
//	decode-fresh    decode into a new message
//	decode-reused   decode into the same message (steady state)
//	decode-changing decode-reused, alternating two inputs of the same shape
//	                with different record bytes (Fetch, Produce)
//	decode-aliased  DecodeAliased / kmsg UnsafeReadFrom into the same message
//	copy            copy of the encoded bytes into a reused buffer: the floor
//	copy-records    copy of each record slice to its offset (Fetch, Produce):
//	                the floor for this layout, which any encoder must copy
//	walk            follow the lengths from record to record and read nothing
//	                else (Produce): the floor under decode-aliased
//	store           decode into plain structs, aliasing, checking only what
//	                keeps it from panicking (Produce): the floor under
//	                decode-aliased for a decoder that keeps what it reads
//	copy-scatter    copy of each record slice of the wire into a buffer of
//	                its own (Fetch, Produce): the floor under decode-reused
//
// All operate on the bytes kafkagen encoded (see TestSameBytes).

func BenchmarkMetadataResponse(b *testing.B)    { benchCase(b, "MetadataResponse") }
func BenchmarkFetchResponse(b *testing.B)       { benchCase(b, "FetchResponse") }
func BenchmarkProduceRequest(b *testing.B)      { benchCase(b, "ProduceRequest") }
func BenchmarkApiVersionsResponse(b *testing.B) { benchCase(b, "ApiVersionsResponse") }
func BenchmarkOffsetCommitRequest(b *testing.B) { benchCase(b, "OffsetCommitRequest") }
func BenchmarkDescribeConfigsResponse(b *testing.B) {
	benchCase(b, "DescribeConfigsResponse")
}

// walked keeps the walk and store benchmarks' results alive.
var walked int

func benchCase(b *testing.B, name string) {
	var c *codecCase
	for _, cc := range cases() {
		if cc.name == name {
			c = cc
		}
	}
	wire := c.wire
	run := func(op, implName string, f func(b *testing.B)) {
		b.Run("op="+op+"/impl="+implName, func(b *testing.B) {
			b.SetBytes(int64(len(wire)))
			b.ReportAllocs()
			f(b)
		})
	}
	// encodeInto appends with enc into a reused buffer sized to the message.
	encodeInto := func(enc func(dst []byte) []byte) func(b *testing.B) {
		return func(b *testing.B) {
			buf := make([]byte, 0, len(wire))
			for b.Loop() {
				buf = enc(buf[:0])
			}
		}
	}
	for _, im := range c.impls {
		if im.encodeReused != nil {
			run("encode-reused", im.name, encodeInto(im.encodeReused))
		}
	}
	for _, im := range c.impls {
		if im.encodeRelayed != nil {
			run("encode-relayed", im.name, encodeInto(im.encodeRelayed))
		}
	}
	for _, im := range c.impls {
		run("encode-nil", im.name, func(b *testing.B) {
			for b.Loop() {
				_ = im.encodeNil()
			}
		})
	}
	for _, im := range c.impls {
		run("decode-fresh", im.name, func(b *testing.B) {
			for b.Loop() {
				must(im.decodeFresh(wire))
			}
		})
	}
	for _, im := range c.impls {
		run("decode-reused", im.name, func(b *testing.B) {
			must(im.decodeReused(wire))
			for b.Loop() {
				must(im.decodeReused(wire))
			}
		})
	}
	if c.alt != nil {
		for _, im := range c.impls {
			run("decode-changing", im.name, func(b *testing.B) {
				in := [2][]byte{wire, c.alt}
				i := 0
				for b.Loop() {
					must(im.decodeReused(in[i&1]))
					i++
				}
			})
		}
	}
	for _, im := range c.impls {
		if im.decodeAliased == nil {
			continue
		}
		run("decode-aliased", im.name, func(b *testing.B) {
			must(im.decodeAliased(wire))
			for b.Loop() {
				must(im.decodeAliased(wire))
			}
		})
	}
	run("copy", "copy", func(b *testing.B) {
		dst := make([]byte, len(wire))
		for b.Loop() {
			copy(dst, wire)
		}
	})
	if c.walk != nil {
		run("walk", "copy", func(b *testing.B) {
			for b.Loop() {
				walked = c.walk(wire)
			}
		})
	}
	if c.store != nil {
		run("store", "copy", func(b *testing.B) {
			must(storeErr(c.store(wire)))
			for b.Loop() {
				walked = c.store(wire)
			}
		})
	}
	if len(c.records) > 0 {
		run("copy-records", "copy", func(b *testing.B) {
			dst := make([]byte, len(wire))
			for b.Loop() {
				for i, r := range c.records {
					copy(dst[c.at[i]:], r)
				}
			}
		})
		run("copy-scatter", "copy", func(b *testing.B) {
			src := inWire(wire, c.records, c.at)
			dst := scatterBuffers(c.records)
			for b.Loop() {
				copyScatter(dst, src)
			}
		})
	}
}
