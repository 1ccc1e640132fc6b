// Package bench compares kafkagen's generated codecs with other Go Kafka
// protocol libraries on the same bytes. The messages are built once with
// kafkagen's generated types (from the upstream corpus in
// ../conformance/gen) and encoded with them; every other library is then fed
// those bytes. See docs/benchmarks.md and `make bench`.
package bench

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"

	"github.com/kafkagen/kafkagen/conformance/gen/clients"
	"github.com/kafkagen/kafkagen/runtime"
)

// The versions measured.
const (
	MetadataVersion     int16 = 12
	FetchVersion        int16 = 12
	ProduceVersion      int16 = 9
	APIVersionsVersion  int16 = 3
	OffsetCommitVersion int16 = 8
	// DescribeConfigs stands for the APIs off the data path, whose codec
	// is table-driven (docs/benchmarks.md).
	DescribeConfigsVersion int16 = 4
)

// Shapes of the test messages.
const (
	metadataBrokers    = 5
	metadataTopics     = 100
	metadataPartitions = 10
	metadataReplicas   = 3

	recordTopics     = 10
	recordPartitions = 10
	// Each partition carries one uncompressed v2 record batch of exactly
	// batchLen bytes: recordsPerBatch records of about recordValueLen bytes
	// of value each (the last one fills the batch).
	batchLen        = 10 << 10
	recordsPerBatch = 10
	recordValueLen  = 1000

	apiKeys = 60

	commitTopics     = 10
	commitPartitions = 10

	configResources = 20
	configsEach     = 40
	synonymsEach    = 2
)

func topicID(i int) runtime.UUID {
	return runtime.UUIDFromInts(0x6b61666b6167656e^uint64(i)*0x9e3779b97f4a7c15, uint64(i)+1)
}

// Metadata is MetadataResponse v12: 5 brokers, 100 topics of 10 partitions
// with 3 replicas (all in sync).
func Metadata() *clients.MetadataResponse {
	m := clients.NewMetadataResponse()
	for i := range metadataBrokers {
		var br clients.MetadataResponseBroker
		br.Reset()
		br.NodeID = int32(i)
		br.Host = fmt.Sprintf("broker-%d.kafka.internal.example.com", i)
		br.Port = 9092
		br.Rack = runtime.NewNullString(fmt.Sprintf("eu-west-1%c", 'a'+i%3))
		m.Brokers = append(m.Brokers, br)
	}
	m.ClusterID = runtime.NewNullString("kq9hrVZ5TLqYWd1Rj5Ga3Q")
	m.ControllerID = 1
	for t := range metadataTopics {
		var tp clients.MetadataResponseTopic
		tp.Reset()
		tp.Name = runtime.NewNullString(fmt.Sprintf("orders.events.v1-%03d", t))
		tp.TopicID = topicID(t)
		tp.TopicAuthorizedOperations = -2147483648
		for p := range metadataPartitions {
			var pa clients.MetadataResponsePartition
			pa.Reset()
			pa.PartitionIndex = int32(p)
			leader := int32((t + p) % metadataBrokers)
			pa.LeaderID = leader
			pa.LeaderEpoch = int32(7 + p)
			for r := range metadataReplicas {
				n := (leader + int32(r)) % metadataBrokers
				pa.ReplicaNodes = append(pa.ReplicaNodes, n)
				pa.IsrNodes = append(pa.IsrNodes, n)
			}
			pa.OfflineReplicas = []int32{}
			tp.Partitions = append(tp.Partitions, pa)
		}
		m.Topics = append(m.Topics, tp)
	}
	return m
}

// Fetch is FetchResponse v12: 10 topics of 10 partitions, each with a 10 KiB
// record batch. seed varies the record bytes (not their length).
func Fetch(seed byte) *clients.FetchResponse {
	m := clients.NewFetchResponse()
	m.SessionID = 1234567
	for t := range recordTopics {
		var tp clients.FetchResponseFetchableTopicResponse
		tp.Reset()
		tp.Topic = fmt.Sprintf("orders.events.v1-%03d", t)
		for p := range recordPartitions {
			var pa clients.FetchResponsePartitionData
			pa.Reset()
			pa.PartitionIndex = int32(p)
			base := int64(1_000_000 + 1000*p)
			pa.HighWatermark = base + 5000
			pa.LastStableOffset = base + 5000
			pa.LogStartOffset = 0
			pa.AbortedTransactions = nil // null: no read_committed
			pa.PreferredReadReplica = -1
			pa.Records = RecordBatch(base, seed+byte(t*recordPartitions+p))
			tp.Partitions = append(tp.Partitions, pa)
		}
		m.Responses = append(m.Responses, tp)
	}
	return m
}

// Produce is ProduceRequest v9 (acks=all): 10 topics of 10 partitions, each
// with a 10 KiB record batch.
func Produce(seed byte) *clients.ProduceRequest {
	m := clients.NewProduceRequest()
	m.Acks = -1
	m.TimeoutMs = 30000
	for t := range recordTopics {
		var tp clients.ProduceRequestTopicProduceData
		tp.Reset()
		tp.Name = fmt.Sprintf("orders.events.v1-%03d", t)
		for p := range recordPartitions {
			var pa clients.ProduceRequestPartitionProduceData
			pa.Reset()
			pa.Index = int32(p)
			pa.Records = RecordBatch(0, seed+byte(t*recordPartitions+p))
			tp.PartitionData = append(tp.PartitionData, pa)
		}
		m.TopicData = append(m.TopicData, tp)
	}
	return m
}

// APIVersions is ApiVersionsResponse v3 with 60 API keys.
func APIVersions() *clients.APIVersionsResponse {
	m := clients.NewAPIVersionsResponse()
	for k := range apiKeys {
		var a clients.APIVersionsResponseAPIVersion
		a.Reset()
		a.APIKey = int16(k)
		a.MinVersion = int16(k % 3)
		a.MaxVersion = int16(3 + k%15)
		m.APIKeys = append(m.APIKeys, a)
	}
	return m
}

// OffsetCommit is OffsetCommitRequest v8: 10 topics of 10 partitions.
func OffsetCommit() *clients.OffsetCommitRequest {
	m := clients.NewOffsetCommitRequest()
	m.GroupID = "orders-enricher"
	m.GenerationIDOrMemberEpoch = 42
	m.MemberID = "orders-enricher-7-6f2b1c9e-3d4a-4e5f-9a8b-0c1d2e3f4a5b"
	for t := range commitTopics {
		var tp clients.OffsetCommitRequestTopic
		tp.Reset()
		tp.Name = fmt.Sprintf("orders.events.v1-%03d", t)
		for p := range commitPartitions {
			var pa clients.OffsetCommitRequestPartition
			pa.Reset()
			pa.PartitionIndex = int32(p)
			pa.CommittedOffset = int64(1_000_000 + 1000*t + p)
			pa.CommittedLeaderEpoch = 7
			pa.CommittedMetadata = runtime.NewNullString("")
			tp.Partitions = append(tp.Partitions, pa)
		}
		m.Topics = append(m.Topics, tp)
	}
	return m
}

// DescribeConfigs is DescribeConfigsResponse v4, an admin API's answer: 20
// topics of 40 configs with 2 synonyms each.
func DescribeConfigs() *clients.DescribeConfigsResponse {
	m := clients.NewDescribeConfigsResponse()
	for r := range configResources {
		res := clients.MakeDescribeConfigsResponseDescribeConfigsResult()
		res.ResourceType = 2 // topic
		res.ResourceName = fmt.Sprintf("orders.events.v1-%03d", r)
		for c := range configsEach {
			cfg := clients.MakeDescribeConfigsResponseDescribeConfigsResourceResult()
			cfg.Name = fmt.Sprintf("config.name.%02d", c)
			cfg.Value = runtime.NewNullString(fmt.Sprintf("%d", 1000*r+c))
			cfg.ConfigSource = int8(1 + c%5)
			cfg.ConfigType = int8(c % 9)
			cfg.Documentation = runtime.NullString{} // null: describe without documentation
			for s := range synonymsEach {
				syn := clients.MakeDescribeConfigsResponseDescribeConfigsSynonym()
				syn.Name = fmt.Sprintf("log.config.name.%02d", c)
				syn.Value = runtime.NewNullString(fmt.Sprintf("%d", 100*s+c))
				syn.Source = int8(4 + s)
				cfg.Synonyms = append(cfg.Synonyms, syn)
			}
			res.Configs = append(res.Configs, cfg)
		}
		m.Results = append(m.Results, res)
	}
	return m
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// RecordBatch returns one valid, uncompressed v2 (magic 2) record batch of
// recordsPerBatch records starting at baseOffset, so that libraries which
// parse records (sarama) accept it. seed varies the value bytes.
func RecordBatch(baseOffset int64, seed byte) []byte {
	const ts = 1_750_000_000_000 // ms
	b := make([]byte, 0, batchLen)
	b = binary.BigEndian.AppendUint64(b, uint64(baseOffset))
	b = binary.BigEndian.AppendUint32(b, 0) // batchLength, patched below
	b = binary.BigEndian.AppendUint32(b, 7) // partitionLeaderEpoch
	b = append(b, 2)                        // magic
	b = binary.BigEndian.AppendUint32(b, 0) // crc, patched below
	b = binary.BigEndian.AppendUint16(b, 0) // attributes: no compression
	b = binary.BigEndian.AppendUint32(b, recordsPerBatch-1)
	b = binary.BigEndian.AppendUint64(b, ts) // baseTimestamp
	b = binary.BigEndian.AppendUint64(b, ts+recordsPerBatch-1)
	b = binary.BigEndian.AppendUint64(b, ^uint64(0)) // producerId -1
	b = binary.BigEndian.AppendUint16(b, 0xffff)     // producerEpoch -1
	b = binary.BigEndian.AppendUint32(b, 0xffffffff) // baseSequence -1
	b = binary.BigEndian.AppendUint32(b, recordsPerBatch)
	for i := range recordsPerBatch {
		key := fmt.Appendf(nil, "key-%05d", i)
		r := record(i, key, recordValueLen, seed)
		if i == recordsPerBatch-1 { // the last value fills the batch to batchLen
			r = nil
		search:
			for n := recordValueLen - 200; n < recordValueLen+200; n++ {
				// A length varint may grow by a byte: a longer key makes up.
				for pad := range 3 {
					if c := record(i, fmt.Appendf(nil, "key-%0*d", 5+pad, i), n, seed); len(b)+len(c) == batchLen {
						r = c
						break search
					}
				}
			}
		}
		b = append(b, r...)
	}
	if len(b) != batchLen {
		panic(fmt.Sprintf("record batch is %d bytes, not %d", len(b), batchLen))
	}
	binary.BigEndian.PutUint32(b[8:], uint32(len(b)-12))
	binary.BigEndian.PutUint32(b[17:], crc32.Checksum(b[21:], castagnoli))
	return b
}

// record is one v2 record, its length first.
func record(i int, key []byte, valueLen int, seed byte) []byte {
	var body []byte
	body = append(body, 0)                     // attributes
	body = binary.AppendVarint(body, int64(i)) // timestampDelta
	body = binary.AppendVarint(body, int64(i)) // offsetDelta
	body = binary.AppendVarint(body, int64(len(key)))
	body = append(body, key...)
	body = binary.AppendVarint(body, int64(valueLen))
	for j := range valueLen {
		body = append(body, byte(j*31+i*7)^seed)
	}
	body = binary.AppendVarint(body, 0) // headers
	return append(binary.AppendVarint(nil, int64(len(body))), body...)
}
