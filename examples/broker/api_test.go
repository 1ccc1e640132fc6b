package main

import (
	"context"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/frames"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

func TestAPIVersions(t *testing.T) {
	tb := startBroker(t, Config{})
	cl := tb.client(t, "c")
	for v := int16(0); v <= 4; v++ {
		resp := do(t, cl, kafkamsg.NewAPIVersionsRequest(), v, kafkamsg.NewAPIVersionsResponse())
		require.Equal(t, codeNone, resp.ErrorCode)
		got := map[int16][2]int16{}
		for _, k := range resp.APIKeys {
			got[k.APIKey] = [2]int16{k.MinVersion, k.MaxVersion}
		}
		require.Len(t, got, len(servedAPIs), "v%d", v)
		assert.Equal(t, [2]int16{0, 13}, got[kafkamsg.APIKeyProduce], "the union of the corpus and 4.2.0-rc1: Produce 13 names topics by id")
		assert.Equal(t, [2]int16{0, 18}, got[kafkamsg.APIKeyFetch])
		assert.Equal(t, [2]int16{0, 5}, got[kafkamsg.APIKeyInitProducerID], "InitProducerId v6 is unstable in 4.2's spec: not advertised")
		assert.Equal(t, [2]int16{0, 4}, got[kafkamsg.APIKeyEndTxn], "EndTxn v5 is unstable in the spec: not advertised")
		assert.Equal(t, [2]int16{0, 1}, got[kafkamsg.APIKeySaslHandshake], "listed on every listener, as Kafka lists it")
		assert.Equal(t, [2]int16{0, 2}, got[kafkamsg.APIKeySaslAuthenticate])
	}
}

// TestEveryServedVersionAnswers sends every served API at every version
// with its default request (tuned so nothing waits) and checks an answer
// arrives and decodes: the broker builds no response its version cannot
// carry.
func TestEveryServedVersionAnswers(t *testing.T) {
	tb := startBroker(t, Config{})
	cl := tb.client(t, "every-version")
	createTopic(t, cl, "t", 1)
	for _, key := range servedAPIs {
		r := supported[key]
		for v := r.min; v <= r.max; v++ {
			req := kafkamsg.NewRequest(key)
			switch m := req.(type) {
			case *kafkamsg.ProduceRequest:
				m.Acks = -1
			case *kafkamsg.FetchRequest:
				m.MaxWaitMs = 0
			}
			resp := kafkamsg.NewResponse(key)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			err := cl.Do(ctx, req, v, resp)
			cancel()
			require.NoError(t, err, "%s v%d", apiName(key), v)
		}
	}
	assert.Zero(t, tb.stats.ReencodeDiffs)
}

func TestHandlerForEveryServedAPI(t *testing.T) {
	b, err := NewBroker(Config{Logger: discardLogger()}, "127.0.0.1", 1)
	require.NoError(t, err)
	defer b.Close()
	for _, key := range servedAPIs {
		req := kafkamsg.NewRequest(key)
		if p, ok := req.(*kafkamsg.ProduceRequest); ok {
			p.Acks = 1
		}
		c := &call{ctx: context.Background(), version: supported[key].max, rec: newRecordTools()}
		resp, err := b.Handle(c, req)
		require.NoError(t, err, apiName(key))
		require.NotNil(t, resp, apiName(key))
		assert.Equal(t, key, resp.(runtime.Versioned).APIKey())
	}
	_, err = b.Handle(&call{ctx: context.Background()}, kafkamsg.NewDescribeACLsRequest())
	assert.ErrorContains(t, err, "no handler")
	assert.Equal(t, "ApiVersions", apiName(kafkamsg.APIKeyAPIVersions))
	assert.Equal(t, "Unknown999", apiName(999))
}

// rawRequest writes one request frame built by hand (for versions the
// generated package cannot encode) and returns the response frame, or the
// read error when the broker closes the connection.
func rawRequest(t *testing.T, addr string, frame []byte) ([]byte, error) {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.SetDeadline(time.Now().Add(5*time.Second)))
	sized, err := frames.AppendFrame(nil, frame)
	require.NoError(t, err)
	_, err = conn.Write(sized)
	require.NoError(t, err)
	resp, err := frames.NewFrameReader(conn, 0).Next()
	return append([]byte{}, resp...), err
}

// header encodes a request header v1, or v2 for flexible.
func header(t *testing.T, key, version int16, clientID string, flexible bool) []byte {
	h := frames.RequestHeader{APIKey: key, APIVersion: version, CorrelationID: 7, ClientID: runtime.NewNullString(clientID)}
	hv := int16(1)
	if flexible {
		hv = 2
	}
	b, err := h.AppendTo(nil, hv)
	require.NoError(t, err)
	return b
}

func TestUnsupportedRequests(t *testing.T) {
	tb := startBroker(t, Config{})

	// ApiVersions above the supported range: a v0 answer with
	// UNSUPPORTED_VERSION and the range, as Kafka gives (KIP-511).
	resp, err := rawRequest(t, tb.addr, header(t, kafkamsg.APIKeyAPIVersions, 9, "future", true))
	require.NoError(t, err)
	var rh frames.ResponseHeader
	n, err := rh.Decode(resp, 0, false)
	require.NoError(t, err)
	assert.Equal(t, int32(7), rh.CorrelationID)
	av := kafkamsg.NewAPIVersionsResponse()
	_, err = av.Decode(resp[n:], 0)
	require.NoError(t, err)
	assert.Equal(t, kerrors.UnsupportedVersion.Code, av.ErrorCode)
	require.NotEmpty(t, av.APIKeys)
	assert.Equal(t, kafkamsg.APIVersionsResponseAPIVersion{APIKey: kafkamsg.APIKeyAPIVersions, MinVersion: 0, MaxVersion: 4}, av.APIKeys[0])

	// Any other unsupported version, an unserved key or a malformed body
	// closes the connection.
	for _, frame := range [][]byte{
		header(t, kafkamsg.APIKeyProduce, 99, "future", true),
		header(t, kafkamsg.NewDescribeACLsRequest().APIKey(), 1, "acl", false),
		append(header(t, kafkamsg.APIKeyMetadata, 1, "broken", false), 0, 0, 0, 9), // 9 topics, no bytes
	} {
		_, err := rawRequest(t, tb.addr, frame)
		assert.Error(t, err, "%x", frame)
	}
	// The two that closed the connection count (once it is closed, which the
	// client may see first); the ApiVersions wire answered itself and the
	// malformed one do not.
	assert.Eventually(t, func() bool {
		requests, _ := tb.stats.Snapshot()
		return requests == 2
	}, 5*time.Second, 10*time.Millisecond, "unsupported requests that closed the connection count")
	time.Sleep(50 * time.Millisecond)
	requests, _ := tb.stats.Snapshot()
	assert.Equal(t, int64(2), requests, "nothing else counts")
}

func TestMetadata(t *testing.T) {
	tb := startBroker(t, Config{AutoCreate: true, Partitions: 3})
	cl := tb.client(t, "meta")
	ask := func(version int16, allow bool, topics ...kafkamsg.MetadataRequestTopic) *kafkamsg.MetadataResponse {
		req := kafkamsg.NewMetadataRequest()
		req.Topics = topics
		if version >= 4 {
			req.AllowAutoTopicCreation = allow
		}
		return do(t, cl, req, version, kafkamsg.NewMetadataResponse())
	}
	named := func(name string) kafkamsg.MetadataRequestTopic {
		return kafkamsg.MetadataRequestTopic{Name: runtime.NewNullString(name)}
	}

	resp := ask(4, false, named("absent"))
	assert.Equal(t, kerrors.UnknownTopicOrPartition.Code, resp.Topics[0].ErrorCode, "no auto-creation when the client says no")
	resp = ask(1, false, named("auto"))
	require.Equal(t, codeNone, resp.Topics[0].ErrorCode, "before v4 Kafka always creates")
	assert.Len(t, resp.Topics[0].Partitions, 3)
	resp = ask(12, true, named("bad/name"))
	assert.Equal(t, kerrors.InvalidTopicException.Code, resp.Topics[0].ErrorCode)

	resp = ask(12, true, named("second"))
	require.Len(t, resp.Brokers, 1)
	assert.Equal(t, tb.addr, fmt.Sprintf("%s:%d", resp.Brokers[0].Host, resp.Brokers[0].Port), "advertises the bound address")
	assert.Equal(t, clusterID, resp.ClusterID.Value)
	id := resp.Topics[0].TopicID
	require.NotEqual(t, runtime.UUID{}, id)
	p := resp.Topics[0].Partitions[2]
	assert.Equal(t, kafkamsg.MetadataResponsePartition{PartitionIndex: 2, LeaderID: 0, LeaderEpoch: 0,
		ReplicaNodes: []int32{0}, IsrNodes: []int32{0}, OfflineReplicas: []int32{}}, p)

	byID := ask(12, false, kafkamsg.MetadataRequestTopic{TopicID: id})
	assert.Equal(t, "second", byID.Topics[0].Name.Value)
	unknownID := ask(12, false, kafkamsg.MetadataRequestTopic{TopicID: runtime.UUID{9}})
	assert.Equal(t, kerrors.UnknownTopicID.Code, unknownID.Topics[0].ErrorCode)

	none := kafkamsg.NewMetadataRequest()
	none.Topics = []kafkamsg.MetadataRequestTopic{}
	assert.Empty(t, do(t, cl, none, 12, kafkamsg.NewMetadataResponse()).Topics, "an empty list at v1+ asks for no topics")
	all := kafkamsg.NewMetadataRequest()
	all.Topics = nil
	var names []string
	for _, t := range do(t, cl, all, 12, kafkamsg.NewMetadataResponse()).Topics {
		names = append(names, t.Name.Value)
	}
	assert.Equal(t, []string{"auto", "second"}, names, "a null list asks for all")
	v0 := do(t, cl, none, 0, kafkamsg.NewMetadataResponse())
	assert.Len(t, v0.Topics, 2, "an empty list at v0 asks for all")
}

func TestCreateAndDeleteTopics(t *testing.T) {
	tb := startBroker(t, Config{Partitions: 2})
	cl := tb.client(t, "admin")
	create := func(version int16, validateOnly bool, topics ...kafkamsg.CreateTopicsRequestCreatableTopic) []kafkamsg.CreateTopicsResponseCreatableTopicResult {
		req := kafkamsg.NewCreateTopicsRequest()
		req.Topics, req.ValidateOnly = topics, validateOnly
		return do(t, cl, req, version, kafkamsg.NewCreateTopicsResponse()).Topics
	}
	topic := func(name string, partitions int32, rf int16) kafkamsg.CreateTopicsRequestCreatableTopic {
		ct := defaults[kafkamsg.CreateTopicsRequestCreatableTopic]()
		ct.Name, ct.NumPartitions, ct.ReplicationFactor = name, partitions, rf
		return ct
	}
	res := create(7, false, topic("a", 4, 1), topic("b", -1, -1), topic("a", 1, 1), topic("c", 0, 1), topic("d", 1, 3), topic("", 1, 1))
	codes := []int16{}
	for _, r := range res {
		codes = append(codes, r.ErrorCode)
	}
	assert.Equal(t, []int16{codeNone, codeNone, kerrors.TopicAlreadyExists.Code, kerrors.InvalidPartitions.Code,
		kerrors.InvalidReplicationFactor.Code, kerrors.InvalidTopicException.Code}, codes)
	assert.Equal(t, int32(4), res[0].NumPartitions)
	assert.Equal(t, int32(2), res[1].NumPartitions, "-1 takes the broker's default")
	assert.True(t, res[2].ErrorMessage.Valid)

	res = create(7, true, topic("e", -1, 1), topic("a", 1, 1), topic("f", 0, 1), topic("a/b", 1, 1))
	assert.Equal(t, []int16{codeNone, kerrors.TopicAlreadyExists.Code, kerrors.InvalidPartitions.Code, kerrors.InvalidTopicException.Code},
		[]int16{res[0].ErrorCode, res[1].ErrorCode, res[2].ErrorCode, res[3].ErrorCode}, "validate-only checks what creating would")
	assert.Equal(t, int32(2), res[0].NumPartitions, "validate-only answers the partitions the topic would get")
	res = create(1, true, topic("e", 1, 1))
	assert.Equal(t, codeNone, res[0].ErrorCode)
	res = create(0, false, topic("e", 1, 1))
	assert.Equal(t, codeNone, res[0].ErrorCode, "validate-only created nothing")

	del := kafkamsg.NewDeleteTopicsRequest()
	del.TopicNames = []string{"a", "zzz"}
	dr := do(t, cl, del, 5, kafkamsg.NewDeleteTopicsResponse())
	assert.Equal(t, codeNone, dr.Responses[0].ErrorCode)
	assert.Equal(t, kerrors.UnknownTopicOrPartition.Code, dr.Responses[1].ErrorCode)

	idOfB := tb.topics["b"].id
	del = kafkamsg.NewDeleteTopicsRequest()
	del.Topics = []kafkamsg.DeleteTopicsRequestDeleteTopicState{{Name: runtime.Null, TopicID: idOfB}, {Name: runtime.Null, TopicID: runtime.UUID{1}}}
	dr = do(t, cl, del, 6, kafkamsg.NewDeleteTopicsResponse())
	assert.Equal(t, "b", dr.Responses[0].Name.Value)
	assert.Equal(t, codeNone, dr.Responses[0].ErrorCode)
	assert.Equal(t, kerrors.UnknownTopicID.Code, dr.Responses[1].ErrorCode)
	assert.Equal(t, []string{"e"}, tb.sortedTopicNames())
}
