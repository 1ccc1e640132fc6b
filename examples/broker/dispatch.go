package main

import (
	"fmt"

	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// Handle serves one decoded request and returns its response, or nil when
// Kafka sends none (Produce with acks 0). The request's memory may be
// reused once Handle returns: handlers copy what they keep. An error means
// the connection must be closed: a request of a key the broker does not
// serve, or a failed Produce with acks 0.
func (b *Broker) Handle(c *call, body runtime.APIMessage) (runtime.APIMessage, error) {
	switch req := body.(type) {
	case *kafkamsg.APIVersionsRequest:
		return b.handleAPIVersions(c, req), nil
	case *kafkamsg.MetadataRequest:
		return b.handleMetadata(c, req), nil
	case *kafkamsg.CreateTopicsRequest:
		return b.handleCreateTopics(c, req), nil
	case *kafkamsg.DeleteTopicsRequest:
		return b.handleDeleteTopics(c, req), nil
	case *kafkamsg.ProduceRequest:
		return b.produceAnswer(req, b.handleProduce(c, req))
	case *kafkamsg.FetchRequest:
		return b.handleFetch(c, req), nil
	case *kafkamsg.ListOffsetsRequest:
		return b.handleListOffsets(c, req), nil
	case *kafkamsg.FindCoordinatorRequest:
		return b.handleFindCoordinator(c, req), nil
	case *kafkamsg.JoinGroupRequest:
		return b.handleJoinGroup(c, req), nil
	case *kafkamsg.SyncGroupRequest:
		return b.handleSyncGroup(c, req), nil
	case *kafkamsg.HeartbeatRequest:
		return b.handleHeartbeat(c, req), nil
	case *kafkamsg.LeaveGroupRequest:
		return b.handleLeaveGroup(c, req), nil
	case *kafkamsg.OffsetCommitRequest:
		return b.handleOffsetCommit(c, req), nil
	case *kafkamsg.OffsetFetchRequest:
		return b.handleOffsetFetch(c, req), nil
	case *kafkamsg.DescribeGroupsRequest:
		return b.handleDescribeGroups(c, req), nil
	case *kafkamsg.ListGroupsRequest:
		return b.handleListGroups(c, req), nil
	case *kafkamsg.InitProducerIDRequest:
		return b.handleInitProducerID(c, req), nil
	case *kafkamsg.AddPartitionsToTxnRequest:
		return b.handleAddPartitionsToTxn(c, req), nil
	case *kafkamsg.AddOffsetsToTxnRequest:
		return b.handleAddOffsetsToTxn(c, req), nil
	case *kafkamsg.TxnOffsetCommitRequest:
		return b.handleTxnOffsetCommit(c, req), nil
	case *kafkamsg.EndTxnRequest:
		return b.handleEndTxn(c, req), nil
	case *kafkamsg.SaslHandshakeRequest, *kafkamsg.SaslAuthenticateRequest:
		return b.handleSASLWithoutSASL(req), nil
	}
	// Unreachable while the server's decoder accepts only servedAPIs (a
	// test checks every one has a handler).
	return nil, fmt.Errorf("no handler for %T", body)
}

// produceAnswer is what the connection does after a Produce: send resp,
// or with acks 0 send nothing, unless a partition failed. Kafka then closes
// the connection, the one way to tell a producer that expects no answer
// that it must refresh its metadata (KafkaApis.handleProduceRequest).
func (b *Broker) produceAnswer(req *kafkamsg.ProduceRequest, resp *kafkamsg.ProduceResponse) (runtime.APIMessage, error) {
	if req.Acks != 0 {
		return resp, nil
	}
	for _, t := range resp.Responses {
		for _, p := range t.PartitionResponses {
			if p.ErrorCode != codeNone {
				return nil, fmt.Errorf("acks 0 Produce to %s[%d] failed (%v), which Kafka answers by closing the connection", t.Name, p.Index, kerrors.ErrorCode(p.ErrorCode))
			}
		}
	}
	return nil, nil
}
