package bench

import (
	"bytes"
	"strings"
	"testing"
	"unsafe"

	"github.com/kafkagen/kafkagen/conformance/gen/clients"
	"github.com/stretchr/testify/require"
)

// The floors must do the work of what they bound, or they bound nothing:
// store keeps what the generated DecodeAliased keeps, and copy-scatter leaves
// every record in its buffer.

func produceCase(t *testing.T) *codecCase {
	for _, c := range cases() {
		if c.name == "ProduceRequest" {
			return c
		}
	}
	t.Fatal("no ProduceRequest case")
	return nil
}

// requireStored checks that store kept what the generated decoder keeps.
func requireStored(t *testing.T, want *clients.ProduceRequest, got *storedProduce) {
	t.Helper()
	require.Equal(t, want.TransactionalID.Valid, got.hasTransaction, "transactional id null")
	require.Equal(t, want.TransactionalID.Value, got.transactionalID)
	require.Equal(t, want.Acks, got.acks)
	require.Equal(t, want.TimeoutMs, got.timeoutMs)
	require.Len(t, got.topics, len(want.TopicData))
	for i, tp := range want.TopicData {
		g := got.topics[i]
		require.Equal(t, tp.Name, g.name, "topic %d", i)
		require.Len(t, g.partitions, len(tp.PartitionData), "topic %d", i)
		for j, p := range tp.PartitionData {
			require.Equal(t, p.Index, g.partitions[j].index, "topic %d partition %d", i, j)
			require.Equal(t, p.Records == nil, g.partitions[j].records == nil, "topic %d partition %d: null records", i, j)
			require.True(t, bytes.Equal(p.Records, g.partitions[j].records), "topic %d partition %d: records differ", i, j)
		}
	}
}

// inside reports whether b lies within wire (aliases it).
func inside(b, wire []byte) bool {
	if len(b) == 0 {
		return true
	}
	p, lo := uintptr(unsafe.Pointer(&b[0])), uintptr(unsafe.Pointer(&wire[0]))
	return p >= lo && p+uintptr(len(b)) <= lo+uintptr(len(wire))
}

func TestStoreProduce(t *testing.T) {
	bench := produceCase(t)
	small := func(edit func(m *clients.ProduceRequest)) []byte {
		m := clients.NewProduceRequest()
		m.Acks = 1
		m.TimeoutMs = 1500
		var tp clients.ProduceRequestTopicProduceData
		tp.Reset()
		tp.Name = "t"
		tp.PartitionData = []clients.ProduceRequestPartitionProduceData{{Index: 3, Records: []byte("abc")}}
		m.TopicData = append(m.TopicData, tp)
		edit(m)
		return mustEncode(m, ProduceVersion)
	}
	for _, c := range []struct {
		name string
		wire []byte
	}{
		{"benchmark message", bench.wire},
		{"benchmark message, other records", bench.alt},
		{"transactional id, null and empty records", small(func(m *clients.ProduceRequest) {
			m.TransactionalID.Value, m.TransactionalID.Valid = "txn-1", true
			m.TopicData[0].PartitionData = append(m.TopicData[0].PartitionData,
				clients.ProduceRequestPartitionProduceData{Index: 4},
				clients.ProduceRequestPartitionProduceData{Index: 5, Records: []byte{}})
		})},
		{"records of three-byte length, long name", small(func(m *clients.ProduceRequest) {
			m.TopicData[0].Name = strings.Repeat("n", 200)
			m.TopicData[0].PartitionData[0].Records = bytes.Repeat([]byte{7}, 40<<10)
		})},
		{"200 partitions", small(func(m *clients.ProduceRequest) {
			for i := range 199 {
				m.TopicData[0].PartitionData = append(m.TopicData[0].PartitionData,
					clients.ProduceRequestPartitionProduceData{Index: int32(i), Records: []byte{byte(i)}})
			}
		})},
		{"no topics", small(func(m *clients.ProduceRequest) { m.TopicData = nil })},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := clients.NewProduceRequest()
			n, err := want.DecodeAliased(c.wire, ProduceVersion)
			require.NoError(t, err)
			require.Equal(t, len(c.wire), n)
			var got storedProduce
			for range 2 { // fresh, then reused
				require.Equal(t, len(c.wire), got.decode(c.wire), "store must consume the message exactly")
				requireStored(t, want, &got)
			}
			for _, tp := range got.topics {
				require.True(t, inside(unsafe.Slice(unsafe.StringData(tp.name), len(tp.name)), c.wire), "topic name must alias the wire")
				for _, p := range tp.partitions {
					require.True(t, inside(p.records, c.wire), "records must alias the wire")
				}
			}
		})
	}
}

// Every truncated prefix of the benchmark message, and every corruption
// below, fails without a panic.
func TestStoreProduceBadInput(t *testing.T) {
	wire := produceCase(t).wire
	var s storedProduce
	bad := 0
	for k := range len(wire) {
		if s.decode(wire[:k:k]) >= 0 {
			bad++
			if bad < 5 {
				t.Errorf("prefix of %d bytes decoded", k)
			}
		}
	}
	require.Zero(t, bad, "prefixes that decoded")

	at := produceCase(t).at
	first, last := at[0], at[len(at)-1] // the first and last partitions' records
	for _, c := range []struct {
		name string
		edit func(b []byte) []byte
	}{
		{"partition tag section not empty", func(b []byte) []byte { b[first+batchLen] = 1; return b }},
		{"topic tag section not empty", func(b []byte) []byte { b[len(b)-2] = 1; return b }},
		{"request tag section not empty", func(b []byte) []byte { b[len(b)-1] = 1; return b }},
		// Header: null transactional id (1), acks (2), timeout (4), then
		// the topic count and the first topic's name length.
		{"topic count too large", func(b []byte) []byte { b[7] = 100; return b }},
		{"topic count of six bytes", func(b []byte) []byte {
			return append(append(b[:7:7], 0xff, 0xff, 0xff, 0xff, 0xff, 0x01), b[8:]...)
		}},
		{"null topic array", func(b []byte) []byte { b[7] = 0; return b }},
		{"null topic name", func(b []byte) []byte { b[8] = 0; return b }},
		{"topic name past the end", func(b []byte) []byte { return b[:9] }},
		// The last records' two-byte length made 16 KiB or more.
		{"records past the end", func(b []byte) []byte { b[last-1] = 0x7f; return b }},
		{"transactional id past the end", func(b []byte) []byte { b[0] = 0x7f; return b[:100] }},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := c.edit(bytes.Clone(wire))
			require.Equal(t, -1, s.decode(b))
		})
	}
}

func TestCopyScatter(t *testing.T) {
	for _, c := range cases() {
		if len(c.records) == 0 {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			src := inWire(c.wire, c.records, c.at)
			dst := scatterBuffers(c.records)
			require.Len(t, dst, 100)
			copyScatter(dst, src)
			for i, r := range c.records {
				require.Equal(t, r, dst[i], "buffer %d", i)
				require.False(t, inside(dst[i], c.wire), "buffer %d must be its own memory", i)
			}
		})
	}
}
