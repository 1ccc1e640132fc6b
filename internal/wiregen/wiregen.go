// Package wiregen produces random, valid and canonical wire encodings of a
// Kafka message spec at one version, byte for byte as Apache Kafka's Java
// message classes write them (docs/protocol.md). It is a test tool for
// generated codecs: a correct codec decodes every encoding Encode returns,
// consuming all of its bytes, and re-encodes the decoded message to exactly
// the same bytes.
//
// Encoding happens in two steps: a random value tree is generated first
// (values.go), then serialised (encode.go). Keeping the tree lets the
// serialiser apply Java's omission rule for tagged fields, which compares a
// whole value, nested structs included, against the field's default.
// Generate and Message.Encode expose the two steps: a tree generated at one
// version can be written at another, with Java's write errors for values
// that version cannot carry (message.go).
package wiregen

import (
	"fmt"
	"math/rand/v2"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// Options tune the random values. The zero value is usable.
type Options struct {
	// MaxArray is the largest array element count (default 3).
	MaxArray int
	// MaxString is the largest length, in bytes, of a string, bytes or
	// records value (default 8).
	MaxString int
	// UnknownTags sometimes adds one or two unknown tagged fields to the tag
	// section of a struct in a flexible version. Their tags are larger than
	// every tag the struct defines and strictly ascending; their payloads
	// are 0-5 random bytes.
	UnknownTags bool
	// LongStrings occasionally makes a string, bytes or records value up to
	// 32767 bytes long (varint length boundaries included).
	LongStrings bool
}

func (o Options) withDefaults() Options {
	if o.MaxArray <= 0 {
		o.MaxArray = 3
	}
	if o.MaxString <= 0 {
		o.MaxString = 8
	}
	return o
}

// Encode returns a random, valid, canonical encoding of spec's message at
// version. The same spec, version, options and rng state give the same
// bytes. It panics if version is not one of spec's valid versions.
func Encode(spec *schema.Spec, version int16, rng *rand.Rand, opts Options) []byte {
	b, err := Generate(spec, version, rng, opts).Encode(version)
	if err != nil {
		panic(fmt.Sprintf("wiregen: a message generated at version %d does not encode at it: %v", version, err))
	}
	return b
}

// Versions lists every valid version of spec, in ascending order.
func Versions(spec *schema.Spec) []int16 {
	var vs []int16
	for v := int(spec.ValidVersions.Lo); v <= int(spec.ValidVersions.Hi); v++ {
		vs = append(vs, int16(v))
	}
	return vs
}
