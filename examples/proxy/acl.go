package main

import (
	"github.com/kafkagen/kafkagen/examples/proxy/kafkamsg"
	"github.com/kafkagen/kafkagen/proxy/acl"
	"github.com/kafkagen/kafkagen/runtime"
)

// The typed part of authorization for kafkamsg (acl.Typed): the names the
// specs leave unmarked (those of the tenant filter), the topics named by id
// (acl_ids.go), the lists hidden from a principal that may not describe
// them (the tenant filter's, and OffsetFetch's), and the answers to refused
// requests, per topic or group where Kafka answers per part
// (docs/protocol.md, "What each api needs"; acl_topics.go, acl_groups.go,
// acl_offsetfetch.go). Refusals are built while the request's memory is
// alive, and kept until the response: their names are cloned.

func aclTyped() acl.Typed {
	return acl.Typed{NewResponse: kafkamsg.NewResponse, Names: aclNames, Hide: aclHide,
		Refuse: aclRefuse, Split: aclSplit, Merge: aclMerge, AutoCreate: aclAutoCreate,
		LearnIDs: aclLearnIDs, RequestIDs: aclRequestIDs, SplitIDs: aclSplitIDs, HideIDs: aclHideIDs}
}

// aclNames are the tenant's unmarked names and the config resources of
// the cluster.
func aclNames(m runtime.APIMessage, version int16, visit func(runtime.EntityType, *string)) {
	tenantNames(m, version, visit)
	configClusterNames(m, visit)
}

// aclHide is the tenant's hiding, and the offsets of topics not
// describable in an OffsetFetch of all of a group's topics.
func aclHide(m runtime.APIMessage, version int16, visible func(runtime.EntityType, string) bool) bool {
	r, ok := m.(*kafkamsg.OffsetFetchResponse)
	if !ok {
		return tenantHide(m, version, visible)
	}
	topic := func(name string) bool { return visible(runtime.EntityTopicName, name) }
	removed := keep(&r.Topics, func(t *kafkamsg.OffsetFetchResponseTopic) bool { return topic(t.Name) })
	for i := range r.Groups {
		// A topic answered by id only (v10+) is aclHideIDs'.
		if keep(&r.Groups[i].Topics, func(t *kafkamsg.OffsetFetchResponseTopics) bool {
			return t.Name == "" && t.TopicID != (runtime.UUID{}) || topic(t.Name)
		}) {
			removed = true
		}
	}
	return removed
}

// aclSplit answers per part what Kafka answers per part: topics, and the
// groups and transactional ids of the apis that name several.
func aclSplit(req runtime.APIMessage, version int16, t runtime.EntityType, refused func(string) bool, code int16) (runtime.APIMessage, bool) {
	if resp, nothingLeft, ok := splitConfigs(req, t, refused, code); ok {
		return resp, nothingLeft
	}
	if t == runtime.EntityTopicName {
		return splitTopics(req, version, refused, code)
	}
	return splitGroups(req, version, refused, code)
}

// metadataAutoCreateFrom is the first Metadata version with the
// AllowAutoTopicCreation flag; before it the broker always may create.
const metadataAutoCreateFrom = 4

// aclAutoCreate is Metadata's flag asking the broker to create topics.
func aclAutoCreate(req runtime.APIMessage, version int16) *bool {
	if m, ok := req.(*kafkamsg.MetadataRequest); ok && version >= metadataAutoCreateFrom {
		return &m.AllowAutoTopicCreation
	}
	return nil
}

// aclRefuse answers every part of the requests whose response has no
// top-level error code (in every version) with code.
func aclRefuse(req runtime.APIMessage, version int16, code int16) runtime.APIMessage {
	switch m := req.(type) {
	case *kafkamsg.OffsetCommitRequest:
		return offsetCommitRefusals(m.Topics, code)
	case *kafkamsg.ProduceRequest:
		return produceRefusals(m.TopicData, code)
	case *kafkamsg.TxnOffsetCommitRequest:
		return txnOffsetCommitRefusals(m.Topics, code)
	case *kafkamsg.AddPartitionsToTxnRequest:
		if version < 4 {
			return addPartitionsRefusals(m.V3AndBelowTopics, func(string) int16 { return code })
		}
	case *kafkamsg.OffsetFetchRequest:
		return offsetFetchRefused(m, version, code)
	}
	return nil
}

// aclMerge adds the refused parts to the broker's answer.
func aclMerge(resp, refusals runtime.APIMessage, _ int16) {
	if mergeConfigs(resp, refusals) {
		return
	}
	switch m := resp.(type) {
	case *kafkamsg.ProduceResponse:
		m.Responses = append(m.Responses, refusals.(*kafkamsg.ProduceResponse).Responses...)
	case *kafkamsg.FetchResponse:
		m.Responses = append(m.Responses, refusals.(*kafkamsg.FetchResponse).Responses...)
	case *kafkamsg.ShareFetchResponse:
		m.Responses = append(m.Responses, refusals.(*kafkamsg.ShareFetchResponse).Responses...)
	case *kafkamsg.ShareAcknowledgeResponse:
		m.Responses = append(m.Responses, refusals.(*kafkamsg.ShareAcknowledgeResponse).Responses...)
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
	case *kafkamsg.DeleteRecordsResponse:
		m.Topics = append(m.Topics, refusals.(*kafkamsg.DeleteRecordsResponse).Topics...)
	case *kafkamsg.CreatePartitionsResponse:
		m.Results = append(m.Results, refusals.(*kafkamsg.CreatePartitionsResponse).Results...)
	case *kafkamsg.OffsetForLeaderEpochResponse:
		m.Topics = append(m.Topics, refusals.(*kafkamsg.OffsetForLeaderEpochResponse).Topics...)
	case *kafkamsg.TxnOffsetCommitResponse:
		m.Topics = append(m.Topics, refusals.(*kafkamsg.TxnOffsetCommitResponse).Topics...)
	case *kafkamsg.OffsetFetchResponse:
		mergeOffsetFetch(m, refusals.(*kafkamsg.OffsetFetchResponse))
	case *kafkamsg.DescribeGroupsResponse:
		m.Groups = append(m.Groups, refusals.(*kafkamsg.DescribeGroupsResponse).Groups...)
	case *kafkamsg.DeleteGroupsResponse:
		m.Results = append(m.Results, refusals.(*kafkamsg.DeleteGroupsResponse).Results...)
	case *kafkamsg.FindCoordinatorResponse:
		m.Coordinators = append(m.Coordinators, refusals.(*kafkamsg.FindCoordinatorResponse).Coordinators...)
	case *kafkamsg.DescribeTopicPartitionsResponse:
		m.Topics = append(m.Topics, refusals.(*kafkamsg.DescribeTopicPartitionsResponse).Topics...)
	case *kafkamsg.OffsetDeleteResponse:
		m.Topics = append(m.Topics, refusals.(*kafkamsg.OffsetDeleteResponse).Topics...)
	case *kafkamsg.DescribeProducersResponse:
		m.Topics = append(m.Topics, refusals.(*kafkamsg.DescribeProducersResponse).Topics...)
	case *kafkamsg.ConsumerGroupDescribeResponse:
		m.Groups = append(m.Groups, refusals.(*kafkamsg.ConsumerGroupDescribeResponse).Groups...)
	case *kafkamsg.ShareGroupDescribeResponse:
		m.Groups = append(m.Groups, refusals.(*kafkamsg.ShareGroupDescribeResponse).Groups...)
	case *kafkamsg.DescribeTransactionsResponse:
		m.TransactionStates = append(m.TransactionStates, refusals.(*kafkamsg.DescribeTransactionsResponse).TransactionStates...)
	}
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
	return splitWhere(s, func(e *T) bool { return refused(name(e)) })
}

// splitWhere removes the elements of *s for which out is true, keeping the
// order of the rest, and returns them.
func splitWhere[T any](s *[]T, out func(*T) bool) []T {
	var removed []T
	kept := (*s)[:0]
	for i := range *s {
		if out(&(*s)[i]) {
			removed = append(removed, (*s)[i])
			continue
		}
		kept = append(kept, (*s)[i])
	}
	*s = kept
	return removed
}
