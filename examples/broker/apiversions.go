package main

import (
	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// versionRange is the versions of one API the broker serves.
type versionRange struct{ min, max int16 }

// servedAPIs are the API keys the broker answers, in ApiVersions order.
var servedAPIs = []int16{
	kafkamsg.APIKeyProduce, kafkamsg.APIKeyFetch, kafkamsg.APIKeyListOffsets, kafkamsg.APIKeyMetadata, kafkamsg.APIKeyOffsetCommit, kafkamsg.APIKeyOffsetFetch,
	kafkamsg.APIKeyFindCoordinator, kafkamsg.APIKeyJoinGroup, kafkamsg.APIKeyHeartbeat, kafkamsg.APIKeyLeaveGroup, kafkamsg.APIKeySyncGroup,
	kafkamsg.APIKeyDescribeGroups, kafkamsg.APIKeyListGroups, kafkamsg.APIKeyAPIVersions, kafkamsg.APIKeyCreateTopics, kafkamsg.APIKeyDeleteTopics,
	kafkamsg.APIKeyInitProducerID, kafkamsg.APIKeyAddPartitionsToTxn, kafkamsg.APIKeyAddOffsetsToTxn, kafkamsg.APIKeyEndTxn, kafkamsg.APIKeyTxnOffsetCommit,
	kafkamsg.APIKeySaslHandshake, kafkamsg.APIKeySaslAuthenticate,
}

// unstableLatest are the served APIs whose newest version the broker
// leaves out: InitProducerId 6 is latestVersionUnstable in Kafka 4.2's
// spec (two-phase commit, KIP-939), and EndTxn 5 belongs to transactions
// v2 (KIP-890), which this broker does not implement.
var unstableLatest = map[int16]bool{kafkamsg.APIKeyEndTxn: true, kafkamsg.APIKeyInitProducerID: true}

// supported maps every served API key to the versions the generated package
// implements (less an unstable latest); SaslHandshake and SaslAuthenticate
// to those wire's SASL serves too. Kafka lists both on every listener, and
// so does this broker: with SASL wire answers them, without it the broker
// answers ILLEGAL_SASL_STATE (handleSASLWithoutSASL).
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
	for _, w := range wire.SASLVersions() {
		if r, ok := m[w.APIKey]; ok {
			m[w.APIKey] = versionRange{max(r.min, w.MinVersion), min(r.max, w.MaxVersion)}
		}
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

// handleSASLWithoutSASL answers SaslHandshake and SaslAuthenticate on a
// listener without SASL (wire serves them on one with it) as Kafka's
// KafkaApis does: ILLEGAL_SASL_STATE, the connection kept.
func (b *Broker) handleSASLWithoutSASL(body runtime.APIMessage) runtime.APIMessage {
	if _, ok := body.(*kafkamsg.SaslHandshakeRequest); ok {
		resp := kafkamsg.NewSaslHandshakeResponse()
		resp.ErrorCode = kerrors.IllegalSaslState.Code
		return resp
	}
	resp := kafkamsg.NewSaslAuthenticateResponse()
	resp.ErrorCode = kerrors.IllegalSaslState.Code
	resp.ErrorMessage = runtime.NewNullString("SaslAuthenticate request received after successful authentication")
	return resp
}
