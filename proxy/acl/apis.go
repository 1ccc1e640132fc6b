package acl

import (
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// What Kafka's broker checks for each api (Kafka 4.1's KafkaApis and
// ControllerApis; restated in docs/protocol.md, "What each api needs").
// An api missing here carries no tenant's names (ACL and quota admin,
// delegation tokens, the apis between brokers and controllers) and is
// refused to all but super users.

// Check is one authorization a request needs: op on every name of entity
// type Entity in the request (the specs' entityType, plus the names the
// typed code's Names visits), or on the cluster when Entity is
// runtime.EntityUnknown. Entity runtime.EntityBrokerID stands for the
// parts of a request about the brokers (the config resources of brokers,
// broker loggers and client metrics, which Names visits so): each needs op
// on the cluster.
type Check struct {
	Entity runtime.EntityType
	Op     Operation
	// OrCluster: op allowed on the cluster passes the check for every name
	// (CreateTopics: CREATE on the cluster, or on each topic).
	OrCluster bool
}

// Rule is what one api needs.
type Rule struct {
	// Open: nothing to check (the handshake apis, telemetry); such
	// requests are not even decoded.
	Open bool
	// Checks are made in order: a refused group, transactional id or
	// cluster refuses the whole request with that resource's error; a
	// refused topic refuses only the parts naming it, where the typed code
	// can split the request.
	Checks []Check
	// HideUndescribed: the response lists resources of the cluster that
	// the principal must be allowed to DESCRIBE to see (Metadata of all
	// topics, ListGroups, ListTransactions...).
	HideUndescribed bool
	// ByIDFrom is the first version whose requests may name topics by id
	// only (0: none). As Kafka's broker does, the filter resolves each id
	// to its topic's name (ids.go), answers an unknown one
	// UNKNOWN_TOPIC_ID, and checks the name (Typed.RequestIDs, SplitIDs).
	ByIDFrom int16
	// ByIDAll: every version names topics by id (ShareFetch and
	// ShareAcknowledge), checked as from ByIDFrom.
	ByIDAll bool
	// SuperFrom is the first version that only brokers send (0: none),
	// refused to all but super users (AddPartitionsToTxn from v4).
	SuperFrom int16
	// AutoCreate: the request may ask the broker to create the topics it
	// names (Metadata), which needs CREATE on the cluster or on each of
	// them; without, the request goes on without asking (Typed.AutoCreate).
	AutoCreate bool
}

func topics(op Operation) Check  { return Check{Entity: runtime.EntityTopicName, Op: op} }
func groups(op Operation) Check  { return Check{Entity: runtime.EntityGroupID, Op: op} }
func txnIDs(op Operation) Check  { return Check{Entity: runtime.EntityTransactionalID, Op: op} }
func brokers(op Operation) Check { return Check{Entity: runtime.EntityBrokerID, Op: op} }
func cluster(op Operation) Check {
	return Check{Entity: runtime.EntityUnknown, Op: op}
}

// APIRules maps api keys to what they need. InitProducerId has code of its
// own in the filter (WRITE on its transactional id, or without one
// IDEMPOTENT_WRITE on the cluster or WRITE on some topic).
var APIRules = map[int16]Rule{
	0:  {Checks: []Check{txnIDs(OpWrite), topics(OpWrite)}, ByIDFrom: 13},                                   // Produce
	1:  {Checks: []Check{topics(OpRead)}, ByIDFrom: 13},                                                     // Fetch
	2:  {Checks: []Check{topics(OpDescribe)}},                                                               // ListOffsets
	3:  {Checks: []Check{topics(OpDescribe)}, HideUndescribed: true, AutoCreate: true, ByIDFrom: 10},        // Metadata
	8:  {Checks: []Check{groups(OpRead), topics(OpRead)}, ByIDFrom: 10},                                     // OffsetCommit
	9:  {Checks: []Check{groups(OpDescribe), topics(OpDescribe)}, HideUndescribed: true, ByIDFrom: 10},      // OffsetFetch
	10: {Checks: []Check{groups(OpDescribe), txnIDs(OpDescribe)}},                                           // FindCoordinator
	11: {Checks: []Check{groups(OpRead)}},                                                                   // JoinGroup
	12: {Checks: []Check{groups(OpRead)}},                                                                   // Heartbeat
	13: {Checks: []Check{groups(OpRead)}},                                                                   // LeaveGroup
	14: {Checks: []Check{groups(OpRead)}},                                                                   // SyncGroup
	15: {Checks: []Check{groups(OpDescribe)}},                                                               // DescribeGroups
	16: {HideUndescribed: true},                                                                             // ListGroups
	17: {Open: true},                                                                                        // SaslHandshake
	18: {Open: true},                                                                                        // ApiVersions
	19: {Checks: []Check{{Entity: runtime.EntityTopicName, Op: OpCreate, OrCluster: true}}},                 // CreateTopics
	20: {Checks: []Check{topics(OpDelete)}, ByIDFrom: 6},                                                    // DeleteTopics
	21: {Checks: []Check{topics(OpDelete)}},                                                                 // DeleteRecords
	23: {Checks: []Check{topics(OpDescribe)}},                                                               // OffsetForLeaderEpoch
	24: {Checks: []Check{txnIDs(OpWrite), topics(OpWrite)}, SuperFrom: 4},                                   // AddPartitionsToTxn
	25: {Checks: []Check{txnIDs(OpWrite), groups(OpRead)}},                                                  // AddOffsetsToTxn
	26: {Checks: []Check{txnIDs(OpWrite)}},                                                                  // EndTxn
	28: {Checks: []Check{txnIDs(OpWrite), groups(OpRead), topics(OpRead)}},                                  // TxnOffsetCommit
	32: {Checks: []Check{brokers(OpDescribeConfigs), groups(OpDescribeConfigs), topics(OpDescribeConfigs)}}, // DescribeConfigs
	33: {Checks: []Check{brokers(OpAlterConfigs), groups(OpAlterConfigs), topics(OpAlterConfigs)}},          // AlterConfigs
	35: {Checks: []Check{cluster(OpDescribe)}},                                                              // DescribeLogDirs
	36: {Open: true},                                                                                        // SaslAuthenticate
	37: {Checks: []Check{topics(OpAlter)}},                                                                  // CreatePartitions
	42: {Checks: []Check{groups(OpDelete)}},                                                                 // DeleteGroups
	44: {Checks: []Check{brokers(OpAlterConfigs), groups(OpAlterConfigs), topics(OpAlterConfigs)}},          // IncrementalAlterConfigs
	47: {Checks: []Check{groups(OpDelete), topics(OpRead)}},                                                 // OffsetDelete
	60: {Checks: []Check{cluster(OpDescribe)}},                                                              // DescribeCluster
	61: {Checks: []Check{topics(OpRead)}},                                                                   // DescribeProducers
	65: {Checks: []Check{txnIDs(OpDescribe)}},                                                               // DescribeTransactions
	66: {HideUndescribed: true},                                                                             // ListTransactions
	68: {Checks: []Check{groups(OpRead), topics(OpDescribe)}},                                               // ConsumerGroupHeartbeat
	69: {Checks: []Check{groups(OpDescribe)}},                                                               // ConsumerGroupDescribe
	71: {Open: true},                                                                                        // GetTelemetrySubscriptions
	72: {Open: true},                                                                                        // PushTelemetry
	75: {Checks: []Check{topics(OpDescribe)}, HideUndescribed: true},                                        // DescribeTopicPartitions
	76: {Checks: []Check{groups(OpRead), topics(OpDescribe)}},                                               // ShareGroupHeartbeat
	77: {Checks: []Check{groups(OpDescribe)}},                                                               // ShareGroupDescribe
	78: {Checks: []Check{groups(OpRead), topics(OpRead)}, ByIDAll: true},                                    // ShareFetch
	79: {Checks: []Check{groups(OpRead), topics(OpRead)}, ByIDAll: true},                                    // ShareAcknowledge
	22: {},                                                                                                  // InitProducerId: see above
}

// InitProducerIDKey is the api whose check is code, not a table row.
const InitProducerIDKey = 22

// byID reports whether the rule's api names topics by id at some version,
// and from which.
func (r Rule) byID() (from int16, ok bool) {
	if r.ByIDAll {
		return 0, true
	}
	return r.ByIDFrom, r.ByIDFrom > 0
}

// ErrorCode is the error a refusal on a resource of entity type t gets.
func ErrorCode(t runtime.EntityType) int16 {
	switch t {
	case runtime.EntityTopicName:
		return kerrors.TopicAuthorizationFailed.Code
	case runtime.EntityGroupID:
		return kerrors.GroupAuthorizationFailed.Code
	case runtime.EntityTransactionalID:
		return kerrors.TransactionalIDAuthorizationFailed.Code
	}
	return kerrors.ClusterAuthorizationFailed.Code
}

// resourceOf is the ACL resource type of an entity type.
func resourceOf(t runtime.EntityType) ResourceType {
	switch t {
	case runtime.EntityTopicName:
		return ResourceTopic
	case runtime.EntityGroupID:
		return ResourceGroup
	case runtime.EntityTransactionalID:
		return ResourceTransactionalID
	}
	return ResourceCluster
}
