package bench

import (
	"bytes"
	"reflect"
	"regexp"
	"strconv"
	"testing"

	"github.com/segmentio/kafka-go/protocol/apiversions"
	"github.com/segmentio/kafka-go/protocol/fetch"
	"github.com/segmentio/kafka-go/protocol/metadata"
	"github.com/segmentio/kafka-go/protocol/offsetcommit"
	"github.com/segmentio/kafka-go/protocol/produce"
	"github.com/stretchr/testify/require"
)

// The benchmarks compare libraries on identical bytes: every library must
// decode what kafkagen encoded and, where it round-trips, write it back byte
// for byte.
func TestSameBytes(t *testing.T) {
	sizes := map[string][2]int{ // rough sizes the issue asks for
		"MetadataResponse":        {40 << 10, 55 << 10},
		"FetchResponse":           {1000 << 10, 1<<20 + 64<<10},
		"ProduceRequest":          {1000 << 10, 1<<20 + 64<<10},
		"ApiVersionsResponse":     {300, 600},
		"OffsetCommitRequest":     {1 << 10, 4 << 10},
		"DescribeConfigsResponse": {40 << 10, 80 << 10},
	}
	for _, c := range cases() {
		t.Run(c.name, func(t *testing.T) {
			r := sizes[c.name]
			require.True(t, len(c.wire) >= r[0] && len(c.wire) <= r[1], "size %d not in %v", len(c.wire), r)
			t.Logf("%s v%d: %d bytes", c.name, c.version, len(c.wire))
			if c.walk != nil {
				require.Equal(t, len(c.wire), c.walk(c.wire), "the walk must cover the message exactly")
			}
			for _, im := range c.impls {
				t.Run(im.name, func(t *testing.T) {
					require.NoError(t, im.decodeFresh(c.wire))
					require.NoError(t, im.decodeReused(c.wire))
					require.NoError(t, im.decodeReused(c.wire)) // steady state
					if im.decodeAliased != nil {
						require.NoError(t, im.decodeAliased(c.wire))
					}
					got := im.encoded()
					if im.name == "sarama" && c.name != "ApiVersionsResponse" {
						// sarama keeps the topics and partitions of Fetch, Produce
						// and OffsetCommit in maps, so it writes them back in
						// random order: the same bytes, shuffled.
						require.Equal(t, len(c.wire), len(got), "re-encoded length")
					} else {
						require.True(t, bytes.Equal(c.wire, got), "%s re-encodes to other bytes (%d vs %d)", im.name, len(got), len(c.wire))
					}
					if im.encodeReused != nil {
						require.Equal(t, c.wire, im.encodeReused(make([]byte, 0, len(c.wire))))
					}
					if c.bytesHeavy && im.encodeReused != nil {
						require.NotNil(t, im.encodeRelayed, "bytes-heavy messages are also encoded relayed")
						require.Equal(t, c.wire, im.encodeRelayed(make([]byte, 0, len(c.wire))))
					}
					if c.alt != nil {
						require.NoError(t, im.decodeReused(c.alt))
						require.NoError(t, im.decodeReused(c.wire))
					}
				})
			}
		})
	}
}

// kafka-go (v0.4.x) stops at the last non-flexible version of every message
// measured here, so it is left out of the benchmarks. This fails when an
// upgrade brings support, to add it then.
func TestKafkaGoUnsupported(t *testing.T) {
	for _, c := range []struct {
		name    string
		typ     any
		version int16
	}{
		{"MetadataResponse", metadata.Response{}, MetadataVersion},
		{"FetchResponse", fetch.Response{}, FetchVersion},
		{"ProduceRequest", produce.Request{}, ProduceVersion},
		{"ApiVersionsResponse", apiversions.Response{}, APIVersionsVersion},
		{"OffsetCommitRequest", offsetcommit.Request{}, OffsetCommitVersion},
	} {
		maxV := kafkaGoMaxVersion(reflect.TypeOf(c.typ))
		t.Logf("kafka-go %s: up to v%d (measured: v%d)", c.name, maxV, c.version)
		require.Less(t, maxV, int(c.version), "kafka-go now supports %s v%d: add it to the benchmarks", c.name, c.version)
	}
}

var kafkaGoMax = regexp.MustCompile(`max=v(\d+)`)

func kafkaGoMaxVersion(t reflect.Type) int {
	maxV := -1
	for i := range t.NumField() {
		if m := kafkaGoMax.FindStringSubmatch(t.Field(i).Tag.Get("kafka")); m != nil {
			n, _ := strconv.Atoi(m[1])
			maxV = max(maxV, n)
		}
	}
	return maxV
}

// The allocation targets, checked in steady state.
func TestAllocs(t *testing.T) {
	for _, c := range cases() {
		im := c.impl("kafkagen")
		buf := make([]byte, 0, len(c.wire))
		require.NoError(t, im.decodeReused(c.wire))
		require.NoError(t, im.decodeAliased(c.wire))
		for _, a := range []struct {
			op   string
			want float64
			f    func()
		}{
			{"encode-reused", 0, func() { buf = im.encodeReused(buf[:0]) }},
			{"encode-nil", 1, func() { _ = im.encodeNil() }},
			{"decode-reused", 0, func() { must(im.decodeReused(c.wire)) }},
			{"decode-aliased", 0, func() { must(im.decodeAliased(c.wire)) }},
		} {
			got := testing.AllocsPerRun(20, a.f)
			t.Logf("%s %s: %v allocs", c.name, a.op, got)
			require.Equal(t, a.want, got, "%s %s allocs", c.name, a.op)
		}
	}
}
