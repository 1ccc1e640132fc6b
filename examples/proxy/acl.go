package main

import (
	"strings"

	"github.com/kafkagen/kafkagen/examples/proxy/kafkamsg"
	"github.com/kafkagen/kafkagen/proxy/acl"
	"github.com/kafkagen/kafkagen/runtime"
)

// The typed part of authorization for kafkamsg (acl.Typed): the names the
// specs leave unmarked (those of the tenant filter, and Metadata's topics
// named by id only), the lists hidden from a principal that may not describe
// them (the tenant filter's), and the answers to refused requests, per topic
// where Kafka answers per topic (docs/protocol.md, "What each api needs").
// Refusals are built while the request's memory is alive, and kept until the
// response: their names are cloned.

func aclTyped() acl.Typed {
	return acl.Typed{NewResponse: kafkamsg.NewResponse, Names: aclNames, Hide: tenantHide,
		Refuse: aclRefuse, SplitTopics: aclSplitTopics, Merge: aclMerge}
}

// aclNames adds to the tenant's unmarked names the Metadata topics named
// by id only, as the empty name: only a principal allowed every topic
// may ask for them (an id cannot be checked by name here).
func aclNames(m runtime.APIMessage, version int16, visit func(runtime.EntityType, *string)) {
	tenantNames(m, version, visit)
	if m, ok := m.(*kafkamsg.MetadataRequest); ok {
		for i := range m.Topics {
			if !m.Topics[i].Name.Valid {
				visit(runtime.EntityTopicName, &m.Topics[i].Name.Value)
			}
		}
	}
}

// aclRefuse answers every part of the requests whose response has no
// top-level error code with code.
func aclRefuse(req runtime.APIMessage, version int16, code int16) runtime.APIMessage {
	switch m := req.(type) {
	case *kafkamsg.OffsetCommitRequest:
		return offsetCommitRefusals(m.Topics, code)
	case *kafkamsg.ProduceRequest:
		return produceRefusals(m.TopicData, code)
	}
	return nil
}

// aclSplitTopics moves the parts naming refused topics out of req, into
// the api's response.
func aclSplitTopics(req runtime.APIMessage, version int16, refused func(string) bool, code int16) (runtime.APIMessage, bool) {
	switch m := req.(type) {
	case *kafkamsg.ProduceRequest:
		out := splitOut(&m.TopicData, func(t *kafkamsg.ProduceRequestTopicProduceData) string { return t.Name }, refused)
		return produceRefusals(out, code), len(m.TopicData) == 0
	case *kafkamsg.FetchRequest:
		out := splitOut(&m.Topics, func(t *kafkamsg.FetchRequestFetchTopic) string { return t.Topic }, refused)
		resp := &kafkamsg.FetchResponse{}
		resp.Reset()
		resp.Responses = perPartition(out, func(t *kafkamsg.FetchRequestFetchTopic) []kafkamsg.FetchRequestFetchPartition { return t.Partitions },
			func(t *kafkamsg.FetchRequestFetchTopic, ps []kafkamsg.FetchResponsePartitionData) kafkamsg.FetchResponseFetchableTopicResponse {
				return kafkamsg.FetchResponseFetchableTopicResponse{Topic: strings.Clone(t.Topic), Partitions: ps}
			},
			func(p *kafkamsg.FetchRequestFetchPartition) (pr kafkamsg.FetchResponsePartitionData) {
				pr.Reset()
				pr.PartitionIndex, pr.ErrorCode = p.Partition, code
				return pr
			})
		// An empty fetch is still sent: it carries the session's epoch.
		return resp, false
	case *kafkamsg.ListOffsetsRequest:
		out := splitOut(&m.Topics, func(t *kafkamsg.ListOffsetsRequestListOffsetsTopic) string { return t.Name }, refused)
		resp := &kafkamsg.ListOffsetsResponse{}
		resp.Reset()
		resp.Topics = perPartition(out, func(t *kafkamsg.ListOffsetsRequestListOffsetsTopic) []kafkamsg.ListOffsetsRequestListOffsetsPartition {
			return t.Partitions
		},
			func(t *kafkamsg.ListOffsetsRequestListOffsetsTopic, ps []kafkamsg.ListOffsetsResponseListOffsetsPartitionResponse) kafkamsg.ListOffsetsResponseListOffsetsTopicResponse {
				return kafkamsg.ListOffsetsResponseListOffsetsTopicResponse{Name: strings.Clone(t.Name), Partitions: ps}
			},
			func(p *kafkamsg.ListOffsetsRequestListOffsetsPartition) (pr kafkamsg.ListOffsetsResponseListOffsetsPartitionResponse) {
				pr.Reset()
				pr.PartitionIndex, pr.ErrorCode = p.PartitionIndex, code
				return pr
			})
		return resp, len(m.Topics) == 0
	case *kafkamsg.MetadataRequest:
		out := splitOut(&m.Topics, func(t *kafkamsg.MetadataRequestTopic) string { return t.Name.Value }, refused)
		resp := &kafkamsg.MetadataResponse{}
		resp.Reset()
		for _, t := range out {
			var r kafkamsg.MetadataResponseTopic
			r.Reset()
			// Kafka answers a topic named by id with a null name.
			r.ErrorCode, r.Name = code, runtime.NullString{Value: strings.Clone(t.Name.Value), Valid: t.Name.Valid}
			resp.Topics = append(resp.Topics, r)
		}
		// Forwarded even when empty: the answer carries the brokers.
		return resp, false
	case *kafkamsg.CreateTopicsRequest:
		out := splitOut(&m.Topics, func(t *kafkamsg.CreateTopicsRequestCreatableTopic) string { return t.Name }, refused)
		resp := &kafkamsg.CreateTopicsResponse{}
		resp.Reset()
		for _, t := range out {
			var r kafkamsg.CreateTopicsResponseCreatableTopicResult
			r.Reset()
			r.Name, r.ErrorCode = strings.Clone(t.Name), code
			resp.Topics = append(resp.Topics, r)
		}
		return resp, len(m.Topics) == 0
	case *kafkamsg.DeleteTopicsRequest:
		out := splitOut(&m.TopicNames, func(name *string) string { return *name }, refused)
		resp := &kafkamsg.DeleteTopicsResponse{}
		resp.Reset()
		for _, name := range out {
			var r kafkamsg.DeleteTopicsResponseDeletableTopicResult
			r.Reset()
			r.Name, r.ErrorCode = runtime.NullString{Value: strings.Clone(name), Valid: true}, code
			resp.Responses = append(resp.Responses, r)
		}
		return resp, len(m.TopicNames) == 0
	case *kafkamsg.OffsetCommitRequest:
		out := splitOut(&m.Topics, func(t *kafkamsg.OffsetCommitRequestTopic) string { return t.Name }, refused)
		return offsetCommitRefusals(out, code), len(m.Topics) == 0
	}
	return nil, false
}

// aclMerge adds the refused parts to the broker's answer.
func aclMerge(resp, refusals runtime.APIMessage, _ int16) {
	switch m := resp.(type) {
	case *kafkamsg.ProduceResponse:
		m.Responses = append(m.Responses, refusals.(*kafkamsg.ProduceResponse).Responses...)
	case *kafkamsg.FetchResponse:
		m.Responses = append(m.Responses, refusals.(*kafkamsg.FetchResponse).Responses...)
	case *kafkamsg.ListOffsetsResponse:
		m.Topics = append(m.Topics, refusals.(*kafkamsg.ListOffsetsResponse).Topics...)
	case *kafkamsg.MetadataResponse:
		m.Topics = append(m.Topics, refusals.(*kafkamsg.MetadataResponse).Topics...)
	case *kafkamsg.CreateTopicsResponse:
		m.Topics = append(m.Topics, refusals.(*kafkamsg.CreateTopicsResponse).Topics...)
	case *kafkamsg.DeleteTopicsResponse:
		m.Responses = append(m.Responses, refusals.(*kafkamsg.DeleteTopicsResponse).Responses...)
	case *kafkamsg.OffsetCommitResponse:
		m.Topics = append(m.Topics, refusals.(*kafkamsg.OffsetCommitResponse).Topics...)
	}
}

func produceRefusals(topics []kafkamsg.ProduceRequestTopicProduceData, code int16) *kafkamsg.ProduceResponse {
	resp := &kafkamsg.ProduceResponse{}
	resp.Reset()
	resp.Responses = perPartition(topics, func(t *kafkamsg.ProduceRequestTopicProduceData) []kafkamsg.ProduceRequestPartitionProduceData {
		return t.PartitionData
	},
		func(t *kafkamsg.ProduceRequestTopicProduceData, ps []kafkamsg.ProduceResponsePartitionProduceResponse) kafkamsg.ProduceResponseTopicProduceResponse {
			return kafkamsg.ProduceResponseTopicProduceResponse{Name: strings.Clone(t.Name), PartitionResponses: ps}
		},
		func(p *kafkamsg.ProduceRequestPartitionProduceData) (pr kafkamsg.ProduceResponsePartitionProduceResponse) {
			pr.Reset()
			pr.Index, pr.ErrorCode = p.Index, code
			return pr
		})
	return resp
}

func offsetCommitRefusals(topics []kafkamsg.OffsetCommitRequestTopic, code int16) *kafkamsg.OffsetCommitResponse {
	resp := &kafkamsg.OffsetCommitResponse{}
	resp.Reset()
	resp.Topics = perPartition(topics, func(t *kafkamsg.OffsetCommitRequestTopic) []kafkamsg.OffsetCommitRequestPartition {
		return t.Partitions
	},
		func(t *kafkamsg.OffsetCommitRequestTopic, ps []kafkamsg.OffsetCommitResponsePartition) kafkamsg.OffsetCommitResponseTopic {
			return kafkamsg.OffsetCommitResponseTopic{Name: strings.Clone(t.Name), Partitions: ps}
		},
		func(p *kafkamsg.OffsetCommitRequestPartition) kafkamsg.OffsetCommitResponsePartition {
			return kafkamsg.OffsetCommitResponsePartition{PartitionIndex: p.PartitionIndex, ErrorCode: code}
		})
	return resp
}

// perPartition answers each topic with an element per partition: answer
// makes the topic's element from those that part makes.
func perPartition[T, P, A, AP any](topics []T, parts func(*T) []P, answer func(*T, []AP) A, part func(*P) AP) []A {
	var out []A
	for i := range topics {
		ps := parts(&topics[i])
		aps := make([]AP, 0, len(ps))
		for j := range ps {
			aps = append(aps, part(&ps[j]))
		}
		out = append(out, answer(&topics[i], aps))
	}
	return out
}

// splitOut removes the elements of *s whose name is refused, keeping the
// order of the rest, and returns them (nil, allocating nothing, when none
// is).
func splitOut[T any](s *[]T, name func(*T) string, refused func(string) bool) []T {
	var out []T
	kept := (*s)[:0]
	for i := range *s {
		if refused(name(&(*s)[i])) {
			out = append(out, (*s)[i])
			continue
		}
		kept = append(kept, (*s)[i])
	}
	*s = kept
	return out
}
