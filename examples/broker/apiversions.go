package main

import (
	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/runtime"
)

// versionRange is the versions of one API the broker serves.
type versionRange struct{ min, max int16 }

// servedAPIs are the API keys the broker answers, in ApiVersions order.
var servedAPIs = []int16{
	kafkamsg.APIKeyProduce, kafkamsg.APIKeyFetch, kafkamsg.APIKeyListOffsets, kafkamsg.APIKeyMetadata, kafkamsg.APIKeyOffsetCommit, kafkamsg.APIKeyOffsetFetch,
	kafkamsg.APIKeyFindCoordinator, kafkamsg.APIKeyJoinGroup, kafkamsg.APIKeyHeartbeat, kafkamsg.APIKeyLeaveGroup, kafkamsg.APIKeySyncGroup,
	kafkamsg.APIKeyDescribeGroups, kafkamsg.APIKeyListGroups, kafkamsg.APIKeyAPIVersions, kafkamsg.APIKeyCreateTopics, kafkamsg.APIKeyDeleteTopics,
	kafkamsg.APIKeyInitProducerID, kafkamsg.APIKeyAddPartitionsToTxn, kafkamsg.APIKeyAddOffsetsToTxn, kafkamsg.APIKeyEndTxn, kafkamsg.APIKeyTxnOffsetCommit,
}

// unstableLatest are the served APIs whose newest spec version is marked
// latestVersionUnstable: Kafka does not advertise it by default, and neither
// does this broker (EndTxn v5 belongs to transactions v2, KIP-890).
var unstableLatest = map[int16]bool{kafkamsg.APIKeyEndTxn: true}

// supported maps every served API key to the versions the generated package
// implements (less an unstable latest).
var supported = func() map[int16]versionRange {
	m := map[int16]versionRange{}
	for _, key := range servedAPIs {
		req := kafkamsg.NewRequest(key)
		r := versionRange{req.MinVersion(), req.MaxVersion()}
		if unstableLatest[key] {
			r.max--
		}
		m[key] = r
	}
	return m
}()

// newServedRequest is the server's request factory: a request of a served
// key, nil for every other.
func newServedRequest(key int16) runtime.APIMessage {
	if _, ok := supported[key]; !ok {
		return nil
	}
	return kafkamsg.NewRequest(key)
}

func (b *Broker) handleAPIVersions(c *call, req *kafkamsg.APIVersionsRequest) *kafkamsg.APIVersionsResponse {
	resp := kafkamsg.NewAPIVersionsResponse()
	for _, key := range servedAPIs {
		r := supported[key]
		resp.APIKeys = append(resp.APIKeys, kafkamsg.APIVersionsResponseAPIVersion{APIKey: key, MinVersion: r.min, MaxVersion: r.max})
	}
	return resp
}
