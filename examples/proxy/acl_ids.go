package main

import (
	"github.com/kafkagen/kafkagen/examples/proxy/kafkamsg"
	"github.com/kafkagen/kafkagen/runtime"
)

// Topic ids for acl.Typed (acl.go): the answers that pair ids with names,
// the parts of requests naming a topic by id only (Produce 13, Fetch 13+,
// DeleteTopics 6+ and Metadata 10+ with a null name, OffsetCommit and
// OffsetFetch 10+, ShareFetch and ShareAcknowledge), and
// their answers per topic, carrying the id as Kafka's do at those versions
// (docs/protocol.md, "Authorization"), and OffsetFetch's answers listing
// topics by id to hide from.

// aclLearnIDs visits the ids of Metadata, CreateTopics and
// DescribeTopicPartitions answers with their topics' names (the zero id of
// the versions without ids, or of an error, is not learned).
func aclLearnIDs(resp runtime.APIMessage, _ int16, learn func(runtime.UUID, string)) {
	switch m := resp.(type) {
	case *kafkamsg.MetadataResponse:
		for i := range m.Topics {
			if m.Topics[i].Name.Valid {
				learn(m.Topics[i].TopicID, m.Topics[i].Name.Value)
			}
		}
	case *kafkamsg.CreateTopicsResponse:
		for i := range m.Topics {
			learn(m.Topics[i].TopicID, m.Topics[i].Name)
		}
	case *kafkamsg.DescribeTopicPartitionsResponse:
		for i := range m.Topics {
			if m.Topics[i].Name.Valid {
				learn(m.Topics[i].TopicID, m.Topics[i].Name.Value)
			}
		}
	}
}

// aclRequestIDs visits the ids of the parts Kafka authorizes by the name
// of the topic the id names (Fetch's forgotten topics it does not).
func aclRequestIDs(req runtime.APIMessage, _ int16, visit func(runtime.UUID)) {
	switch m := req.(type) {
	case *kafkamsg.ProduceRequest:
		for i := range m.TopicData {
			visit(m.TopicData[i].TopicID)
		}
	case *kafkamsg.FetchRequest:
		for i := range m.Topics {
			visit(m.Topics[i].TopicID)
		}
	case *kafkamsg.DeleteTopicsRequest:
		for i := range m.Topics {
			if !m.Topics[i].Name.Valid {
				visit(m.Topics[i].TopicID)
			}
		}
	case *kafkamsg.MetadataRequest:
		for i := range m.Topics {
			if !m.Topics[i].Name.Valid {
				visit(m.Topics[i].TopicID)
			}
		}
	case *kafkamsg.OffsetCommitRequest:
		for i := range m.Topics {
			visit(m.Topics[i].TopicID)
		}
	case *kafkamsg.OffsetFetchRequest:
		for i := range m.Groups {
			for j := range m.Groups[i].Topics {
				visit(m.Groups[i].Topics[j].TopicID)
			}
		}
	case *kafkamsg.ShareFetchRequest:
		for i := range m.Topics {
			visit(m.Topics[i].TopicID)
		}
	case *kafkamsg.ShareAcknowledgeRequest:
		for i := range m.Topics {
			visit(m.Topics[i].TopicID)
		}
	}
}

// aclSplitIDs moves the parts named by an id for which out is true into
// the api's answer with code.
func aclSplitIDs(req runtime.APIMessage, _ int16, out func(runtime.UUID) bool, code int16) (runtime.APIMessage, bool) {
	switch m := req.(type) {
	case *kafkamsg.ProduceRequest:
		split := splitWhere(&m.TopicData, func(t *kafkamsg.ProduceRequestTopicProduceData) bool { return out(t.TopicID) })
		return produceRefusals(split, code), len(m.TopicData) == 0
	case *kafkamsg.FetchRequest:
		split := splitWhere(&m.Topics, func(t *kafkamsg.FetchRequestFetchTopic) bool { return out(t.TopicID) })
		// An empty fetch is still sent: it carries the session's epoch.
		return fetchRefusals(split, code), false
	case *kafkamsg.DeleteTopicsRequest:
		split := splitWhere(&m.Topics, func(t *kafkamsg.DeleteTopicsRequestDeleteTopicState) bool {
			return !t.Name.Valid && out(t.TopicID)
		})
		resp := kafkamsg.NewDeleteTopicsResponse()
		for _, t := range split {
			// Named by the id only: Kafka leaves the name out for a
			// principal that may not describe the topic.
			r := kafkamsg.NewDeleteTopicsResponseDeletableTopicResult()
			r.Name, r.TopicID, r.ErrorCode = runtime.NullString{}, t.TopicID, code
			resp.Responses = append(resp.Responses, *r)
		}
		return resp, len(m.Topics) == 0
	case *kafkamsg.MetadataRequest:
		split := splitWhere(&m.Topics, func(t *kafkamsg.MetadataRequestTopic) bool { return !t.Name.Valid && out(t.TopicID) })
		resp := kafkamsg.NewMetadataResponse()
		for _, t := range split {
			// By id, Kafka answers with a null name.
			r := kafkamsg.NewMetadataResponseTopic()
			r.Name, r.TopicID, r.ErrorCode = runtime.NullString{}, t.TopicID, code
			resp.Topics = append(resp.Topics, *r)
		}
		// Forwarded even when empty: the answer carries the brokers.
		return resp, false
	case *kafkamsg.OffsetCommitRequest:
		split := splitWhere(&m.Topics, func(t *kafkamsg.OffsetCommitRequestTopic) bool { return out(t.TopicID) })
		return offsetCommitRefusals(split, code), len(m.Topics) == 0
	case *kafkamsg.OffsetFetchRequest:
		// A group left with no topic still goes: its answer may carry its error.
		return splitOffsetFetchGroups(m, func(t *kafkamsg.OffsetFetchRequestTopics) bool { return out(t.TopicID) }, code), false
	case *kafkamsg.ShareFetchRequest:
		split := splitWhere(&m.Topics, func(t *kafkamsg.ShareFetchRequestFetchTopic) bool { return out(t.TopicID) })
		// Sent even when empty, as a Fetch: it carries the share session's
		// epoch (and may forget topics).
		return shareFetchRefusals(split, code), false
	case *kafkamsg.ShareAcknowledgeRequest:
		split := splitWhere(&m.Topics, func(t *kafkamsg.ShareAcknowledgeRequestAcknowledgeTopic) bool { return out(t.TopicID) })
		return shareAcknowledgeRefusals(split, code), false
	}
	return nil, false
}

// aclHideIDs leaves out of an OffsetFetch answer listing topics by id
// (v10+) those not visible.
func aclHideIDs(m runtime.APIMessage, _ int16, visible func(runtime.UUID) bool) bool {
	r, ok := m.(*kafkamsg.OffsetFetchResponse)
	if !ok {
		return false
	}
	removed := false
	for i := range r.Groups {
		if keep(&r.Groups[i].Topics, func(t *kafkamsg.OffsetFetchResponseTopics) bool { return visible(t.TopicID) }) {
			removed = true
		}
	}
	return removed
}
