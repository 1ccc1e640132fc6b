package main

import (
	"strconv"
	"strings"

	"github.com/kafkagen/kafkagen/examples/broker/kmsg"
)

// API keys of the served requests, read from the generated messages.
// LOCAL WORKAROUND until the generated package carries API key constants
// (issue 10's "Constants"): then these become kmsg's.
var (
	keyProduce            = kmsg.NewProduceRequest().APIKey()
	keyFetch              = kmsg.NewFetchRequest().APIKey()
	keyListOffsets        = kmsg.NewListOffsetsRequest().APIKey()
	keyMetadata           = kmsg.NewMetadataRequest().APIKey()
	keyOffsetCommit       = kmsg.NewOffsetCommitRequest().APIKey()
	keyOffsetFetch        = kmsg.NewOffsetFetchRequest().APIKey()
	keyFindCoordinator    = kmsg.NewFindCoordinatorRequest().APIKey()
	keyJoinGroup          = kmsg.NewJoinGroupRequest().APIKey()
	keyHeartbeat          = kmsg.NewHeartbeatRequest().APIKey()
	keyLeaveGroup         = kmsg.NewLeaveGroupRequest().APIKey()
	keySyncGroup          = kmsg.NewSyncGroupRequest().APIKey()
	keyDescribeGroups     = kmsg.NewDescribeGroupsRequest().APIKey()
	keyListGroups         = kmsg.NewListGroupsRequest().APIKey()
	keyAPIVersions        = kmsg.NewAPIVersionsRequest().APIKey()
	keyCreateTopics       = kmsg.NewCreateTopicsRequest().APIKey()
	keyDeleteTopics       = kmsg.NewDeleteTopicsRequest().APIKey()
	keyInitProducerID     = kmsg.NewInitProducerIDRequest().APIKey()
	keyAddPartitionsToTxn = kmsg.NewAddPartitionsToTxnRequest().APIKey()
	keyAddOffsetsToTxn    = kmsg.NewAddOffsetsToTxnRequest().APIKey()
	keyEndTxn             = kmsg.NewEndTxnRequest().APIKey()
	keyTxnOffsetCommit    = kmsg.NewTxnOffsetCommitRequest().APIKey()
)

// apiName is an API's name as Kafka spells it ("Produce", "ApiVersions"):
// its request spec's name without "Request"; "Unknown<key>" when the
// generated package has no such key.
func apiName(key int16) string {
	req := kmsg.NewRequest(key)
	if req == nil {
		return "Unknown" + strconv.Itoa(int(key))
	}
	return strings.TrimSuffix(req.SpecName(), "Request")
}
