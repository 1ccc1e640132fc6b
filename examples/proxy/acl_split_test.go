package main

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/examples/proxy/kafkamsg"
	"github.com/kafkagen/kafkagen/proxy/acl"
	"github.com/kafkagen/kafkagen/runtime"
)

// splitPolicy: carol may describe and delete group "g" and read, describe
// and delete topics "a.", write transactional id "tx".
func splitPolicy() acl.Policy {
	p := testPolicy()
	p.ACLs = append(p.ACLs,
		acl.ACL{Principal: "carol", ResourceType: acl.ResourceGroup, PatternType: acl.PatternLiteral, Name: "g",
			Operations: []acl.Operation{acl.OpDescribe, acl.OpDelete}, Permission: acl.Allow},
		acl.ACL{Principal: "carol", ResourceType: acl.ResourceTopic, PatternType: acl.PatternPrefixed, Name: "a.",
			Operations: []acl.Operation{acl.OpDelete}, Permission: acl.Allow},
		acl.ACL{Principal: "carol", ResourceType: acl.ResourceTopic, PatternType: acl.PatternLiteral, Name: "a.cfg",
			Operations: []acl.Operation{acl.OpAlterConfigs}, Permission: acl.Allow})
	return p
}

func newMsg[T any, P interface {
	*T
	Reset()
}](edit func(P)) P {
	m := P(new(T))
	m.Reset()
	edit(m)
	return m
}

// The apis answered per group, transactional id or topic: the refused
// parts get their error, the others are forwarded (here the broker's
// answer is empty) and both end in one answer.
func TestACLSplits(t *testing.T) {
	f := testACLFilter(t, splitPolicy())
	tests := []struct {
		name    string
		key     int16
		version int16
		req     runtime.APIMessage
		errs    func(runtime.APIMessage) map[string]int16
		want    map[string]int16 // the refusals in the answer
	}{
		{"DescribeGroups", kafkamsg.APIKeyDescribeGroups, 5,
			newMsg(func(m *kafkamsg.DescribeGroupsRequest) { m.Groups = []string{"g", "h"} }),
			func(r runtime.APIMessage) map[string]int16 {
				out := map[string]int16{}
				for _, g := range r.(*kafkamsg.DescribeGroupsResponse).Groups {
					out[g.GroupID] = g.ErrorCode
				}
				return out
			}, map[string]int16{"h": 30}},
		{"DeleteGroups all refused", kafkamsg.APIKeyDeleteGroups, 2,
			newMsg(func(m *kafkamsg.DeleteGroupsRequest) { m.GroupsNames = []string{"h", "i"} }),
			func(r runtime.APIMessage) map[string]int16 {
				out := map[string]int16{}
				for _, g := range r.(*kafkamsg.DeleteGroupsResponse).Results {
					out[g.GroupID] = g.ErrorCode
				}
				return out
			}, map[string]int16{"h": 30, "i": 30}},
		{"FindCoordinator v4 keys", kafkamsg.APIKeyFindCoordinator, 4,
			newMsg(func(m *kafkamsg.FindCoordinatorRequest) { m.CoordinatorKeys = []string{"g", "h"} }),
			func(r runtime.APIMessage) map[string]int16 {
				out := map[string]int16{}
				for _, c := range r.(*kafkamsg.FindCoordinatorResponse).Coordinators {
					out[c.Key] = c.ErrorCode
				}
				return out
			}, map[string]int16{"h": 30}},
		{"OffsetFetch v8 groups and topics", kafkamsg.APIKeyOffsetFetch, 8,
			newMsg(func(m *kafkamsg.OffsetFetchRequest) {
				m.Groups = []kafkamsg.OffsetFetchRequestGroup{
					{GroupID: "g", Topics: []kafkamsg.OffsetFetchRequestTopics{{Name: "a.x", PartitionIndexes: []int32{0}}, {Name: "b.x", PartitionIndexes: []int32{0, 1}}}},
					{GroupID: "h"}}
			}),
			offsetFetchErrors, map[string]int16{"h": 30, "g/b.x/0": 29, "g/b.x/1": 29}},
		{"OffsetFetch v7 topics", kafkamsg.APIKeyOffsetFetch, 7,
			newMsg(func(m *kafkamsg.OffsetFetchRequest) {
				m.GroupID = "g"
				m.Topics = []kafkamsg.OffsetFetchRequestTopic{{Name: "b.x", PartitionIndexes: []int32{2}}, {Name: "a.x", PartitionIndexes: []int32{0}}}
			}),
			offsetFetchErrors, map[string]int16{"b.x/2": 29}},
		{"OffsetFetch v7 group refused", kafkamsg.APIKeyOffsetFetch, 7,
			newMsg(func(m *kafkamsg.OffsetFetchRequest) {
				m.GroupID = "h"
				m.Topics = []kafkamsg.OffsetFetchRequestTopic{{Name: "a.x", PartitionIndexes: []int32{0}}}
			}),
			offsetFetchErrors, map[string]int16{"": 30, "a.x/0": 30}},
		{"TxnOffsetCommit, transactional id refused", kafkamsg.APIKeyTxnOffsetCommit, 3,
			newMsg(func(m *kafkamsg.TxnOffsetCommitRequest) {
				m.TransactionalID, m.GroupID = "other", "g"
				m.Topics = []kafkamsg.TxnOffsetCommitRequestTopic{{Name: "a.x", Partitions: []kafkamsg.TxnOffsetCommitRequestPartition{{PartitionIndex: 4}}}}
			}),
			func(r runtime.APIMessage) map[string]int16 {
				out := map[string]int16{}
				for _, t := range r.(*kafkamsg.TxnOffsetCommitResponse).Topics {
					for _, p := range t.Partitions {
						out[fmt.Sprintf("%s/%d", t.Name, p.PartitionIndex)] = p.ErrorCode
					}
				}
				return out
			}, map[string]int16{"a.x/4": 53}},
		{"AddPartitionsToTxn v3, one topic refused", kafkamsg.APIKeyAddPartitionsToTxn, 3,
			newMsg(func(m *kafkamsg.AddPartitionsToTxnRequest) {
				m.V3AndBelowTransactionalID = "tx"
				m.V3AndBelowTopics = []kafkamsg.AddPartitionsToTxnRequestAddPartitionsToTxnTopic{{Name: "a.x", Partitions: []int32{0}}, {Name: "b.x", Partitions: []int32{1}}}
			}),
			func(r runtime.APIMessage) map[string]int16 {
				out := map[string]int16{}
				for _, t := range r.(*kafkamsg.AddPartitionsToTxnResponse).ResultsByTopicV3AndBelow {
					for _, p := range t.ResultsByPartition {
						out[fmt.Sprintf("%s/%d", t.Name, p.PartitionIndex)] = p.PartitionErrorCode
					}
				}
				return out
			}, map[string]int16{"a.x/0": 55, "b.x/1": 29}},
		{"DescribeConfigs: a topic allowed, a broker and a group refused", kafkamsg.APIKeyDescribeConfigs, 4,
			newMsg(func(m *kafkamsg.DescribeConfigsRequest) {
				m.Resources = []kafkamsg.DescribeConfigsRequestDescribeConfigsResource{
					{ResourceType: 2, ResourceName: "a.cfg"}, {ResourceType: 4, ResourceName: "0"}, {ResourceType: 32, ResourceName: "g"}}
			}),
			func(r runtime.APIMessage) map[string]int16 {
				out := map[string]int16{}
				for _, res := range r.(*kafkamsg.DescribeConfigsResponse).Results {
					out[fmt.Sprintf("%d/%s", res.ResourceType, res.ResourceName)] = res.ErrorCode
				}
				return out
			}, map[string]int16{"4/0": 31, "32/g": 30}},
		{"IncrementalAlterConfigs: all refused", kafkamsg.APIKeyIncrementalAlterConfigs, 1,
			newMsg(func(m *kafkamsg.IncrementalAlterConfigsRequest) {
				m.Resources = []kafkamsg.IncrementalAlterConfigsRequestAlterConfigsResource{{ResourceType: 2, ResourceName: "b.x"}, {ResourceType: 8, ResourceName: "1"}}
			}),
			func(r runtime.APIMessage) map[string]int16 {
				out := map[string]int16{}
				for _, res := range r.(*kafkamsg.IncrementalAlterConfigsResponse).Responses {
					out[fmt.Sprintf("%d/%s", res.ResourceType, res.ResourceName)] = res.ErrorCode
				}
				return out
			}, map[string]int16{"2/b.x": 29, "8/1": 31}},
		{"ConsumerGroupDescribe", kafkamsg.APIKeyConsumerGroupDescribe, 0,
			newMsg(func(m *kafkamsg.ConsumerGroupDescribeRequest) { m.GroupIDs = []string{"h", "g"} }),
			func(r runtime.APIMessage) map[string]int16 {
				out := map[string]int16{}
				for _, g := range r.(*kafkamsg.ConsumerGroupDescribeResponse).Groups {
					out[g.GroupID] = g.ErrorCode
				}
				return out
			}, map[string]int16{"h": 30}},
		{"DescribeProducers", kafkamsg.APIKeyDescribeProducers, 0,
			newMsg(func(m *kafkamsg.DescribeProducersRequest) {
				m.Topics = []kafkamsg.DescribeProducersRequestTopicRequest{{Name: "a.x", PartitionIndexes: []int32{0}}, {Name: "b.x", PartitionIndexes: []int32{3}}}
			}),
			func(r runtime.APIMessage) map[string]int16 {
				out := map[string]int16{}
				for _, t := range r.(*kafkamsg.DescribeProducersResponse).Topics {
					for _, p := range t.Partitions {
						out[fmt.Sprintf("%s/%d", t.Name, p.PartitionIndex)] = p.ErrorCode
					}
				}
				return out
			}, map[string]int16{"b.x/3": 29}},
		{"DescribeTopicPartitions, all named refused", kafkamsg.APIKeyDescribeTopicPartitions, 0,
			newMsg(func(m *kafkamsg.DescribeTopicPartitionsRequest) {
				m.Topics = []kafkamsg.DescribeTopicPartitionsRequestTopicRequest{{Name: "b.x"}}
			}),
			func(r runtime.APIMessage) map[string]int16 {
				out := map[string]int16{}
				for _, t := range r.(*kafkamsg.DescribeTopicPartitionsResponse).Topics {
					out[t.Name.Value] = t.ErrorCode
				}
				return out
			}, map[string]int16{"b.x": 29}},
		{"DeleteRecords", kafkamsg.APIKeyDeleteRecords, 2,
			newMsg(func(m *kafkamsg.DeleteRecordsRequest) {
				m.Topics = []kafkamsg.DeleteRecordsRequestDeleteRecordsTopic{
					{Name: "a.x", Partitions: []kafkamsg.DeleteRecordsRequestDeleteRecordsPartition{{PartitionIndex: 0}}},
					{Name: "b.x", Partitions: []kafkamsg.DeleteRecordsRequestDeleteRecordsPartition{{PartitionIndex: 1}}}}
			}),
			func(r runtime.APIMessage) map[string]int16 {
				out := map[string]int16{}
				for _, t := range r.(*kafkamsg.DeleteRecordsResponse).Topics {
					for _, p := range t.Partitions {
						out[fmt.Sprintf("%s/%d", t.Name, p.PartitionIndex)] = p.ErrorCode
					}
				}
				return out
			}, map[string]int16{"b.x/1": 29}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := exchange("carol", tt.key, tt.version, tt.req)
			defer func() {
				if m, ok := tt.req.(*kafkamsg.DescribeGroupsRequest); ok {
					assert.Equal(t, []string{"g"}, m.Groups, "the allowed group is forwarded")
				}
			}()
			require.NoError(t, f.Request(x))
			answer := x.Answered()
			if answer == nil {
				// Forwarded in part: the broker answers the rest (with
				// nothing here) and the refusals are merged in.
				answer = kafkamsg.NewResponse(tt.key)
				x.Response, x.ResponseVersion = answer, tt.version
				require.NoError(t, f.Response(x))
			}
			assert.Equal(t, tt.want, tt.errs(answer))
			// Every answer encodes at the request's version.
			_, err := answer.AppendTo(nil, tt.version)
			require.NoError(t, err)
		})
	}
}

// offsetFetchErrors lists the errors of an OffsetFetch answer: "" for the
// top-level one, GROUP for a group's, [GROUP/]TOPIC/PARTITION for a
// partition's.
func offsetFetchErrors(r runtime.APIMessage) map[string]int16 {
	m := r.(*kafkamsg.OffsetFetchResponse)
	out := map[string]int16{}
	if m.ErrorCode != 0 {
		out[""] = m.ErrorCode
	}
	for _, t := range m.Topics {
		for _, p := range t.Partitions {
			out[fmt.Sprintf("%s/%d", t.Name, p.PartitionIndex)] = p.ErrorCode
		}
	}
	for _, g := range m.Groups {
		if g.ErrorCode != 0 {
			out[g.GroupID] = g.ErrorCode
		}
		for _, t := range g.Topics {
			for _, p := range t.Partitions {
				out[fmt.Sprintf("%s/%s/%d", g.GroupID, t.Name, p.PartitionIndex)] = p.ErrorCode
			}
		}
	}
	return out
}
