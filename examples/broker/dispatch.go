package main

import (
	"fmt"

	"github.com/kafkagen/kafkagen/examples/broker/kmsg"
	"github.com/kafkagen/kafkagen/runtime"
)

// Handle serves one decoded request and returns its response, or nil when
// Kafka sends none (Produce with acks 0). The request's memory may be
// reused once Handle returns: handlers copy what they keep. A request of a
// key the broker does not serve is an error.
func (b *Broker) Handle(c *call, body runtime.APIMessage) (runtime.APIMessage, error) {
	switch req := body.(type) {
	case *kmsg.APIVersionsRequest:
		return b.handleAPIVersions(c, req), nil
	case *kmsg.MetadataRequest:
		return b.handleMetadata(c, req), nil
	case *kmsg.CreateTopicsRequest:
		return b.handleCreateTopics(c, req), nil
	case *kmsg.DeleteTopicsRequest:
		return b.handleDeleteTopics(c, req), nil
	case *kmsg.ProduceRequest:
		if resp := b.handleProduce(c, req); resp != nil {
			return resp, nil
		}
		return nil, nil // acks 0: no response
	case *kmsg.FetchRequest:
		return b.handleFetch(c, req), nil
	case *kmsg.ListOffsetsRequest:
		return b.handleListOffsets(c, req), nil
	case *kmsg.FindCoordinatorRequest:
		return b.handleFindCoordinator(c, req), nil
	case *kmsg.JoinGroupRequest:
		return b.handleJoinGroup(c, req), nil
	case *kmsg.SyncGroupRequest:
		return b.handleSyncGroup(c, req), nil
	case *kmsg.HeartbeatRequest:
		return b.handleHeartbeat(c, req), nil
	case *kmsg.LeaveGroupRequest:
		return b.handleLeaveGroup(c, req), nil
	case *kmsg.OffsetCommitRequest:
		return b.handleOffsetCommit(c, req), nil
	case *kmsg.OffsetFetchRequest:
		return b.handleOffsetFetch(c, req), nil
	case *kmsg.DescribeGroupsRequest:
		return b.handleDescribeGroups(c, req), nil
	case *kmsg.ListGroupsRequest:
		return b.handleListGroups(c, req), nil
	case *kmsg.InitProducerIDRequest:
		return b.handleInitProducerID(c, req), nil
	case *kmsg.AddPartitionsToTxnRequest:
		return b.handleAddPartitionsToTxn(c, req), nil
	case *kmsg.AddOffsetsToTxnRequest:
		return b.handleAddOffsetsToTxn(c, req), nil
	case *kmsg.TxnOffsetCommitRequest:
		return b.handleTxnOffsetCommit(c, req), nil
	case *kmsg.EndTxnRequest:
		return b.handleEndTxn(c, req), nil
	}
	// Unreachable while the server's decoder accepts only servedAPIs (a
	// test checks every one has a handler).
	return nil, fmt.Errorf("no handler for %T", body)
}
