package main

import (
	"strings"

	"github.com/kafkagen/kafkagen/examples/proxy/kafkamsg"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// The answers per topic of the apis Kafka answers per topic, for acl.Typed
// (acl.go): the parts naming refused topics leave the request and are
// answered by the proxy with the api's elements, their names cloned (the
// request's memory is reused before the response comes).

// splitTopics moves the parts naming refused topics out of req, into the
// api's response.
func splitTopics(req runtime.APIMessage, version int16, refused func(string) bool, code int16) (runtime.APIMessage, bool) {
	switch m := req.(type) {
	case *kafkamsg.ProduceRequest:
		out := splitOut(&m.TopicData, func(t *kafkamsg.ProduceRequestTopicProduceData) string { return t.Name }, refused)
		return produceRefusals(out, code), len(m.TopicData) == 0
	case *kafkamsg.FetchRequest:
		out := splitOut(&m.Topics, func(t *kafkamsg.FetchRequestFetchTopic) string { return t.Topic }, refused)
		// An empty fetch is still sent: it carries the session's epoch.
		return fetchRefusals(out, code), false
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
		// From v6 a topic is named in Topics, by name or by id only.
		for _, t := range splitWhere(&m.Topics, func(t *kafkamsg.DeleteTopicsRequestDeleteTopicState) bool {
			return t.Name.Valid && refused(t.Name.Value)
		}) {
			out = append(out, t.Name.Value)
		}
		resp := &kafkamsg.DeleteTopicsResponse{}
		resp.Reset()
		for _, name := range out {
			var r kafkamsg.DeleteTopicsResponseDeletableTopicResult
			r.Reset()
			r.Name, r.ErrorCode = runtime.NullString{Value: strings.Clone(name), Valid: true}, code
			resp.Responses = append(resp.Responses, r)
		}
		return resp, len(m.TopicNames) == 0 && len(m.Topics) == 0
	case *kafkamsg.OffsetCommitRequest:
		out := splitOut(&m.Topics, func(t *kafkamsg.OffsetCommitRequestTopic) string { return t.Name }, refused)
		return offsetCommitRefusals(out, code), len(m.Topics) == 0
	case *kafkamsg.DeleteRecordsRequest:
		out := splitOut(&m.Topics, func(t *kafkamsg.DeleteRecordsRequestDeleteRecordsTopic) string { return t.Name }, refused)
		resp := &kafkamsg.DeleteRecordsResponse{}
		resp.Reset()
		resp.Topics = perPartition(out, func(t *kafkamsg.DeleteRecordsRequestDeleteRecordsTopic) []kafkamsg.DeleteRecordsRequestDeleteRecordsPartition {
			return t.Partitions
		},
			func(t *kafkamsg.DeleteRecordsRequestDeleteRecordsTopic, ps []kafkamsg.DeleteRecordsResponseDeleteRecordsPartitionResult) kafkamsg.DeleteRecordsResponseDeleteRecordsTopicResult {
				return kafkamsg.DeleteRecordsResponseDeleteRecordsTopicResult{Name: strings.Clone(t.Name), Partitions: ps}
			},
			func(p *kafkamsg.DeleteRecordsRequestDeleteRecordsPartition) (pr kafkamsg.DeleteRecordsResponseDeleteRecordsPartitionResult) {
				pr.Reset()
				pr.PartitionIndex, pr.ErrorCode = p.PartitionIndex, code
				return pr
			})
		return resp, len(m.Topics) == 0
	case *kafkamsg.CreatePartitionsRequest:
		out := splitOut(&m.Topics, func(t *kafkamsg.CreatePartitionsRequestCreatePartitionsTopic) string { return t.Name }, refused)
		resp := &kafkamsg.CreatePartitionsResponse{}
		resp.Reset()
		for _, t := range out {
			var r kafkamsg.CreatePartitionsResponseCreatePartitionsTopicResult
			r.Reset()
			r.Name, r.ErrorCode = strings.Clone(t.Name), code
			resp.Results = append(resp.Results, r)
		}
		return resp, len(m.Topics) == 0
	case *kafkamsg.OffsetForLeaderEpochRequest:
		out := splitOut(&m.Topics, func(t *kafkamsg.OffsetForLeaderEpochRequestOffsetForLeaderTopic) string { return t.Topic }, refused)
		resp := &kafkamsg.OffsetForLeaderEpochResponse{}
		resp.Reset()
		resp.Topics = perPartition(out, func(t *kafkamsg.OffsetForLeaderEpochRequestOffsetForLeaderTopic) []kafkamsg.OffsetForLeaderEpochRequestOffsetForLeaderPartition {
			return t.Partitions
		},
			func(t *kafkamsg.OffsetForLeaderEpochRequestOffsetForLeaderTopic, ps []kafkamsg.OffsetForLeaderEpochResponseEpochEndOffset) kafkamsg.OffsetForLeaderEpochResponseOffsetForLeaderTopicResult {
				return kafkamsg.OffsetForLeaderEpochResponseOffsetForLeaderTopicResult{Topic: strings.Clone(t.Topic), Partitions: ps}
			},
			func(p *kafkamsg.OffsetForLeaderEpochRequestOffsetForLeaderPartition) (pr kafkamsg.OffsetForLeaderEpochResponseEpochEndOffset) {
				pr.Reset()
				pr.Partition, pr.ErrorCode = p.Partition, code
				return pr
			})
		return resp, len(m.Topics) == 0
	case *kafkamsg.TxnOffsetCommitRequest:
		out := splitOut(&m.Topics, func(t *kafkamsg.TxnOffsetCommitRequestTopic) string { return t.Name }, refused)
		return txnOffsetCommitRefusals(out, code), len(m.Topics) == 0
	case *kafkamsg.AddPartitionsToTxnRequest:
		if version >= 4 {
			return nil, false
		}
		// Kafka adds none of the partitions when one is refused: the
		// others are answered OPERATION_NOT_ATTEMPTED.
		return addPartitionsRefusals(m.V3AndBelowTopics, func(name string) int16 {
			if refused(name) {
				return code
			}
			return kerrors.OperationNotAttempted.Code
		}), true
	case *kafkamsg.OffsetFetchRequest:
		return splitOffsetFetchTopics(m, version, refused, code)
	case *kafkamsg.DescribeTopicPartitionsRequest:
		out := splitOut(&m.Topics, func(t *kafkamsg.DescribeTopicPartitionsRequestTopicRequest) string { return t.Name }, refused)
		resp := &kafkamsg.DescribeTopicPartitionsResponse{}
		resp.Reset()
		for _, t := range out {
			var r kafkamsg.DescribeTopicPartitionsResponseTopic
			r.Reset()
			r.Name, r.ErrorCode = runtime.NullString{Value: strings.Clone(t.Name), Valid: true}, code
			resp.Topics = append(resp.Topics, r)
		}
		// Not forwarded empty: no topic asks for all of them.
		return resp, len(m.Topics) == 0
	case *kafkamsg.OffsetDeleteRequest:
		out := splitOut(&m.Topics, func(t *kafkamsg.OffsetDeleteRequestTopic) string { return t.Name }, refused)
		resp := &kafkamsg.OffsetDeleteResponse{}
		resp.Reset()
		resp.Topics = perPartition(out, func(t *kafkamsg.OffsetDeleteRequestTopic) []kafkamsg.OffsetDeleteRequestPartition {
			return t.Partitions
		},
			func(t *kafkamsg.OffsetDeleteRequestTopic, ps []kafkamsg.OffsetDeleteResponsePartition) kafkamsg.OffsetDeleteResponseTopic {
				return kafkamsg.OffsetDeleteResponseTopic{Name: strings.Clone(t.Name), Partitions: ps}
			},
			func(p *kafkamsg.OffsetDeleteRequestPartition) kafkamsg.OffsetDeleteResponsePartition {
				return kafkamsg.OffsetDeleteResponsePartition{PartitionIndex: p.PartitionIndex, ErrorCode: code}
			})
		return resp, len(m.Topics) == 0
	case *kafkamsg.DescribeProducersRequest:
		out := splitOut(&m.Topics, func(t *kafkamsg.DescribeProducersRequestTopicRequest) string { return t.Name }, refused)
		resp := &kafkamsg.DescribeProducersResponse{}
		resp.Reset()
		resp.Topics = perPartition(out, func(t *kafkamsg.DescribeProducersRequestTopicRequest) []int32 { return t.PartitionIndexes },
			func(t *kafkamsg.DescribeProducersRequestTopicRequest, ps []kafkamsg.DescribeProducersResponsePartitionResponse) kafkamsg.DescribeProducersResponseTopicResponse {
				return kafkamsg.DescribeProducersResponseTopicResponse{Name: strings.Clone(t.Name), Partitions: ps}
			},
			func(p *int32) (pr kafkamsg.DescribeProducersResponsePartitionResponse) {
				pr.Reset()
				pr.PartitionIndex, pr.ErrorCode = *p, code
				return pr
			})
		return resp, len(m.Topics) == 0
	}
	return nil, false
}

func produceRefusals(topics []kafkamsg.ProduceRequestTopicProduceData, code int16) *kafkamsg.ProduceResponse {
	resp := &kafkamsg.ProduceResponse{}
	resp.Reset()
	resp.Responses = perPartition(topics, func(t *kafkamsg.ProduceRequestTopicProduceData) []kafkamsg.ProduceRequestPartitionProduceData {
		return t.PartitionData
	},
		func(t *kafkamsg.ProduceRequestTopicProduceData, ps []kafkamsg.ProduceResponsePartitionProduceResponse) kafkamsg.ProduceResponseTopicProduceResponse {
			return kafkamsg.ProduceResponseTopicProduceResponse{Name: strings.Clone(t.Name), TopicID: t.TopicID, PartitionResponses: ps}
		},
		func(p *kafkamsg.ProduceRequestPartitionProduceData) (pr kafkamsg.ProduceResponsePartitionProduceResponse) {
			pr.Reset()
			pr.Index, pr.ErrorCode = p.Index, code
			return pr
		})
	return resp
}

// fetchRefusals answers every partition of topics with code; a topic named
// by id (v13+) is answered by its id.
func fetchRefusals(topics []kafkamsg.FetchRequestFetchTopic, code int16) *kafkamsg.FetchResponse {
	resp := kafkamsg.NewFetchResponse()
	resp.Responses = perPartition(topics, func(t *kafkamsg.FetchRequestFetchTopic) []kafkamsg.FetchRequestFetchPartition { return t.Partitions },
		func(t *kafkamsg.FetchRequestFetchTopic, ps []kafkamsg.FetchResponsePartitionData) kafkamsg.FetchResponseFetchableTopicResponse {
			return kafkamsg.FetchResponseFetchableTopicResponse{Topic: strings.Clone(t.Topic), TopicID: t.TopicID, Partitions: ps}
		},
		func(p *kafkamsg.FetchRequestFetchPartition) (pr kafkamsg.FetchResponsePartitionData) {
			pr.Reset()
			pr.PartitionIndex, pr.ErrorCode = p.Partition, code
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
			return kafkamsg.OffsetCommitResponseTopic{Name: strings.Clone(t.Name), TopicID: t.TopicID, Partitions: ps}
		},
		func(p *kafkamsg.OffsetCommitRequestPartition) kafkamsg.OffsetCommitResponsePartition {
			return kafkamsg.OffsetCommitResponsePartition{PartitionIndex: p.PartitionIndex, ErrorCode: code}
		})
	return resp
}

func txnOffsetCommitRefusals(topics []kafkamsg.TxnOffsetCommitRequestTopic, code int16) *kafkamsg.TxnOffsetCommitResponse {
	resp := &kafkamsg.TxnOffsetCommitResponse{}
	resp.Reset()
	resp.Topics = perPartition(topics, func(t *kafkamsg.TxnOffsetCommitRequestTopic) []kafkamsg.TxnOffsetCommitRequestPartition {
		return t.Partitions
	},
		func(t *kafkamsg.TxnOffsetCommitRequestTopic, ps []kafkamsg.TxnOffsetCommitResponsePartition) kafkamsg.TxnOffsetCommitResponseTopic {
			return kafkamsg.TxnOffsetCommitResponseTopic{Name: strings.Clone(t.Name), Partitions: ps}
		},
		func(p *kafkamsg.TxnOffsetCommitRequestPartition) kafkamsg.TxnOffsetCommitResponsePartition {
			return kafkamsg.TxnOffsetCommitResponsePartition{PartitionIndex: p.PartitionIndex, ErrorCode: code}
		})
	return resp
}

// addPartitionsRefusals answers every partition of AddPartitionsToTxn v0-3
// with the code of its topic.
func addPartitionsRefusals(topics []kafkamsg.AddPartitionsToTxnRequestAddPartitionsToTxnTopic, code func(topic string) int16) *kafkamsg.AddPartitionsToTxnResponse {
	resp := &kafkamsg.AddPartitionsToTxnResponse{}
	resp.Reset()
	for _, t := range topics {
		r := kafkamsg.AddPartitionsToTxnResponseAddPartitionsToTxnTopicResult{Name: strings.Clone(t.Name)}
		for _, p := range t.Partitions {
			r.ResultsByPartition = append(r.ResultsByPartition,
				kafkamsg.AddPartitionsToTxnResponseAddPartitionsToTxnPartitionResult{PartitionIndex: p, PartitionErrorCode: code(t.Name)})
		}
		resp.ResultsByTopicV3AndBelow = append(resp.ResultsByTopicV3AndBelow, r)
	}
	return resp
}

// shareFetchRefusals answers each partition of the topics with code, as
// Kafka answers a share fetch of a topic the principal may not read, and
// the acknowledgements the request carried for it with code too.
func shareFetchRefusals(topics []kafkamsg.ShareFetchRequestFetchTopic, code int16) *kafkamsg.ShareFetchResponse {
	resp := kafkamsg.NewShareFetchResponse()
	resp.Responses = perPartition(topics, func(t *kafkamsg.ShareFetchRequestFetchTopic) []kafkamsg.ShareFetchRequestFetchPartition {
		return t.Partitions
	},
		func(t *kafkamsg.ShareFetchRequestFetchTopic, ps []kafkamsg.ShareFetchResponsePartitionData) kafkamsg.ShareFetchResponseShareFetchableTopicResponse {
			return kafkamsg.ShareFetchResponseShareFetchableTopicResponse{TopicID: t.TopicID, Partitions: ps}
		},
		func(p *kafkamsg.ShareFetchRequestFetchPartition) kafkamsg.ShareFetchResponsePartitionData {
			pr := kafkamsg.MakeShareFetchResponsePartitionData()
			pr.PartitionIndex, pr.ErrorCode = p.PartitionIndex, code
			if len(p.AcknowledgementBatches) > 0 {
				pr.AcknowledgeErrorCode = code
			}
			return pr
		})
	return resp
}

// shareAcknowledgeRefusals answers each partition of the topics with code.
func shareAcknowledgeRefusals(topics []kafkamsg.ShareAcknowledgeRequestAcknowledgeTopic, code int16) *kafkamsg.ShareAcknowledgeResponse {
	resp := kafkamsg.NewShareAcknowledgeResponse()
	resp.Responses = perPartition(topics, func(t *kafkamsg.ShareAcknowledgeRequestAcknowledgeTopic) []kafkamsg.ShareAcknowledgeRequestAcknowledgePartition {
		return t.Partitions
	},
		func(t *kafkamsg.ShareAcknowledgeRequestAcknowledgeTopic, ps []kafkamsg.ShareAcknowledgeResponsePartitionData) kafkamsg.ShareAcknowledgeResponseShareAcknowledgeTopicResponse {
			return kafkamsg.ShareAcknowledgeResponseShareAcknowledgeTopicResponse{TopicID: t.TopicID, Partitions: ps}
		},
		func(p *kafkamsg.ShareAcknowledgeRequestAcknowledgePartition) kafkamsg.ShareAcknowledgeResponsePartitionData {
			pr := kafkamsg.MakeShareAcknowledgeResponsePartitionData()
			pr.PartitionIndex, pr.ErrorCode = p.PartitionIndex, code
			return pr
		})
	return resp
}
