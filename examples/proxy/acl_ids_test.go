package main

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/examples/proxy/kafkamsg"
	"github.com/kafkagen/kafkagen/proxy"
	"github.com/kafkagen/kafkagen/proxy/acl"
	"github.com/kafkagen/kafkagen/runtime"
)

// The ids of the tests: "a.x" carol may use, "b.x" she may not, and one the
// proxy was never shown.
var (
	idAllowed = runtime.UUID{0xa}
	idDenied  = runtime.UUID{0xb}
	idUnknown = runtime.UUID{0xc}
	idLabels  = map[runtime.UUID]string{idAllowed: "a.x", idDenied: "b.x", idUnknown: "unknown"}
)

// testIDFilter is testACLFilter (splitPolicy) after a Metadata v12 answer
// showed the ids of "a.x" and "b.x".
func testIDFilter(t *testing.T) *acl.Filter {
	t.Helper()
	f := testACLFilter(t, splitPolicy())
	md := kafkamsg.NewMetadataResponse()
	for _, id := range []runtime.UUID{idAllowed, idDenied} {
		md.Topics = append(md.Topics, kafkamsg.MetadataResponseTopic{Name: runtime.NewNullString(idLabels[id]), TopicID: id})
	}
	x := exchange("root", kafkamsg.APIKeyMetadata, 12, kafkamsg.NewMetadataRequest())
	x.Response, x.ResponseVersion = md, 12
	require.NoError(t, f.Response(x))
	require.Equal(t, 2, f.TopicNames().Len(), "learned from the Metadata answer")
	return f
}

func fetchByIDs(ids ...runtime.UUID) *kafkamsg.FetchRequest {
	return newMsg(func(m *kafkamsg.FetchRequest) {
		for _, id := range ids {
			m.Topics = append(m.Topics, kafkamsg.FetchRequestFetchTopic{TopicID: id,
				Partitions: []kafkamsg.FetchRequestFetchPartition{{Partition: 0}}})
		}
	})
}

func produceByIDs(txn string, ids ...runtime.UUID) *kafkamsg.ProduceRequest {
	m := produceRequest(txn)
	for _, id := range ids {
		m.TopicData = append(m.TopicData, kafkamsg.ProduceRequestTopicProduceData{TopicID: id,
			PartitionData: []kafkamsg.ProduceRequestPartitionProduceData{{Index: 0}}})
	}
	return m
}

func offsetCommitByIDs(group string, ids ...runtime.UUID) *kafkamsg.OffsetCommitRequest {
	return newMsg(func(m *kafkamsg.OffsetCommitRequest) {
		m.GroupID = group
		for _, id := range ids {
			m.Topics = append(m.Topics, kafkamsg.OffsetCommitRequestTopic{TopicID: id,
				Partitions: []kafkamsg.OffsetCommitRequestPartition{{PartitionIndex: 0}}})
		}
	})
}

func offsetFetchByIDs(group string, ids ...runtime.UUID) *kafkamsg.OffsetFetchRequest {
	return newMsg(func(m *kafkamsg.OffsetFetchRequest) {
		g := kafkamsg.OffsetFetchRequestGroup{GroupID: group, MemberEpoch: -1}
		for _, id := range ids {
			g.Topics = append(g.Topics, kafkamsg.OffsetFetchRequestTopics{TopicID: id, PartitionIndexes: []int32{0}})
		}
		m.Groups = []kafkamsg.OffsetFetchRequestGroup{g}
	})
}

// shareFetchByIDs fetches partition 0 of each topic for group, and
// acknowledges a batch of it.
func shareFetchByIDs(group string, ids ...runtime.UUID) *kafkamsg.ShareFetchRequest {
	return newMsg(func(m *kafkamsg.ShareFetchRequest) {
		m.GroupID, m.MemberID, m.ShareSessionEpoch = runtime.NewNullString(group), runtime.NewNullString("member"), 1
		for _, id := range ids {
			m.Topics = append(m.Topics, kafkamsg.ShareFetchRequestFetchTopic{TopicID: id,
				Partitions: []kafkamsg.ShareFetchRequestFetchPartition{{PartitionIndex: 0,
					AcknowledgementBatches: []kafkamsg.ShareFetchRequestAcknowledgementBatch{{FirstOffset: 0, LastOffset: 9, AcknowledgeTypes: []int8{1}}}}}})
		}
	})
}

func shareAcknowledgeByIDs(group string, ids ...runtime.UUID) *kafkamsg.ShareAcknowledgeRequest {
	return newMsg(func(m *kafkamsg.ShareAcknowledgeRequest) {
		m.GroupID, m.MemberID, m.ShareSessionEpoch = runtime.NewNullString(group), runtime.NewNullString("member"), 2
		for _, id := range ids {
			m.Topics = append(m.Topics, kafkamsg.ShareAcknowledgeRequestAcknowledgeTopic{TopicID: id,
				Partitions: []kafkamsg.ShareAcknowledgeRequestAcknowledgePartition{{PartitionIndex: 0,
					AcknowledgementBatches: []kafkamsg.ShareAcknowledgeRequestAcknowledgementBatch{{FirstOffset: 0, LastOffset: 9, AcknowledgeTypes: []int8{1}}}}}})
		}
	})
}

// deleteTopics names each topic by id, or by name when given a string.
func deleteTopics(topics ...any) *kafkamsg.DeleteTopicsRequest {
	return newMsg(func(m *kafkamsg.DeleteTopicsRequest) {
		for _, t := range topics {
			switch t := t.(type) {
			case runtime.UUID:
				m.Topics = append(m.Topics, kafkamsg.DeleteTopicsRequestDeleteTopicState{TopicID: t})
			case string:
				m.Topics = append(m.Topics, kafkamsg.DeleteTopicsRequestDeleteTopicState{Name: runtime.NewNullString(t)})
			}
		}
	})
}

// idLabel names a topic of a request or answer by its name, or by what its
// id stands for.
func idLabel(name string, id runtime.UUID) string {
	if name != "" {
		return name
	}
	if l, ok := idLabels[id]; ok {
		return "id " + l
	}
	return fmt.Sprintf("id %x", id)
}

// forwardedTopics lists the topics left in a request.
func forwardedTopics(m runtime.APIMessage) []string {
	var out []string
	switch m := m.(type) {
	case *kafkamsg.FetchRequest:
		for _, t := range m.Topics {
			out = append(out, idLabel(t.Topic, t.TopicID))
		}
	case *kafkamsg.ProduceRequest:
		for _, t := range m.TopicData {
			out = append(out, idLabel(t.Name, t.TopicID))
		}
	case *kafkamsg.DeleteTopicsRequest:
		for _, t := range m.Topics {
			out = append(out, idLabel(t.Name.Value, t.TopicID))
		}
	case *kafkamsg.OffsetCommitRequest:
		for _, t := range m.Topics {
			out = append(out, idLabel(t.Name, t.TopicID))
		}
	case *kafkamsg.MetadataRequest:
		for _, t := range m.Topics {
			out = append(out, idLabel(t.Name.Value, t.TopicID))
		}
	case *kafkamsg.OffsetFetchRequest:
		for _, g := range m.Groups {
			for _, t := range g.Topics {
				out = append(out, idLabel(t.Name, t.TopicID))
			}
		}
	case *kafkamsg.ShareFetchRequest:
		for _, t := range m.Topics {
			out = append(out, idLabel("", t.TopicID))
		}
	case *kafkamsg.ShareAcknowledgeRequest:
		for _, t := range m.Topics {
			out = append(out, idLabel("", t.TopicID))
		}
	}
	return out
}

// topicCount is how many topics a request names, allocating nothing.
func topicCount(m runtime.APIMessage) int {
	switch m := m.(type) {
	case *kafkamsg.FetchRequest:
		return len(m.Topics)
	case *kafkamsg.ProduceRequest:
		return len(m.TopicData)
	case *kafkamsg.DeleteTopicsRequest:
		return len(m.Topics)
	}
	return -1
}

// answerErrors lists the error of each topic of an answer.
func answerErrors(m runtime.APIMessage) map[string]int16 {
	out := map[string]int16{}
	switch m := m.(type) {
	case *kafkamsg.FetchResponse:
		for _, t := range m.Responses {
			for _, p := range t.Partitions {
				out[idLabel(t.Topic, t.TopicID)] = p.ErrorCode
			}
		}
	case *kafkamsg.ProduceResponse:
		for _, t := range m.Responses {
			for _, p := range t.PartitionResponses {
				out[idLabel(t.Name, t.TopicID)] = p.ErrorCode
			}
		}
	case *kafkamsg.DeleteTopicsResponse:
		for _, t := range m.Responses {
			out[idLabel(t.Name.Value, t.TopicID)] = t.ErrorCode
		}
	case *kafkamsg.MetadataResponse:
		for _, t := range m.Topics {
			out[idLabel(t.Name.Value, t.TopicID)] = t.ErrorCode
		}
	case *kafkamsg.OffsetCommitResponse:
		for _, t := range m.Topics {
			for _, p := range t.Partitions {
				out[idLabel(t.Name, t.TopicID)] = p.ErrorCode
			}
		}
	case *kafkamsg.ShareFetchResponse:
		if m.ErrorCode != 0 {
			out["response"] = m.ErrorCode
		}
		for _, t := range m.Responses {
			for _, p := range t.Partitions {
				out[idLabel("", t.TopicID)] = p.ErrorCode
				out["acknowledged "+idLabel("", t.TopicID)] = p.AcknowledgeErrorCode
			}
		}
	case *kafkamsg.ShareAcknowledgeResponse:
		if m.ErrorCode != 0 {
			out["response"] = m.ErrorCode
		}
		for _, t := range m.Responses {
			for _, p := range t.Partitions {
				out[idLabel("", t.TopicID)] = p.ErrorCode
			}
		}
	case *kafkamsg.OffsetFetchResponse:
		for _, g := range m.Groups {
			if g.ErrorCode != 0 {
				out["group "+g.GroupID] = g.ErrorCode
			}
			for _, t := range g.Topics {
				for _, p := range t.Partitions {
					out[idLabel(t.Name, t.TopicID)] = p.ErrorCode
				}
			}
		}
	}
	return out
}

// Requests naming topics by id: each id resolves to the name learned from
// Metadata, an unknown one is answered UNKNOWN_TOPIC_ID (100), a refused
// name TOPIC_AUTHORIZATION_FAILED (29), the rest is forwarded, and the
// answers end in one.
func TestACLTopicIDs(t *testing.T) {
	tests := []struct {
		name      string
		principal string
		key       int16
		version   int16
		req       runtime.APIMessage
		forwarded []string         // nil: the proxy answers
		errs      map[string]int16 // in the answer
	}{
		{"Fetch allowed", "carol", kafkamsg.APIKeyFetch, 13, fetchByIDs(idAllowed), []string{"id a.x"}, map[string]int16{}},
		{"Fetch v17 partly refused", "carol", kafkamsg.APIKeyFetch, 17, fetchByIDs(idAllowed, idDenied), []string{"id a.x"},
			map[string]int16{"id b.x": 29}},
		{"Fetch unknown id", "carol", kafkamsg.APIKeyFetch, 13, fetchByIDs(idUnknown, idAllowed), []string{"id a.x"},
			map[string]int16{"id unknown": 100}},
		{"Fetch nothing left still goes", "carol", kafkamsg.APIKeyFetch, 15, fetchByIDs(idDenied, idUnknown), []string{},
			map[string]int16{"id b.x": 29, "id unknown": 100}},
		{"Fetch without ACLs", "bob", kafkamsg.APIKeyFetch, 13, fetchByIDs(idAllowed), []string{},
			map[string]int16{"id a.x": 29}},
		{"Fetch super user, unknown id", "root", kafkamsg.APIKeyFetch, 13, fetchByIDs(idUnknown, idDenied),
			[]string{"id unknown", "id b.x"}, map[string]int16{}},
		{"Produce allowed", "carol", kafkamsg.APIKeyProduce, 13, produceByIDs("", idAllowed), []string{"id a.x"}, map[string]int16{}},
		{"Produce partly refused", "carol", kafkamsg.APIKeyProduce, 13, produceByIDs("", idDenied, idAllowed), []string{"id a.x"},
			map[string]int16{"id b.x": 29}},
		{"Produce refused and unknown", "carol", kafkamsg.APIKeyProduce, 13, produceByIDs("", idDenied, idUnknown), nil,
			map[string]int16{"id b.x": 29, "id unknown": 100}},
		{"Produce transactional id refused", "carol", kafkamsg.APIKeyProduce, 13, produceByIDs("other", idAllowed), nil,
			map[string]int16{"id a.x": 53}},
		{"DeleteTopics by id allowed", "carol", kafkamsg.APIKeyDeleteTopics, 6, deleteTopics(idAllowed), []string{"id a.x"}, map[string]int16{}},
		{"DeleteTopics by id refused", "carol", kafkamsg.APIKeyDeleteTopics, 6, deleteTopics(idDenied), nil,
			map[string]int16{"id b.x": 29}},
		{"DeleteTopics by name and id", "carol", kafkamsg.APIKeyDeleteTopics, 6, deleteTopics("b.x", idUnknown, "a.y", idAllowed),
			[]string{"a.y", "id a.x"}, map[string]int16{"b.x": 29, "id unknown": 100}},
		{"Metadata v12 by id", "carol", kafkamsg.APIKeyMetadata, 12, newMsg(func(m *kafkamsg.MetadataRequest) {
			for _, id := range []runtime.UUID{idAllowed, idDenied, idUnknown} {
				m.Topics = append(m.Topics, kafkamsg.MetadataRequestTopic{TopicID: id})
			}
		}), []string{"id a.x"}, map[string]int16{"id b.x": 29, "id unknown": 100}},
		{"OffsetCommit v10 partly refused", "carol", kafkamsg.APIKeyOffsetCommit, 10, offsetCommitByIDs("g", idAllowed, idDenied, idUnknown),
			[]string{"id a.x"}, map[string]int16{"id b.x": 29, "id unknown": 100}},
		{"OffsetCommit v10 group refused", "carol", kafkamsg.APIKeyOffsetCommit, 10, offsetCommitByIDs("h", idAllowed), nil,
			map[string]int16{"id a.x": 30}},
		{"OffsetFetch v10 partly refused", "carol", kafkamsg.APIKeyOffsetFetch, 10, offsetFetchByIDs("g", idDenied, idAllowed, idUnknown),
			[]string{"id a.x"}, map[string]int16{"id b.x": 29, "id unknown": 100}},
		// READ on the share group, then READ on each topic, as Kafka 4.1's
		// KafkaApis: refused partitions and their acknowledgements get 29.
		{"ShareFetch partly refused", "carol", kafkamsg.APIKeyShareFetch, 1, shareFetchByIDs("g", idAllowed, idDenied, idUnknown),
			[]string{"id a.x"}, map[string]int16{"id b.x": 29, "acknowledged id b.x": 29, "id unknown": 100, "acknowledged id unknown": 100}},
		{"ShareFetch nothing left still goes", "carol", kafkamsg.APIKeyShareFetch, 1, shareFetchByIDs("g", idDenied),
			[]string{}, map[string]int16{"id b.x": 29, "acknowledged id b.x": 29}},
		{"ShareFetch group refused", "carol", kafkamsg.APIKeyShareFetch, 1, shareFetchByIDs("h", idAllowed), nil,
			map[string]int16{"response": 30}},
		{"ShareFetch without ACLs", "bob", kafkamsg.APIKeyShareFetch, 1, shareFetchByIDs("g", idAllowed), nil,
			map[string]int16{"response": 30}},
		{"ShareAcknowledge partly refused", "carol", kafkamsg.APIKeyShareAcknowledge, 1, shareAcknowledgeByIDs("g", idDenied, idAllowed, idUnknown),
			[]string{"id a.x"}, map[string]int16{"id b.x": 29, "id unknown": 100}},
		{"ShareAcknowledge group refused", "carol", kafkamsg.APIKeyShareAcknowledge, 1, shareAcknowledgeByIDs("h", idAllowed), nil,
			map[string]int16{"response": 30}},
		{"ShareFetch super user", "root", kafkamsg.APIKeyShareFetch, 1, shareFetchByIDs("h", idUnknown, idDenied),
			[]string{"id unknown", "id b.x"}, map[string]int16{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := testIDFilter(t)
			x := exchange(tt.principal, tt.key, tt.version, tt.req)
			require.NoError(t, f.Request(x))
			if tt.forwarded == nil {
				require.NotNil(t, x.Answered(), "the proxy answers")
				assert.Equal(t, tt.errs, answerErrors(x.Answered()))
				return
			}
			require.Nil(t, x.Answered(), "forwarded")
			assert.Equal(t, tt.forwarded, append([]string{}, forwardedTopics(tt.req)...))
			// The broker's answer to what was forwarded (empty here), with
			// the refusals merged in.
			x.Response, x.ResponseVersion = kafkamsg.NewResponse(tt.key), tt.version
			require.NoError(t, f.Response(x))
			assert.Equal(t, tt.errs, answerErrors(x.Response))
		})
	}
}

// An OffsetFetch v10 answer of all of a group's topics lists them by id:
// those whose names the principal may not describe are left out, and so
// are the ids the proxy never learned.
func TestACLHidesByID(t *testing.T) {
	f := testIDFilter(t)
	all := offsetFetchByIDs("g")
	all.Groups[0].Topics = nil
	x := exchange("carol", kafkamsg.APIKeyOffsetFetch, 10, all)
	require.NoError(t, f.Request(x))
	require.Nil(t, x.Answered())
	resp := kafkamsg.NewOffsetFetchResponse()
	g := kafkamsg.OffsetFetchResponseGroup{GroupID: "g"}
	for _, id := range []runtime.UUID{idAllowed, idDenied, idUnknown} {
		g.Topics = append(g.Topics, kafkamsg.OffsetFetchResponseTopics{TopicID: id,
			Partitions: []kafkamsg.OffsetFetchResponsePartitions{{PartitionIndex: 0, CommittedOffset: 7}}})
	}
	resp.Groups = []kafkamsg.OffsetFetchResponseGroup{g}
	x.Response, x.ResponseVersion = resp, 10
	require.NoError(t, f.Response(x))
	assert.Equal(t, map[string]int16{"id a.x": 0}, answerErrors(resp))
}

// The ids are learned from Metadata (v10+), CreateTopics (v7+) and
// DescribeTopicPartitions answers, whoever asked; the zero id and a topic
// with a null name are not.
func TestACLLearnsTopicIDs(t *testing.T) {
	id := func(b byte) runtime.UUID { return runtime.UUID{b} }
	tests := []struct {
		name  string
		key   int16
		resp  runtime.APIMessage
		known map[runtime.UUID]string
	}{
		{"Metadata", kafkamsg.APIKeyMetadata, newMsg(func(m *kafkamsg.MetadataResponse) {
			m.Topics = []kafkamsg.MetadataResponseTopic{{Name: runtime.NewNullString("a.x"), TopicID: id(1)},
				{Name: runtime.NullString{}, TopicID: id(2)}, {Name: runtime.NewNullString("a.noid")}}
		}), map[runtime.UUID]string{id(1): "a.x"}},
		{"CreateTopics", kafkamsg.APIKeyCreateTopics, newMsg(func(m *kafkamsg.CreateTopicsResponse) {
			m.Topics = []kafkamsg.CreateTopicsResponseCreatableTopicResult{{Name: "a.new", TopicID: id(3)}}
		}), map[runtime.UUID]string{id(3): "a.new"}},
		{"DescribeTopicPartitions", kafkamsg.APIKeyDescribeTopicPartitions, newMsg(func(m *kafkamsg.DescribeTopicPartitionsResponse) {
			m.Topics = []kafkamsg.DescribeTopicPartitionsResponseTopic{{Name: runtime.NewNullString("a.d"), TopicID: id(4)}}
		}), map[runtime.UUID]string{id(4): "a.d"}},
		{"not from Fetch", kafkamsg.APIKeyFetch, newMsg(func(m *kafkamsg.FetchResponse) {
			m.Responses = []kafkamsg.FetchResponseFetchableTopicResponse{{Topic: "a.f", TopicID: id(5)}}
		}), map[runtime.UUID]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := testACLFilter(t, splitPolicy())
			_, wanted := f.Wants(tt.key, 12)
			require.True(t, wanted, "the filter sees the answer")
			x := exchange("carol", tt.key, 12, kafkamsg.NewRequest(tt.key))
			x.Response, x.ResponseVersion = tt.resp, 12
			require.NoError(t, f.Response(x))
			assert.Equal(t, len(tt.known), f.TopicNames().Len())
			for id, name := range tt.known {
				got, ok := f.TopicNames().Name(id)
				assert.True(t, ok)
				assert.Equal(t, name, got)
			}
		})
	}
}

// The cost of checking an allowed Fetch v13 of two topics by id: two
// resolutions and two decisions.
func BenchmarkACLFetchByIDCheck(b *testing.B) {
	auth, err := acl.NewAuthorizer(splitPolicy())
	require.NoError(b, err)
	f, err := acl.NewFilter(auth, func(x *proxy.Exchange) string { return x.Header.ClientID.Value }, aclTyped())
	require.NoError(b, err)
	f.TopicNames().Learn(idAllowed, "a.x")
	req := fetchByIDs(idAllowed, idAllowed)
	x := exchange("carol", kafkamsg.APIKeyFetch, 13, req)
	b.ReportAllocs()
	for b.Loop() {
		if err := f.Request(x); err != nil || x.Answered() != nil {
			b.Fatal("refused")
		}
	}
}
