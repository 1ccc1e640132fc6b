package main

import (
	"github.com/kafkagen/kafkagen/examples/proxy/kafkamsg"
	"github.com/kafkagen/kafkagen/runtime"
)

// Typed answers to requests that name a topic id the tenant was never shown
// (proxy.Tenant.RefuseIDs): the api's own response with UNKNOWN_TOPIC_ID for
// every topic the request names (Fetch 13+, Produce 13+, DeleteTopics 6+,
// Metadata by id, OffsetCommit and OffsetFetch 10+, ShareFetch,
// ShareAcknowledge), as a broker answers ids it does not know
// (docs/protocol.md, "Topic ids"). The request is refused whole: an own
// topic named beside a foreign id gets the same error, and the client's
// metadata refresh sorts it out. The apis with ids not listed here (the
// broker-internal ones, ConsumerGroupHeartbeat's owned partitions) are
// refused by closing the connection.

// refuseIDs builds the answer for the apis a client sends ids in, or nil.
func refuseIDs(req runtime.APIMessage, _ int16, code int16) runtime.APIMessage {
	switch req := req.(type) {
	case *kafkamsg.FetchRequest:
		return refuseFetch(req, code)
	case *kafkamsg.ProduceRequest:
		resp := kafkamsg.NewProduceResponse()
		for _, t := range req.TopicData {
			r := kafkamsg.NewProduceResponseTopicProduceResponse()
			r.Name, r.TopicID = t.Name, t.TopicID
			for _, p := range t.PartitionData {
				pr := kafkamsg.NewProduceResponsePartitionProduceResponse()
				pr.Index, pr.ErrorCode, pr.BaseOffset = p.Index, code, -1
				r.PartitionResponses = append(r.PartitionResponses, *pr)
			}
			resp.Responses = append(resp.Responses, *r)
		}
		return resp
	case *kafkamsg.OffsetCommitRequest:
		resp := kafkamsg.NewOffsetCommitResponse()
		for _, t := range req.Topics {
			r := kafkamsg.NewOffsetCommitResponseTopic()
			r.Name, r.TopicID = t.Name, t.TopicID
			for _, p := range t.Partitions {
				r.Partitions = append(r.Partitions, kafkamsg.OffsetCommitResponsePartition{PartitionIndex: p.PartitionIndex, ErrorCode: code})
			}
			resp.Topics = append(resp.Topics, *r)
		}
		return resp
	case *kafkamsg.OffsetFetchRequest:
		return refuseOffsetFetch(req, code)
	case *kafkamsg.DeleteTopicsRequest:
		resp := kafkamsg.NewDeleteTopicsResponse()
		for _, t := range req.Topics {
			r := kafkamsg.NewDeleteTopicsResponseDeletableTopicResult()
			r.Name, r.TopicID, r.ErrorCode = t.Name, t.TopicID, code
			resp.Responses = append(resp.Responses, *r)
		}
		return resp
	case *kafkamsg.MetadataRequest:
		resp := kafkamsg.NewMetadataResponse()
		for _, t := range req.Topics {
			r := kafkamsg.NewMetadataResponseTopic()
			r.Name, r.TopicID, r.ErrorCode = t.Name, t.TopicID, code
			resp.Topics = append(resp.Topics, *r)
		}
		return resp
	case *kafkamsg.ShareFetchRequest:
		resp := kafkamsg.NewShareFetchResponse()
		for _, t := range req.Topics {
			r := kafkamsg.NewShareFetchResponseShareFetchableTopicResponse()
			r.TopicID = t.TopicID
			for _, p := range t.Partitions {
				pd := kafkamsg.NewShareFetchResponsePartitionData()
				pd.PartitionIndex, pd.ErrorCode = p.PartitionIndex, code
				r.Partitions = append(r.Partitions, *pd)
			}
			resp.Responses = append(resp.Responses, *r)
		}
		return resp
	case *kafkamsg.ShareAcknowledgeRequest:
		resp := kafkamsg.NewShareAcknowledgeResponse()
		for _, t := range req.Topics {
			r := kafkamsg.NewShareAcknowledgeResponseShareAcknowledgeTopicResponse()
			r.TopicID = t.TopicID
			for _, p := range t.Partitions {
				pd := kafkamsg.NewShareAcknowledgeResponsePartitionData()
				pd.PartitionIndex, pd.ErrorCode = p.PartitionIndex, code
				r.Partitions = append(r.Partitions, *pd)
			}
			resp.Responses = append(resp.Responses, *r)
		}
		return resp
	}
	return nil
}

// refuseOffsetFetch answers every partition of every group (v8 and up, the
// versions with ids) with code, at no committed offset.
func refuseOffsetFetch(req *kafkamsg.OffsetFetchRequest, code int16) *kafkamsg.OffsetFetchResponse {
	resp := kafkamsg.NewOffsetFetchResponse()
	for _, g := range req.Groups {
		rg := kafkamsg.NewOffsetFetchResponseGroup()
		rg.GroupID = g.GroupID
		for _, t := range g.Topics {
			rt := kafkamsg.NewOffsetFetchResponseTopics()
			rt.Name, rt.TopicID = t.Name, t.TopicID
			for _, p := range t.PartitionIndexes {
				pr := kafkamsg.NewOffsetFetchResponsePartitions()
				pr.PartitionIndex, pr.ErrorCode = p, code
				rt.Partitions = append(rt.Partitions, *pr)
			}
			rg.Topics = append(rg.Topics, *rt)
		}
		resp.Groups = append(resp.Groups, *rg)
	}
	return resp
}

// refuseFetch answers every partition of the request with code, with no
// records and the offsets a broker gives an unknown partition (-1), and
// no fetch session (id 0), so that the client's next Fetch starts a new
// one.
func refuseFetch(req *kafkamsg.FetchRequest, code int16) *kafkamsg.FetchResponse {
	resp := kafkamsg.NewFetchResponse()
	for _, t := range req.Topics {
		r := kafkamsg.NewFetchResponseFetchableTopicResponse()
		r.Topic, r.TopicID = t.Topic, t.TopicID
		for _, p := range t.Partitions {
			pd := kafkamsg.NewFetchResponsePartitionData()
			pd.PartitionIndex, pd.ErrorCode, pd.HighWatermark = p.Partition, code, -1
			r.Partitions = append(r.Partitions, *pd)
		}
		resp.Responses = append(resp.Responses, *r)
	}
	return resp
}
