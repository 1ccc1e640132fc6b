package main

import (
	"context"
	"fmt"
	"time"

	"github.com/kafkagen/kafkagen/conformance/gen/clients"
	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"

	"github.com/kafkagen/kafkagen/interop/internal/scenario"
)

// The attacks speak Kafka with kafkagen's own client (wire, and the
// client protocol generated from the specs), which sends each request at
// exactly the version asked, whatever the proxy advertises.

// Kafka's error codes the attacks expect (docs/protocol.md).
const (
	codeUnknownTopicOrPartition    int16 = 3
	codeTopicAuthorizationFailed   int16 = 29
	codeClusterAuthorizationFailed int16 = 31
	codeSASLAuthenticationFailed   int16 = 58
	codeUnknownTopicID             int16 = 100
)

// gatewayDialer opens connections to the proxy as one tenant or another.
type gatewayDialer struct {
	addr   string // the proxy's bootstrap address
	caFile string
}

// dial connects over TLS and authenticates as user with mechanism;
// clientID names the connection in the broker's stats.
func (d gatewayDialer) dial(ctx context.Context, user, password, mechanism, clientID string) (*wire.Conn, error) {
	var m wire.SASLMechanism
	var err error
	switch mechanism {
	case scenario.Plain:
		m = wire.PlainAuth(user, password)
	case scenario.ScramSHA256:
		m, err = wire.ScramSHA256Auth(user, password)
	case scenario.ScramSHA512:
		m, err = wire.ScramSHA512Auth(user, password)
	default:
		err = fmt.Errorf("no SASL mechanism %q here", mechanism)
	}
	if err != nil {
		return nil, err
	}
	return d.dialWith(ctx, m, clientID)
}

// dialWith connects over TLS and authenticates with m (OAUTHBEARER's
// token, or dial's user and password).
func (d gatewayDialer) dialWith(ctx context.Context, m wire.SASLMechanism, clientID string) (*wire.Conn, error) {
	tlsConfig, err := scenario.Security{Protocol: scenario.SASLSSL, CAFile: d.caFile}.TLSConfig()
	if err != nil {
		return nil, err
	}
	return wire.Dial(ctx, d.addr, wire.ConnConfig{ClientID: clientID, TLS: tlsConfig, SASL: m,
		SoftwareName: "kafkagen-interop", SoftwareVersion: "0.0.0", RequestTimeout: 15 * time.Second})
}

func nullString(s string) runtime.NullString { return runtime.NullString{Value: s, Valid: true} }

// metadataOf asks for one topic by name, or by id when name is "".
func metadataOf(ctx context.Context, c *wire.Conn, name string, id runtime.UUID, autoCreate bool) (*clients.MetadataResponseTopic, error) {
	req := clients.NewMetadataRequest()
	t := clients.MetadataRequestTopic{TopicID: id}
	if name != "" {
		t.Name = nullString(name)
	}
	req.Topics = []clients.MetadataRequestTopic{t}
	req.AllowAutoTopicCreation = autoCreate
	var resp clients.MetadataResponse
	if err := c.DoAt(ctx, req, 12, &resp); err != nil {
		return nil, err
	}
	if len(resp.Topics) != 1 {
		return nil, fmt.Errorf("Metadata v12: %d topics in the answer, want 1", len(resp.Topics))
	}
	return &resp.Topics[0], nil
}

// fetchTopic reads partition 0 of a topic, by name, or by id when name is
// "", from offset 0, and returns the first error code and the bytes of
// records in the answer.
func fetchTopic(ctx context.Context, c *wire.Conn, version int16, name string, id runtime.UUID) (code int16, recordBytes int, err error) {
	req := clients.NewFetchRequest()
	req.ReplicaID, req.MaxWaitMs, req.MinBytes, req.MaxBytes = -1, 100, 1, 1<<20
	req.SessionID, req.SessionEpoch = 0, -1
	req.Topics = []clients.FetchRequestFetchTopic{{Topic: name, TopicID: id, Partitions: []clients.FetchRequestFetchPartition{{
		Partition: 0, CurrentLeaderEpoch: runtime.UnknownLeaderEpoch, LastFetchedEpoch: runtime.UnknownLeaderEpoch,
		LogStartOffset: -1, PartitionMaxBytes: 1 << 20,
	}}}}
	var resp clients.FetchResponse
	if err := c.DoAt(ctx, req, version, &resp); err != nil {
		return 0, 0, err
	}
	code = resp.ErrorCode
	for _, t := range resp.Responses {
		for _, p := range t.Partitions {
			if code == 0 {
				code = p.ErrorCode
			}
			recordBytes += len(p.Records)
		}
	}
	return code, recordBytes, nil
}

// deleteTopic deletes a topic by name at v5, or by id at v6 when name is "",
// and returns the topic's error code.
func deleteTopic(ctx context.Context, c *wire.Conn, name string, id runtime.UUID) (int16, error) {
	req := clients.NewDeleteTopicsRequest()
	req.TimeoutMs = 10000
	version := int16(6)
	if name != "" {
		req.TopicNames, version = []string{name}, 5
	} else {
		req.Topics = []clients.DeleteTopicsRequestDeleteTopicState{{TopicID: id}}
	}
	var resp clients.DeleteTopicsResponse
	if err := c.DoAt(ctx, req, version, &resp); err != nil {
		return 0, err
	}
	if len(resp.Responses) != 1 {
		return 0, fmt.Errorf("DeleteTopics v%d: %d topics in the answer, want 1", version, len(resp.Responses))
	}
	return resp.Responses[0].ErrorCode, nil
}

// createTopic creates a topic of one partition at v7 and returns its error
// code.
func createTopic(ctx context.Context, c *wire.Conn, name string) (int16, error) {
	req := clients.NewCreateTopicsRequest()
	req.TimeoutMs = 10000
	req.Topics = []clients.CreateTopicsRequestCreatableTopic{{Name: name, NumPartitions: 1, ReplicationFactor: 1}}
	var resp clients.CreateTopicsResponse
	if err := c.DoAt(ctx, req, 7, &resp); err != nil {
		return 0, err
	}
	if len(resp.Topics) != 1 {
		return 0, fmt.Errorf("CreateTopics v7: %d topics in the answer, want 1", len(resp.Topics))
	}
	return resp.Topics[0].ErrorCode, nil
}

// produceTo writes the n records of the scenario rule for topic to its
// partition 0, by name at v9 with acks all, and returns the partition's
// error code.
func produceTo(ctx context.Context, c *wire.Conn, topic string, n int) (int16, error) {
	bb := records.NewBatchBuilder()
	now := time.Now().UnixMilli()
	for _, r := range scenario.Records(topic, n, false) {
		bb.Append(now, r.Key, r.Value)
	}
	batch, err := bb.AppendTo(nil)
	if err != nil {
		return 0, err
	}
	code, _, err := produceBatch(ctx, c, topic, batch)
	return code, err
}

// produceBatch writes a record batch to partition 0 of topic, by name at
// v9 with acks all, and returns the partition's error code and the
// answer's throttle_time_ms.
func produceBatch(ctx context.Context, c *wire.Conn, topic string, batch []byte) (code int16, throttleMs int32, err error) {
	req := clients.NewProduceRequest()
	req.Acks, req.TimeoutMs = -1, 10000
	req.TopicData = []clients.ProduceRequestTopicProduceData{{
		Name:          topic,
		PartitionData: []clients.ProduceRequestPartitionProduceData{{Index: 0, Records: batch}},
	}}
	var resp clients.ProduceResponse
	if err := c.DoAt(ctx, req, 9, &resp); err != nil {
		return 0, 0, err
	}
	if len(resp.Responses) != 1 || len(resp.Responses[0].PartitionResponses) != 1 {
		return 0, 0, fmt.Errorf("Produce v9: answer for %d topics, want 1 partition", len(resp.Responses))
	}
	return resp.Responses[0].PartitionResponses[0].ErrorCode, resp.ThrottleTimeMs, nil
}
