package main

import (
	"github.com/kafkagen/kafkagen/examples/proxy/kafkamsg"
	"github.com/kafkagen/kafkagen/runtime"
)

// Typed answers to requests that name a topic id the tenant was never shown
// (proxy.Tenant.RefuseIDs): the api's own response with UNKNOWN_TOPIC_ID for
// every topic the request names, as a broker answers ids it does not know
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
