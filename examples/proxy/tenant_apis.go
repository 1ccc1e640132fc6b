package main

import (
	"fmt"

	"github.com/kafkagen/kafkagen/examples/proxy/kafkamsg"
	"github.com/kafkagen/kafkagen/runtime"
)

// tenantAPIs are the apis a tenant may use: those of clients and of topic,
// group and transaction administration, whose every name the tenant's
// prefix covers (TestTenantCoverage checks each field of each). The others
// are refused (proxy.AllowList): the brokers' and controllers' own apis,
// and the administration of the cluster's ACLs, quotas, SCRAM users,
// delegation tokens, client-metrics resources, features, partition
// reassignments and log dirs, whose names (principals, users, resource
// patterns) a prefix cannot make one tenant's. An api Kafka adds later is
// refused until it is listed here.
var tenantAPIs = []int16{
	kafkamsg.APIKeyProduce, kafkamsg.APIKeyFetch, kafkamsg.APIKeyListOffsets, kafkamsg.APIKeyMetadata,
	kafkamsg.APIKeyOffsetCommit, kafkamsg.APIKeyOffsetFetch, kafkamsg.APIKeyFindCoordinator,
	kafkamsg.APIKeyJoinGroup, kafkamsg.APIKeyHeartbeat, kafkamsg.APIKeyLeaveGroup, kafkamsg.APIKeySyncGroup,
	kafkamsg.APIKeyDescribeGroups, kafkamsg.APIKeyListGroups, kafkamsg.APIKeySaslHandshake, kafkamsg.APIKeyAPIVersions,
	kafkamsg.APIKeyCreateTopics, kafkamsg.APIKeyDeleteTopics, kafkamsg.APIKeyDeleteRecords, kafkamsg.APIKeyInitProducerID,
	kafkamsg.APIKeyOffsetForLeaderEpoch, kafkamsg.APIKeyAddPartitionsToTxn, kafkamsg.APIKeyAddOffsetsToTxn,
	kafkamsg.APIKeyEndTxn, kafkamsg.APIKeyTxnOffsetCommit, kafkamsg.APIKeyDescribeConfigs, kafkamsg.APIKeyAlterConfigs,
	kafkamsg.APIKeySaslAuthenticate, kafkamsg.APIKeyCreatePartitions, kafkamsg.APIKeyDeleteGroups,
	kafkamsg.APIKeyIncrementalAlterConfigs, kafkamsg.APIKeyOffsetDelete, kafkamsg.APIKeyDescribeCluster,
	kafkamsg.APIKeyDescribeProducers, kafkamsg.APIKeyDescribeTransactions, kafkamsg.APIKeyListTransactions,
	kafkamsg.APIKeyConsumerGroupHeartbeat, kafkamsg.APIKeyConsumerGroupDescribe,
	kafkamsg.APIKeyGetTelemetrySubscriptions, kafkamsg.APIKeyPushTelemetry, kafkamsg.APIKeyDescribeTopicPartitions,
	kafkamsg.APIKeyShareGroupHeartbeat, kafkamsg.APIKeyShareGroupDescribe, kafkamsg.APIKeyShareFetch,
	kafkamsg.APIKeyShareAcknowledge,
}

// tenantCheck refuses what a prefix cannot make right: a consumer group
// subscribing by regex (KIP-848), which the group coordinator matches
// against every topic of the cluster, other tenants' too; and ListTransactions
// filtered by a regex of transactional ids (Kafka 4.1), which the broker
// matches against the prefixed ids (the answer would be hidden to the
// tenant's anyway, but wrong).
func tenantCheck(m runtime.APIMessage, version int16) error {
	switch m := m.(type) {
	case *kafkamsg.ConsumerGroupHeartbeatRequest:
		if m.SubscribedTopicRegex.Valid && m.SubscribedTopicRegex.Value != "" {
			return fmt.Errorf("ConsumerGroupHeartbeat v%d subscribes by the regex %q, which the broker would match against other tenants' topics too; subscribe by name",
				version, m.SubscribedTopicRegex.Value)
		}
	case *kafkamsg.ListTransactionsRequest:
		if m.TransactionalIDPattern.Valid && m.TransactionalIDPattern.Value != "" {
			return fmt.Errorf("ListTransactions v%d filters by the regex %q, which the broker would match against prefixed ids; list without it",
				version, m.TransactionalIDPattern.Value)
		}
	}
	return nil
}
