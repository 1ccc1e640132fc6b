package reverse

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/kafkagen/kafkagen/conformance/gen/clients"
	"github.com/kafkagen/kafkagen/interop/internal/scenario"
	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// codecs are the compressions of the produced batches, one batch each.
var codecs = []records.Compression{
	records.CompressionNone, records.CompressionGzip, records.CompressionSnappy,
	records.CompressionLZ4, records.CompressionZstd,
}

// Run starts kfake on 127.0.0.1, runs the client against it (n records, at
// least one per codec) and stops kfake; then the same over TLS and SASL
// (Secure). It returns what it did and the versions it used.
func Run(ctx context.Context, n int) (string, error) {
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		return "", fmt.Errorf("kfake: %w", err)
	}
	defer cluster.Close()
	plain, err := Client(ctx, cluster.ListenAddrs()[0], n)
	if err != nil {
		return "", err
	}
	secure, err := Secure(ctx, n)
	if err != nil {
		return "", err
	}
	return plain + "; " + secure, nil
}

// Client runs the reverse scenario against the broker at addr twice: at the
// highest versions both sides support, with a burst of pipelined requests
// on the connection, and at the lowest (Produce v3 and Fetch v4 at least:
// the first to carry v2 record batches, which is what records builds).
func Client(ctx context.Context, addr string, n int) (string, error) {
	if n < len(codecs) {
		return "", fmt.Errorf("need at least %d records, one per codec", len(codecs))
	}
	high, err := pass(ctx, addr, "kafkagen-reverse-highest", n, highest, wire.ConnConfig{})
	if err != nil {
		return "", fmt.Errorf("highest versions: %w", err)
	}
	low, err := pass(ctx, addr, "kafkagen-reverse-lowest", n, lowest, wire.ConnConfig{})
	if err != nil {
		return "", fmt.Errorf("lowest versions: %w", err)
	}
	return high + "; " + low, nil
}

// pass creates topic, checks its metadata, produces a batch per codec,
// lists the end offset and fetches the records back, at the versions of
// policy, on a connection dialled with cfg.
func pass(ctx context.Context, addr, topic string, n int, policy versionPolicy, cfg wire.ConnConfig) (string, error) {
	s, err := dial(ctx, addr, topic, policy, cfg)
	if err != nil {
		return "", err
	}
	defer s.close()
	if err := createTopic(ctx, s, topic); err != nil {
		return "", err
	}
	topicID, _, err := metadata(ctx, s, topic)
	if err != nil {
		return "", err
	}
	// zstd batches need Produce v7 and Fetch v10.
	batchCodecs := codecs
	if v, _ := s.conn.Version(clients.NewProduceRequest()); policy.lowest || v < 7 {
		batchCodecs = codecs[:len(codecs)-1]
	}
	want := scenario.Records(topic, n, true)
	if err := produce(ctx, s, topic, want, batchCodecs); err != nil {
		return "", err
	}
	end, err := listEnd(ctx, s, topic)
	if err != nil {
		return "", err
	}
	if end != int64(n) {
		return "", fmt.Errorf("ListOffsets: end offset %d after producing %d records", end, n)
	}
	pipelined := 0
	if !policy.lowest {
		if pipelined, err = burst(ctx, s, topic, int64(n)); err != nil {
			return "", err
		}
	}
	got, err := fetch(ctx, s, topic, topicID, n)
	if err != nil {
		return "", err
	}
	if err := scenario.Check(got, want, 0); err != nil {
		return "", fmt.Errorf("fetched records: %w", err)
	}
	var used []string
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, name := range []string{"ApiVersionsRequest", "CreateTopicsRequest", "MetadataRequest", "ProduceRequest", "ListOffsetsRequest", "FetchRequest"} {
		used = append(used, fmt.Sprintf("%s v%d", strings.TrimSuffix(name, "Request"), s.used[name]))
	}
	names := make([]string, len(batchCodecs))
	for i, c := range batchCodecs {
		names[i] = c.String()
	}
	detail := fmt.Sprintf("%s: %d records in %d batches (%s) produced and fetched back", topic, n, len(batchCodecs), strings.Join(names, ", "))
	if pipelined > 0 {
		detail += fmt.Sprintf(", %d requests pipelined on one connection", pipelined)
	}
	return detail + " (" + strings.Join(used, ", ") + ")", nil
}

func createTopic(ctx context.Context, s *session, topic string) error {
	req := clients.NewCreateTopicsRequest()
	req.TimeoutMs = 10000
	req.Topics = []clients.CreateTopicsRequestCreatableTopic{{Name: topic, NumPartitions: 1, ReplicationFactor: 1}}
	var resp clients.CreateTopicsResponse
	if err := s.do(ctx, req, &resp); err != nil {
		return err
	}
	if len(resp.Topics) != 1 || resp.Topics[0].Name != topic {
		return fmt.Errorf("CreateTopics: answer for %d topics, want %s", len(resp.Topics), topic)
	}
	if err := kerrors.ErrorCode(resp.Topics[0].ErrorCode); err != nil {
		return fmt.Errorf("CreateTopics %s: %w", topic, err)
	}
	return nil
}

// metadata checks that the topic has one partition led by a listed broker
// and returns its topic id (zero before Metadata v10) and leader.
func metadata(ctx context.Context, s *session, topic string) (runtime.UUID, int32, error) {
	req := clients.NewMetadataRequest()
	req.Topics = []clients.MetadataRequestTopic{{Name: runtime.NullString{Value: topic, Valid: true}}}
	var resp clients.MetadataResponse
	if err := s.do(ctx, req, &resp); err != nil {
		return runtime.UUID{}, 0, err
	}
	if len(resp.Topics) != 1 || resp.Topics[0].Name.Value != topic {
		return runtime.UUID{}, 0, fmt.Errorf("Metadata: %d topics in the answer, want %s", len(resp.Topics), topic)
	}
	t := resp.Topics[0]
	if err := kerrors.ErrorCode(t.ErrorCode); err != nil {
		return runtime.UUID{}, 0, fmt.Errorf("Metadata %s: %w", topic, err)
	}
	if len(t.Partitions) != 1 || t.Partitions[0].PartitionIndex != 0 {
		return runtime.UUID{}, 0, fmt.Errorf("Metadata %s: %d partitions, want partition 0 only", topic, len(t.Partitions))
	}
	leader := t.Partitions[0].LeaderID
	for _, b := range resp.Brokers {
		if b.NodeID == leader {
			return t.TopicID, leader, nil
		}
	}
	return runtime.UUID{}, 0, fmt.Errorf("Metadata: leader %d of %s is not among the %d brokers listed", leader, topic, len(resp.Brokers))
}

// produce sends one batch per codec, in order, with acks all, and checks
// that each lands right after the previous one.
func produce(ctx context.Context, s *session, topic string, rs []scenario.Record, codecs []records.Compression) error {
	bb := records.NewBatchBuilder()
	per := len(rs) / len(codecs)
	for i, codec := range codecs {
		first, last := i*per, (i+1)*per
		if i == len(codecs)-1 {
			last = len(rs)
		}
		bb.Reset()
		bb.Compression = codec
		now := time.Now().UnixMilli()
		for _, r := range rs[first:last] {
			hs := make([]records.Header, len(r.Headers))
			for j, h := range r.Headers {
				hs[j] = records.Header{Key: []byte(h.Key), Value: h.Value}
			}
			bb.Append(now, r.Key, r.Value, hs...)
		}
		batch, err := bb.AppendTo(nil)
		if err != nil {
			return fmt.Errorf("building the %s batch: %w", codec, err)
		}
		req := clients.NewProduceRequest()
		req.Acks, req.TimeoutMs = -1, 10000
		req.TopicData = []clients.ProduceRequestTopicProduceData{{
			Name:          topic,
			PartitionData: []clients.ProduceRequestPartitionProduceData{{Index: 0, Records: batch}},
		}}
		var resp clients.ProduceResponse
		if err := s.do(ctx, req, &resp); err != nil {
			return err
		}
		if len(resp.Responses) != 1 || len(resp.Responses[0].PartitionResponses) != 1 {
			return fmt.Errorf("Produce (%s batch): answer for %d topics, want 1 partition", codec, len(resp.Responses))
		}
		p := resp.Responses[0].PartitionResponses[0]
		if err := kerrors.ErrorCode(p.ErrorCode); err != nil {
			return fmt.Errorf("Produce (%s batch): %w", codec, err)
		}
		if p.BaseOffset != int64(first) {
			return fmt.Errorf("Produce (%s batch): base offset %d, want %d", codec, p.BaseOffset, first)
		}
	}
	return nil
}

// listEnd asks ListOffsets for the partition's end offset (timestamp -1).
func listEnd(ctx context.Context, s *session, topic string) (int64, error) {
	req := clients.NewListOffsetsRequest()
	req.Topics = []clients.ListOffsetsRequestListOffsetsTopic{{
		Name:       topic,
		Partitions: []clients.ListOffsetsRequestListOffsetsPartition{{PartitionIndex: 0, CurrentLeaderEpoch: -1, Timestamp: -1, MaxNumOffsets: 1}},
	}}
	var resp clients.ListOffsetsResponse
	if err := s.do(ctx, req, &resp); err != nil {
		return 0, err
	}
	if len(resp.Topics) != 1 || len(resp.Topics[0].Partitions) != 1 {
		return 0, fmt.Errorf("ListOffsets: answer for %d topics, want 1 partition", len(resp.Topics))
	}
	p := resp.Topics[0].Partitions[0]
	if err := kerrors.ErrorCode(p.ErrorCode); err != nil {
		return 0, fmt.Errorf("ListOffsets: %w", err)
	}
	if s.version(req) == 0 {
		if len(p.OldStyleOffsets) != 1 {
			return 0, fmt.Errorf("ListOffsets v0: %d offsets, want 1", len(p.OldStyleOffsets))
		}
		return p.OldStyleOffsets[0], nil
	}
	return p.Offset, nil
}
