package bench

import (
	"github.com/kafkagen/kafkagen/conformance/gen/clients"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Where the record bytes of Fetch and Produce live decides how fast any
// encoder copies them (see docs/benchmarks.md), so every library's message
// is given the very same record memory: its own buffers (encode-reused) or
// the wire they arrived in (encode-relayed). The slots below are each
// message's record fields, in wire order.

func fetchSlots(m *clients.FetchResponse) (out []*[]byte) {
	for i := range m.Responses {
		for j := range m.Responses[i].Partitions {
			out = append(out, &m.Responses[i].Partitions[j].Records)
		}
	}
	return out
}

func produceSlots(m *clients.ProduceRequest) (out []*[]byte) {
	for i := range m.TopicData {
		for j := range m.TopicData[i].PartitionData {
			out = append(out, &m.TopicData[i].PartitionData[j].Records)
		}
	}
	return out
}

func kmsgFetchSlots(m *kmsg.FetchResponse) (out []*[]byte) {
	for i := range m.Topics {
		for j := range m.Topics[i].Partitions {
			out = append(out, &m.Topics[i].Partitions[j].RecordBatches)
		}
	}
	return out
}

func kmsgProduceSlots(m *kmsg.ProduceRequest) (out []*[]byte) {
	for i := range m.Topics {
		for j := range m.Topics[i].Partitions {
			out = append(out, &m.Topics[i].Partitions[j].Records)
		}
	}
	return out
}

func fetchRecords(m *clients.FetchResponse) [][]byte    { return values(fetchSlots(m)) }
func produceRecords(m *clients.ProduceRequest) [][]byte { return values(produceSlots(m)) }

func values(slots []*[]byte) [][]byte {
	out := make([][]byte, len(slots))
	for i, s := range slots {
		out[i] = *s
	}
	return out
}

// setRecords points each slot at the record slice of the same index.
func setRecords(slots []*[]byte, records [][]byte) {
	if len(slots) != len(records) {
		panic("record slots and slices differ in number")
	}
	for i, s := range slots {
		*s = records[i]
	}
}

// inWire returns the records as subslices of wire at their offsets.
func inWire(wire []byte, records [][]byte, at []int) [][]byte {
	out := make([][]byte, len(records))
	for i, r := range records {
		out[i] = wire[at[i] : at[i]+len(r) : at[i]+len(r)]
	}
	return out
}

// walkProduce does the least any decoder of the benchmark's ProduceRequest
// can do: follow the lengths from each partition to the next (10 topics of
// 10 partitions, as Produce builds them), reading nothing else. Each step
// needs the length bytes behind the previous record, so its time is that of
// 100 dependent loads ~10 KiB apart: the floor under decode-aliased.
func walkProduce(wire []byte) int {
	off := 1 + 2 + 4 + 1 // null transactional id, acks, timeout, topic count
	for range recordTopics {
		off += int(wire[off]) // name: compact length (len+1, one byte) and bytes
		off++                 // partition count
		for range recordPartitions {
			off += 4 // index
			n := int(wire[off]&0x7f) | int(wire[off+1])<<7 - 1
			off += 2 + n // compact length of two bytes, records
			off++        // tag section: one zero byte
		}
		off++ // topic tag section
	}
	return off + 1 // request tag section
}
