package main

import (
	"strings"

	"github.com/kafkagen/kafkagen/examples/proxy/kafkamsg"
)

// OffsetFetch for acl.Typed: one group with its topics before v8, a list of
// groups each with its topics from v8, so its refusals nest.

// offsetFetchRefused answers a refused group: before v8 the top-level error
// and every named partition's, from v8 each group's.
func offsetFetchRefused(m *kafkamsg.OffsetFetchRequest, version int16, code int16) *kafkamsg.OffsetFetchResponse {
	resp := &kafkamsg.OffsetFetchResponse{}
	resp.Reset()
	if version >= 8 {
		for _, g := range m.Groups {
			resp.Groups = append(resp.Groups, kafkamsg.OffsetFetchResponseGroup{GroupID: strings.Clone(g.GroupID), ErrorCode: code})
		}
		return resp
	}
	resp.ErrorCode = code
	resp.Topics = offsetFetchTopicRefusals(m.Topics, code)
	return resp
}

func offsetFetchTopicRefusals(topics []kafkamsg.OffsetFetchRequestTopic, code int16) []kafkamsg.OffsetFetchResponseTopic {
	return perPartition(topics, func(t *kafkamsg.OffsetFetchRequestTopic) []int32 { return t.PartitionIndexes },
		func(t *kafkamsg.OffsetFetchRequestTopic, ps []kafkamsg.OffsetFetchResponsePartition) kafkamsg.OffsetFetchResponseTopic {
			return kafkamsg.OffsetFetchResponseTopic{Name: strings.Clone(t.Name), Partitions: ps}
		},
		func(p *int32) (pr kafkamsg.OffsetFetchResponsePartition) {
			pr.Reset()
			pr.PartitionIndex, pr.ErrorCode = *p, code
			return pr
		})
}

// splitOffsetFetchTopics moves the refused topics out of the request (of
// each group, from v8).
func splitOffsetFetchTopics(m *kafkamsg.OffsetFetchRequest, version int16, refused func(string) bool, code int16) (*kafkamsg.OffsetFetchResponse, bool) {
	if version < 8 {
		resp := kafkamsg.NewOffsetFetchResponse()
		out := splitOut(&m.Topics, func(t *kafkamsg.OffsetFetchRequestTopic) string { return t.Name }, refused)
		resp.Topics = offsetFetchTopicRefusals(out, code)
		return resp, len(m.Topics) == 0
	}
	// A group left with no topic still goes: its answer may carry its error.
	return splitOffsetFetchGroups(m, func(t *kafkamsg.OffsetFetchRequestTopics) bool { return refused(t.Name) }, code), false
}

// splitOffsetFetchGroups moves the topics of each group (v8+) for which out
// is true out of the request, into their answers with code, by name and id.
func splitOffsetFetchGroups(m *kafkamsg.OffsetFetchRequest, out func(*kafkamsg.OffsetFetchRequestTopics) bool, code int16) *kafkamsg.OffsetFetchResponse {
	resp := kafkamsg.NewOffsetFetchResponse()
	for i := range m.Groups {
		g := &m.Groups[i]
		split := splitWhere(&g.Topics, out)
		if split == nil {
			continue
		}
		r := kafkamsg.OffsetFetchResponseGroup{GroupID: strings.Clone(g.GroupID)}
		r.Topics = perPartition(split, func(t *kafkamsg.OffsetFetchRequestTopics) []int32 { return t.PartitionIndexes },
			func(t *kafkamsg.OffsetFetchRequestTopics, ps []kafkamsg.OffsetFetchResponsePartitions) kafkamsg.OffsetFetchResponseTopics {
				return kafkamsg.OffsetFetchResponseTopics{Name: strings.Clone(t.Name), TopicID: t.TopicID, Partitions: ps}
			},
			func(p *int32) (pr kafkamsg.OffsetFetchResponsePartitions) {
				pr.Reset()
				pr.PartitionIndex, pr.ErrorCode = *p, code
				return pr
			})
		resp.Groups = append(resp.Groups, r)
	}
	return resp
}

// mergeOffsetFetch adds refusals to an answer: topics before v8, and from
// v8 groups, or topics into the group of the same id.
func mergeOffsetFetch(m, refusals *kafkamsg.OffsetFetchResponse) {
	m.Topics = append(m.Topics, refusals.Topics...)
	for _, rg := range refusals.Groups {
		merged := false
		for i := range m.Groups {
			if m.Groups[i].GroupID == rg.GroupID {
				m.Groups[i].Topics = append(m.Groups[i].Topics, rg.Topics...)
				merged = true
				break
			}
		}
		if !merged {
			m.Groups = append(m.Groups, rg)
		}
	}
}
