package kerrors

// Kafka 4.0's error codes (Errors.java): name, code, default message, and
// whether the exception Kafka maps the code to extends RetriableException.
// Code 0 is NONE, which is no error: ErrorCode(0) is nil.
var (
	// UnknownServerError is UNKNOWN_SERVER_ERROR (-1).
	UnknownServerError = &Error{Code: -1, Name: "UNKNOWN_SERVER_ERROR", Retriable: false,
		Message: "The server experienced an unexpected error when processing the request."}
	// OffsetOutOfRange is OFFSET_OUT_OF_RANGE (1).
	OffsetOutOfRange = &Error{Code: 1, Name: "OFFSET_OUT_OF_RANGE", Retriable: false,
		Message: "The requested offset is not within the range of offsets maintained by the server."}
	// CorruptMessage is CORRUPT_MESSAGE (2, retriable).
	CorruptMessage = &Error{Code: 2, Name: "CORRUPT_MESSAGE", Retriable: true,
		Message: "This message has failed its CRC checksum, exceeds the valid size, has a null key for a compacted topic, or is otherwise corrupt."}
	// UnknownTopicOrPartition is UNKNOWN_TOPIC_OR_PARTITION (3, retriable).
	UnknownTopicOrPartition = &Error{Code: 3, Name: "UNKNOWN_TOPIC_OR_PARTITION", Retriable: true,
		Message: "This server does not host this topic-partition."}
	// InvalidFetchSize is INVALID_FETCH_SIZE (4).
	InvalidFetchSize = &Error{Code: 4, Name: "INVALID_FETCH_SIZE", Retriable: false,
		Message: "The requested fetch size is invalid."}
	// LeaderNotAvailable is LEADER_NOT_AVAILABLE (5, retriable).
	LeaderNotAvailable = &Error{Code: 5, Name: "LEADER_NOT_AVAILABLE", Retriable: true,
		Message: "There is no leader for this topic-partition as we are in the middle of a leadership election."}
	// NotLeaderOrFollower is NOT_LEADER_OR_FOLLOWER (6, retriable).
	NotLeaderOrFollower = &Error{Code: 6, Name: "NOT_LEADER_OR_FOLLOWER", Retriable: true,
		Message: "For requests intended only for the leader, this error indicates that the broker is not the current leader. For requests intended for any replica, this error indicates that the broker is not a replica of the topic partition."}
	// RequestTimedOut is REQUEST_TIMED_OUT (7, retriable).
	RequestTimedOut = &Error{Code: 7, Name: "REQUEST_TIMED_OUT", Retriable: true,
		Message: "The request timed out."}
	// BrokerNotAvailable is BROKER_NOT_AVAILABLE (8).
	BrokerNotAvailable = &Error{Code: 8, Name: "BROKER_NOT_AVAILABLE", Retriable: false,
		Message: "The broker is not available."}
	// ReplicaNotAvailable is REPLICA_NOT_AVAILABLE (9, retriable).
	ReplicaNotAvailable = &Error{Code: 9, Name: "REPLICA_NOT_AVAILABLE", Retriable: true,
		Message: "The replica is not available for the requested topic-partition. Produce/Fetch requests and other requests intended only for the leader or follower return NOT_LEADER_OR_FOLLOWER if the broker is not a replica of the topic-partition."}
	// MessageTooLarge is MESSAGE_TOO_LARGE (10).
	MessageTooLarge = &Error{Code: 10, Name: "MESSAGE_TOO_LARGE", Retriable: false,
		Message: "The request included a message larger than the max message size the server will accept."}
	// StaleControllerEpoch is STALE_CONTROLLER_EPOCH (11).
	StaleControllerEpoch = &Error{Code: 11, Name: "STALE_CONTROLLER_EPOCH", Retriable: false,
		Message: "The controller moved to another broker."}
	// OffsetMetadataTooLarge is OFFSET_METADATA_TOO_LARGE (12).
	OffsetMetadataTooLarge = &Error{Code: 12, Name: "OFFSET_METADATA_TOO_LARGE", Retriable: false,
		Message: "The metadata field of the offset request was too large."}
	// NetworkException is NETWORK_EXCEPTION (13, retriable).
	NetworkException = &Error{Code: 13, Name: "NETWORK_EXCEPTION", Retriable: true,
		Message: "The server disconnected before a response was received."}
	// CoordinatorLoadInProgress is COORDINATOR_LOAD_IN_PROGRESS (14, retriable).
	CoordinatorLoadInProgress = &Error{Code: 14, Name: "COORDINATOR_LOAD_IN_PROGRESS", Retriable: true,
		Message: "The coordinator is loading and hence can't process requests."}
	// CoordinatorNotAvailable is COORDINATOR_NOT_AVAILABLE (15, retriable).
	CoordinatorNotAvailable = &Error{Code: 15, Name: "COORDINATOR_NOT_AVAILABLE", Retriable: true,
		Message: "The coordinator is not available."}
	// NotCoordinator is NOT_COORDINATOR (16, retriable).
	NotCoordinator = &Error{Code: 16, Name: "NOT_COORDINATOR", Retriable: true,
		Message: "This is not the correct coordinator."}
	// InvalidTopicException is INVALID_TOPIC_EXCEPTION (17).
	InvalidTopicException = &Error{Code: 17, Name: "INVALID_TOPIC_EXCEPTION", Retriable: false,
		Message: "The request attempted to perform an operation on an invalid topic."}
	// RecordListTooLarge is RECORD_LIST_TOO_LARGE (18).
	RecordListTooLarge = &Error{Code: 18, Name: "RECORD_LIST_TOO_LARGE", Retriable: false,
		Message: "The request included message batch larger than the configured segment size on the server."}
	// NotEnoughReplicas is NOT_ENOUGH_REPLICAS (19, retriable).
	NotEnoughReplicas = &Error{Code: 19, Name: "NOT_ENOUGH_REPLICAS", Retriable: true,
		Message: "Messages are rejected since there are fewer in-sync replicas than required."}
	// NotEnoughReplicasAfterAppend is NOT_ENOUGH_REPLICAS_AFTER_APPEND (20, retriable).
	NotEnoughReplicasAfterAppend = &Error{Code: 20, Name: "NOT_ENOUGH_REPLICAS_AFTER_APPEND", Retriable: true,
		Message: "Messages are written to the log, but to fewer in-sync replicas than required."}
	// InvalidRequiredAcks is INVALID_REQUIRED_ACKS (21).
	InvalidRequiredAcks = &Error{Code: 21, Name: "INVALID_REQUIRED_ACKS", Retriable: false,
		Message: "Produce request specified an invalid value for required acks."}
	// IllegalGeneration is ILLEGAL_GENERATION (22).
	IllegalGeneration = &Error{Code: 22, Name: "ILLEGAL_GENERATION", Retriable: false,
		Message: "Specified group generation id is not valid."}
	// InconsistentGroupProtocol is INCONSISTENT_GROUP_PROTOCOL (23).
	InconsistentGroupProtocol = &Error{Code: 23, Name: "INCONSISTENT_GROUP_PROTOCOL", Retriable: false,
		Message: "The group member's supported protocols are incompatible with those of existing members or first group member tried to join with empty protocol type or empty protocol list."}
	// InvalidGroupID is INVALID_GROUP_ID (24).
	InvalidGroupID = &Error{Code: 24, Name: "INVALID_GROUP_ID", Retriable: false,
		Message: "The group id is invalid."}
	// UnknownMemberID is UNKNOWN_MEMBER_ID (25).
	UnknownMemberID = &Error{Code: 25, Name: "UNKNOWN_MEMBER_ID", Retriable: false,
		Message: "The coordinator is not aware of this member."}
	// InvalidSessionTimeout is INVALID_SESSION_TIMEOUT (26).
	InvalidSessionTimeout = &Error{Code: 26, Name: "INVALID_SESSION_TIMEOUT", Retriable: false,
		Message: "The session timeout is not within the range allowed by the broker (as configured by group.min.session.timeout.ms and group.max.session.timeout.ms)."}
	// RebalanceInProgress is REBALANCE_IN_PROGRESS (27).
	RebalanceInProgress = &Error{Code: 27, Name: "REBALANCE_IN_PROGRESS", Retriable: false,
		Message: "The group is rebalancing, so a rejoin is needed."}
	// InvalidCommitOffsetSize is INVALID_COMMIT_OFFSET_SIZE (28).
	InvalidCommitOffsetSize = &Error{Code: 28, Name: "INVALID_COMMIT_OFFSET_SIZE", Retriable: false,
		Message: "The committing offset data size is not valid."}
	// TopicAuthorizationFailed is TOPIC_AUTHORIZATION_FAILED (29).
	TopicAuthorizationFailed = &Error{Code: 29, Name: "TOPIC_AUTHORIZATION_FAILED", Retriable: false,
		Message: "Topic authorization failed."}
	// GroupAuthorizationFailed is GROUP_AUTHORIZATION_FAILED (30).
	GroupAuthorizationFailed = &Error{Code: 30, Name: "GROUP_AUTHORIZATION_FAILED", Retriable: false,
		Message: "Group authorization failed."}
	// ClusterAuthorizationFailed is CLUSTER_AUTHORIZATION_FAILED (31).
	ClusterAuthorizationFailed = &Error{Code: 31, Name: "CLUSTER_AUTHORIZATION_FAILED", Retriable: false,
		Message: "Cluster authorization failed."}
	// InvalidTimestamp is INVALID_TIMESTAMP (32).
	InvalidTimestamp = &Error{Code: 32, Name: "INVALID_TIMESTAMP", Retriable: false,
		Message: "The timestamp of the message is out of acceptable range."}
	// UnsupportedSaslMechanism is UNSUPPORTED_SASL_MECHANISM (33).
	UnsupportedSaslMechanism = &Error{Code: 33, Name: "UNSUPPORTED_SASL_MECHANISM", Retriable: false,
		Message: "The broker does not support the requested SASL mechanism."}
	// IllegalSaslState is ILLEGAL_SASL_STATE (34).
	IllegalSaslState = &Error{Code: 34, Name: "ILLEGAL_SASL_STATE", Retriable: false,
		Message: "Request is not valid given the current SASL state."}
	// UnsupportedVersion is UNSUPPORTED_VERSION (35).
	UnsupportedVersion = &Error{Code: 35, Name: "UNSUPPORTED_VERSION", Retriable: false,
		Message: "The version of API is not supported."}
	// TopicAlreadyExists is TOPIC_ALREADY_EXISTS (36).
	TopicAlreadyExists = &Error{Code: 36, Name: "TOPIC_ALREADY_EXISTS", Retriable: false,
		Message: "Topic with this name already exists."}
	// InvalidPartitions is INVALID_PARTITIONS (37).
	InvalidPartitions = &Error{Code: 37, Name: "INVALID_PARTITIONS", Retriable: false,
		Message: "Number of partitions is below 1."}
	// InvalidReplicationFactor is INVALID_REPLICATION_FACTOR (38).
	InvalidReplicationFactor = &Error{Code: 38, Name: "INVALID_REPLICATION_FACTOR", Retriable: false,
		Message: "Replication factor is below 1 or larger than the number of available brokers."}
	// InvalidReplicaAssignment is INVALID_REPLICA_ASSIGNMENT (39).
	InvalidReplicaAssignment = &Error{Code: 39, Name: "INVALID_REPLICA_ASSIGNMENT", Retriable: false,
		Message: "Replica assignment is invalid."}
	// InvalidConfig is INVALID_CONFIG (40).
	InvalidConfig = &Error{Code: 40, Name: "INVALID_CONFIG", Retriable: false,
		Message: "Configuration is invalid."}
	// NotController is NOT_CONTROLLER (41, retriable).
	NotController = &Error{Code: 41, Name: "NOT_CONTROLLER", Retriable: true,
		Message: "This is not the correct controller for this cluster."}
	// InvalidRequest is INVALID_REQUEST (42).
	InvalidRequest = &Error{Code: 42, Name: "INVALID_REQUEST", Retriable: false,
		Message: "This most likely occurs because of a request being malformed by the client library or the message was sent to an incompatible broker. See the broker logs for more details."}
	// UnsupportedForMessageFormat is UNSUPPORTED_FOR_MESSAGE_FORMAT (43).
	UnsupportedForMessageFormat = &Error{Code: 43, Name: "UNSUPPORTED_FOR_MESSAGE_FORMAT", Retriable: false,
		Message: "The message format version on the broker does not support the request."}
	// PolicyViolation is POLICY_VIOLATION (44).
	PolicyViolation = &Error{Code: 44, Name: "POLICY_VIOLATION", Retriable: false,
		Message: "Request parameters do not satisfy the configured policy."}
	// OutOfOrderSequenceNumber is OUT_OF_ORDER_SEQUENCE_NUMBER (45).
	OutOfOrderSequenceNumber = &Error{Code: 45, Name: "OUT_OF_ORDER_SEQUENCE_NUMBER", Retriable: false,
		Message: "The broker received an out of order sequence number."}
	// DuplicateSequenceNumber is DUPLICATE_SEQUENCE_NUMBER (46).
	DuplicateSequenceNumber = &Error{Code: 46, Name: "DUPLICATE_SEQUENCE_NUMBER", Retriable: false,
		Message: "The broker received a duplicate sequence number."}
	// InvalidProducerEpoch is INVALID_PRODUCER_EPOCH (47).
	InvalidProducerEpoch = &Error{Code: 47, Name: "INVALID_PRODUCER_EPOCH", Retriable: false,
		Message: "Producer attempted to produce with an old epoch."}
	// InvalidTxnState is INVALID_TXN_STATE (48).
	InvalidTxnState = &Error{Code: 48, Name: "INVALID_TXN_STATE", Retriable: false,
		Message: "The producer attempted a transactional operation in an invalid state."}
	// InvalidProducerIDMapping is INVALID_PRODUCER_ID_MAPPING (49).
	InvalidProducerIDMapping = &Error{Code: 49, Name: "INVALID_PRODUCER_ID_MAPPING", Retriable: false,
		Message: "The producer attempted to use a producer id which is not currently assigned to its transactional id."}
	// InvalidTransactionTimeout is INVALID_TRANSACTION_TIMEOUT (50).
	InvalidTransactionTimeout = &Error{Code: 50, Name: "INVALID_TRANSACTION_TIMEOUT", Retriable: false,
		Message: "The transaction timeout is larger than the maximum value allowed by the broker (as configured by transaction.max.timeout.ms)."}
	// ConcurrentTransactions is CONCURRENT_TRANSACTIONS (51, retriable).
	ConcurrentTransactions = &Error{Code: 51, Name: "CONCURRENT_TRANSACTIONS", Retriable: true,
		Message: "The producer attempted to update a transaction while another concurrent operation on the same transaction was ongoing."}
	// TransactionCoordinatorFenced is TRANSACTION_COORDINATOR_FENCED (52).
	TransactionCoordinatorFenced = &Error{Code: 52, Name: "TRANSACTION_COORDINATOR_FENCED", Retriable: false,
		Message: "Indicates that the transaction coordinator sending a WriteTxnMarker is no longer the current coordinator for a given producer."}
	// TransactionalIDAuthorizationFailed is TRANSACTIONAL_ID_AUTHORIZATION_FAILED (53).
	TransactionalIDAuthorizationFailed = &Error{Code: 53, Name: "TRANSACTIONAL_ID_AUTHORIZATION_FAILED", Retriable: false,
		Message: "Transactional Id authorization failed."}
	// SecurityDisabled is SECURITY_DISABLED (54).
	SecurityDisabled = &Error{Code: 54, Name: "SECURITY_DISABLED", Retriable: false,
		Message: "Security features are disabled."}
	// OperationNotAttempted is OPERATION_NOT_ATTEMPTED (55).
	OperationNotAttempted = &Error{Code: 55, Name: "OPERATION_NOT_ATTEMPTED", Retriable: false,
		Message: "The broker did not attempt to execute this operation. This may happen for batched RPCs where some operations in the batch failed, causing the broker to respond without trying the rest."}
	// KafkaStorageError is KAFKA_STORAGE_ERROR (56, retriable).
	KafkaStorageError = &Error{Code: 56, Name: "KAFKA_STORAGE_ERROR", Retriable: true,
		Message: "Disk error when trying to access log file on the disk."}
	// LogDirNotFound is LOG_DIR_NOT_FOUND (57).
	LogDirNotFound = &Error{Code: 57, Name: "LOG_DIR_NOT_FOUND", Retriable: false,
		Message: "The user-specified log directory is not found in the broker config."}
	// SaslAuthenticationFailed is SASL_AUTHENTICATION_FAILED (58).
	SaslAuthenticationFailed = &Error{Code: 58, Name: "SASL_AUTHENTICATION_FAILED", Retriable: false,
		Message: "SASL Authentication failed."}
	// UnknownProducerID is UNKNOWN_PRODUCER_ID (59).
	UnknownProducerID = &Error{Code: 59, Name: "UNKNOWN_PRODUCER_ID", Retriable: false,
		Message: "This exception is raised by the broker if it could not locate the producer metadata associated with the producerId in question. This could happen if, for instance, the producer's records were deleted because their retention time had elapsed. Once the last records of the producerId are removed, the producer's metadata is removed from the broker, and future appends by the producer will return this exception."}
	// ReassignmentInProgress is REASSIGNMENT_IN_PROGRESS (60).
	ReassignmentInProgress = &Error{Code: 60, Name: "REASSIGNMENT_IN_PROGRESS", Retriable: false,
		Message: "A partition reassignment is in progress."}
	// DelegationTokenAuthDisabled is DELEGATION_TOKEN_AUTH_DISABLED (61).
	DelegationTokenAuthDisabled = &Error{Code: 61, Name: "DELEGATION_TOKEN_AUTH_DISABLED", Retriable: false,
		Message: "Delegation Token feature is not enabled."}
	// DelegationTokenNotFound is DELEGATION_TOKEN_NOT_FOUND (62).
	DelegationTokenNotFound = &Error{Code: 62, Name: "DELEGATION_TOKEN_NOT_FOUND", Retriable: false,
		Message: "Delegation Token is not found on server."}
	// DelegationTokenOwnerMismatch is DELEGATION_TOKEN_OWNER_MISMATCH (63).
	DelegationTokenOwnerMismatch = &Error{Code: 63, Name: "DELEGATION_TOKEN_OWNER_MISMATCH", Retriable: false,
		Message: "Specified Principal is not valid Owner/Renewer."}
	// DelegationTokenRequestNotAllowed is DELEGATION_TOKEN_REQUEST_NOT_ALLOWED (64).
	DelegationTokenRequestNotAllowed = &Error{Code: 64, Name: "DELEGATION_TOKEN_REQUEST_NOT_ALLOWED", Retriable: false,
		Message: "Delegation Token requests are not allowed on PLAINTEXT/1-way SSL channels and on delegation token authenticated channels."}
	// DelegationTokenAuthorizationFailed is DELEGATION_TOKEN_AUTHORIZATION_FAILED (65).
	DelegationTokenAuthorizationFailed = &Error{Code: 65, Name: "DELEGATION_TOKEN_AUTHORIZATION_FAILED", Retriable: false,
		Message: "Delegation Token authorization failed."}
	// DelegationTokenExpired is DELEGATION_TOKEN_EXPIRED (66).
	DelegationTokenExpired = &Error{Code: 66, Name: "DELEGATION_TOKEN_EXPIRED", Retriable: false,
		Message: "Delegation Token is expired."}
	// InvalidPrincipalType is INVALID_PRINCIPAL_TYPE (67).
	InvalidPrincipalType = &Error{Code: 67, Name: "INVALID_PRINCIPAL_TYPE", Retriable: false,
		Message: "Supplied principalType is not supported."}
	// NonEmptyGroup is NON_EMPTY_GROUP (68).
	NonEmptyGroup = &Error{Code: 68, Name: "NON_EMPTY_GROUP", Retriable: false,
		Message: "The group is not empty."}
	// GroupIDNotFound is GROUP_ID_NOT_FOUND (69).
	GroupIDNotFound = &Error{Code: 69, Name: "GROUP_ID_NOT_FOUND", Retriable: false,
		Message: "The group id does not exist."}
	// FetchSessionIDNotFound is FETCH_SESSION_ID_NOT_FOUND (70, retriable).
	FetchSessionIDNotFound = &Error{Code: 70, Name: "FETCH_SESSION_ID_NOT_FOUND", Retriable: true,
		Message: "The fetch session ID was not found."}
	// InvalidFetchSessionEpoch is INVALID_FETCH_SESSION_EPOCH (71, retriable).
	InvalidFetchSessionEpoch = &Error{Code: 71, Name: "INVALID_FETCH_SESSION_EPOCH", Retriable: true,
		Message: "The fetch session epoch is invalid."}
	// ListenerNotFound is LISTENER_NOT_FOUND (72, retriable).
	ListenerNotFound = &Error{Code: 72, Name: "LISTENER_NOT_FOUND", Retriable: true,
		Message: "There is no listener on the leader broker that matches the listener on which metadata request was processed."}
	// TopicDeletionDisabled is TOPIC_DELETION_DISABLED (73).
	TopicDeletionDisabled = &Error{Code: 73, Name: "TOPIC_DELETION_DISABLED", Retriable: false,
		Message: "Topic deletion is disabled."}
	// FencedLeaderEpoch is FENCED_LEADER_EPOCH (74, retriable).
	FencedLeaderEpoch = &Error{Code: 74, Name: "FENCED_LEADER_EPOCH", Retriable: true,
		Message: "The leader epoch in the request is older than the epoch on the broker."}
	// UnknownLeaderEpoch is UNKNOWN_LEADER_EPOCH (75, retriable).
	UnknownLeaderEpoch = &Error{Code: 75, Name: "UNKNOWN_LEADER_EPOCH", Retriable: true,
		Message: "The leader epoch in the request is newer than the epoch on the broker."}
	// UnsupportedCompressionType is UNSUPPORTED_COMPRESSION_TYPE (76).
	UnsupportedCompressionType = &Error{Code: 76, Name: "UNSUPPORTED_COMPRESSION_TYPE", Retriable: false,
		Message: "The requesting client does not support the compression type of given partition."}
	// StaleBrokerEpoch is STALE_BROKER_EPOCH (77).
	StaleBrokerEpoch = &Error{Code: 77, Name: "STALE_BROKER_EPOCH", Retriable: false,
		Message: "Broker epoch has changed."}
	// OffsetNotAvailable is OFFSET_NOT_AVAILABLE (78, retriable).
	OffsetNotAvailable = &Error{Code: 78, Name: "OFFSET_NOT_AVAILABLE", Retriable: true,
		Message: "The leader high watermark has not caught up from a recent leader election so the offsets cannot be guaranteed to be monotonically increasing."}
	// MemberIDRequired is MEMBER_ID_REQUIRED (79).
	MemberIDRequired = &Error{Code: 79, Name: "MEMBER_ID_REQUIRED", Retriable: false,
		Message: "The group member needs to have a valid member id before actually entering a consumer group."}
	// PreferredLeaderNotAvailable is PREFERRED_LEADER_NOT_AVAILABLE (80, retriable).
	PreferredLeaderNotAvailable = &Error{Code: 80, Name: "PREFERRED_LEADER_NOT_AVAILABLE", Retriable: true,
		Message: "The preferred leader was not available."}
	// GroupMaxSizeReached is GROUP_MAX_SIZE_REACHED (81).
	GroupMaxSizeReached = &Error{Code: 81, Name: "GROUP_MAX_SIZE_REACHED", Retriable: false,
		Message: "The group has reached its maximum size."}
	// FencedInstanceID is FENCED_INSTANCE_ID (82).
	FencedInstanceID = &Error{Code: 82, Name: "FENCED_INSTANCE_ID", Retriable: false,
		Message: "The broker rejected this static consumer since another consumer with the same group.instance.id has registered with a different member.id."}
	// EligibleLeadersNotAvailable is ELIGIBLE_LEADERS_NOT_AVAILABLE (83, retriable).
	EligibleLeadersNotAvailable = &Error{Code: 83, Name: "ELIGIBLE_LEADERS_NOT_AVAILABLE", Retriable: true,
		Message: "Eligible topic partition leaders are not available."}
	// ElectionNotNeeded is ELECTION_NOT_NEEDED (84, retriable).
	ElectionNotNeeded = &Error{Code: 84, Name: "ELECTION_NOT_NEEDED", Retriable: true,
		Message: "Leader election not needed for topic partition."}
	// NoReassignmentInProgress is NO_REASSIGNMENT_IN_PROGRESS (85).
	NoReassignmentInProgress = &Error{Code: 85, Name: "NO_REASSIGNMENT_IN_PROGRESS", Retriable: false,
		Message: "No partition reassignment is in progress."}
	// GroupSubscribedToTopic is GROUP_SUBSCRIBED_TO_TOPIC (86).
	GroupSubscribedToTopic = &Error{Code: 86, Name: "GROUP_SUBSCRIBED_TO_TOPIC", Retriable: false,
		Message: "Deleting offsets of a topic is forbidden while the consumer group is actively subscribed to it."}
	// InvalidRecord is INVALID_RECORD (87).
	InvalidRecord = &Error{Code: 87, Name: "INVALID_RECORD", Retriable: false,
		Message: "This record has failed the validation on broker and hence will be rejected."}
	// UnstableOffsetCommit is UNSTABLE_OFFSET_COMMIT (88, retriable).
	UnstableOffsetCommit = &Error{Code: 88, Name: "UNSTABLE_OFFSET_COMMIT", Retriable: true,
		Message: "There are unstable offsets that need to be cleared."}
	// ThrottlingQuotaExceeded is THROTTLING_QUOTA_EXCEEDED (89, retriable).
	ThrottlingQuotaExceeded = &Error{Code: 89, Name: "THROTTLING_QUOTA_EXCEEDED", Retriable: true,
		Message: "The throttling quota has been exceeded."}
	// ProducerFenced is PRODUCER_FENCED (90).
	ProducerFenced = &Error{Code: 90, Name: "PRODUCER_FENCED", Retriable: false,
		Message: "There is a newer producer with the same transactionalId which fences the current one."}
	// ResourceNotFound is RESOURCE_NOT_FOUND (91).
	ResourceNotFound = &Error{Code: 91, Name: "RESOURCE_NOT_FOUND", Retriable: false,
		Message: "A request illegally referred to a resource that does not exist."}
	// DuplicateResource is DUPLICATE_RESOURCE (92).
	DuplicateResource = &Error{Code: 92, Name: "DUPLICATE_RESOURCE", Retriable: false,
		Message: "A request illegally referred to the same resource twice."}
	// UnacceptableCredential is UNACCEPTABLE_CREDENTIAL (93).
	UnacceptableCredential = &Error{Code: 93, Name: "UNACCEPTABLE_CREDENTIAL", Retriable: false,
		Message: "Requested credential would not meet criteria for acceptability."}
	// InconsistentVoterSet is INCONSISTENT_VOTER_SET (94).
	InconsistentVoterSet = &Error{Code: 94, Name: "INCONSISTENT_VOTER_SET", Retriable: false,
		Message: "Indicates that the either the sender or recipient of a voter-only request is not one of the expected voters."}
	// InvalidUpdateVersion is INVALID_UPDATE_VERSION (95).
	InvalidUpdateVersion = &Error{Code: 95, Name: "INVALID_UPDATE_VERSION", Retriable: false,
		Message: "The given update version was invalid."}
	// FeatureUpdateFailed is FEATURE_UPDATE_FAILED (96).
	FeatureUpdateFailed = &Error{Code: 96, Name: "FEATURE_UPDATE_FAILED", Retriable: false,
		Message: "Unable to update finalized features due to an unexpected server error."}
	// PrincipalDeserializationFailure is PRINCIPAL_DESERIALIZATION_FAILURE (97).
	PrincipalDeserializationFailure = &Error{Code: 97, Name: "PRINCIPAL_DESERIALIZATION_FAILURE", Retriable: false,
		Message: "Request principal deserialization failed during forwarding. This indicates an internal error on the broker cluster security setup."}
	// SnapshotNotFound is SNAPSHOT_NOT_FOUND (98).
	SnapshotNotFound = &Error{Code: 98, Name: "SNAPSHOT_NOT_FOUND", Retriable: false,
		Message: "Requested snapshot was not found."}
	// PositionOutOfRange is POSITION_OUT_OF_RANGE (99).
	PositionOutOfRange = &Error{Code: 99, Name: "POSITION_OUT_OF_RANGE", Retriable: false,
		Message: "Requested position is not greater than or equal to zero, and less than the size of the snapshot."}
	// UnknownTopicID is UNKNOWN_TOPIC_ID (100, retriable).
	UnknownTopicID = &Error{Code: 100, Name: "UNKNOWN_TOPIC_ID", Retriable: true,
		Message: "This server does not host this topic ID."}
	// DuplicateBrokerRegistration is DUPLICATE_BROKER_REGISTRATION (101).
	DuplicateBrokerRegistration = &Error{Code: 101, Name: "DUPLICATE_BROKER_REGISTRATION", Retriable: false,
		Message: "This broker ID is already in use."}
	// BrokerIDNotRegistered is BROKER_ID_NOT_REGISTERED (102).
	BrokerIDNotRegistered = &Error{Code: 102, Name: "BROKER_ID_NOT_REGISTERED", Retriable: false,
		Message: "The given broker ID was not registered."}
	// InconsistentTopicID is INCONSISTENT_TOPIC_ID (103, retriable).
	InconsistentTopicID = &Error{Code: 103, Name: "INCONSISTENT_TOPIC_ID", Retriable: true,
		Message: "The log's topic ID did not match the topic ID in the request."}
	// InconsistentClusterID is INCONSISTENT_CLUSTER_ID (104).
	InconsistentClusterID = &Error{Code: 104, Name: "INCONSISTENT_CLUSTER_ID", Retriable: false,
		Message: "The clusterId in the request does not match that found on the server."}
	// TransactionalIDNotFound is TRANSACTIONAL_ID_NOT_FOUND (105).
	TransactionalIDNotFound = &Error{Code: 105, Name: "TRANSACTIONAL_ID_NOT_FOUND", Retriable: false,
		Message: "The transactionalId could not be found."}
	// FetchSessionTopicIDError is FETCH_SESSION_TOPIC_ID_ERROR (106, retriable).
	FetchSessionTopicIDError = &Error{Code: 106, Name: "FETCH_SESSION_TOPIC_ID_ERROR", Retriable: true,
		Message: "The fetch session encountered inconsistent topic ID usage."}
	// IneligibleReplica is INELIGIBLE_REPLICA (107).
	IneligibleReplica = &Error{Code: 107, Name: "INELIGIBLE_REPLICA", Retriable: false,
		Message: "The new ISR contains at least one ineligible replica."}
	// NewLeaderElected is NEW_LEADER_ELECTED (108).
	NewLeaderElected = &Error{Code: 108, Name: "NEW_LEADER_ELECTED", Retriable: false,
		Message: "The AlterPartition request successfully updated the partition state but the leader has changed."}
	// OffsetMovedToTieredStorage is OFFSET_MOVED_TO_TIERED_STORAGE (109).
	OffsetMovedToTieredStorage = &Error{Code: 109, Name: "OFFSET_MOVED_TO_TIERED_STORAGE", Retriable: false,
		Message: "The requested offset is moved to tiered storage."}
	// FencedMemberEpoch is FENCED_MEMBER_EPOCH (110).
	FencedMemberEpoch = &Error{Code: 110, Name: "FENCED_MEMBER_EPOCH", Retriable: false,
		Message: "The member epoch is fenced by the group coordinator. The member must abandon all its partitions and rejoin."}
	// UnreleasedInstanceID is UNRELEASED_INSTANCE_ID (111).
	UnreleasedInstanceID = &Error{Code: 111, Name: "UNRELEASED_INSTANCE_ID", Retriable: false,
		Message: "The instance ID is still used by another member in the consumer group. That member must leave first."}
	// UnsupportedAssignor is UNSUPPORTED_ASSIGNOR (112).
	UnsupportedAssignor = &Error{Code: 112, Name: "UNSUPPORTED_ASSIGNOR", Retriable: false,
		Message: "The assignor or its version range is not supported by the consumer group."}
	// StaleMemberEpoch is STALE_MEMBER_EPOCH (113).
	StaleMemberEpoch = &Error{Code: 113, Name: "STALE_MEMBER_EPOCH", Retriable: false,
		Message: "The member epoch is stale. The member must retry after receiving its updated member epoch via the ConsumerGroupHeartbeat API."}
	// MismatchedEndpointType is MISMATCHED_ENDPOINT_TYPE (114).
	MismatchedEndpointType = &Error{Code: 114, Name: "MISMATCHED_ENDPOINT_TYPE", Retriable: false,
		Message: "The request was sent to an endpoint of the wrong type."}
	// UnsupportedEndpointType is UNSUPPORTED_ENDPOINT_TYPE (115).
	UnsupportedEndpointType = &Error{Code: 115, Name: "UNSUPPORTED_ENDPOINT_TYPE", Retriable: false,
		Message: "This endpoint type is not supported yet."}
	// UnknownControllerID is UNKNOWN_CONTROLLER_ID (116).
	UnknownControllerID = &Error{Code: 116, Name: "UNKNOWN_CONTROLLER_ID", Retriable: false,
		Message: "This controller ID is not known."}
	// UnknownSubscriptionID is UNKNOWN_SUBSCRIPTION_ID (117).
	UnknownSubscriptionID = &Error{Code: 117, Name: "UNKNOWN_SUBSCRIPTION_ID", Retriable: false,
		Message: "Client sent a push telemetry request with an invalid or outdated subscription ID."}
	// TelemetryTooLarge is TELEMETRY_TOO_LARGE (118).
	TelemetryTooLarge = &Error{Code: 118, Name: "TELEMETRY_TOO_LARGE", Retriable: false,
		Message: "Client sent a push telemetry request larger than the maximum size the broker will accept."}
	// InvalidRegistration is INVALID_REGISTRATION (119).
	InvalidRegistration = &Error{Code: 119, Name: "INVALID_REGISTRATION", Retriable: false,
		Message: "The controller has considered the broker registration to be invalid."}
	// TransactionAbortable is TRANSACTION_ABORTABLE (120).
	TransactionAbortable = &Error{Code: 120, Name: "TRANSACTION_ABORTABLE", Retriable: false,
		Message: "The server encountered an error with the transaction. The client can abort the transaction to continue using this transactional ID."}
	// InvalidRecordState is INVALID_RECORD_STATE (121).
	InvalidRecordState = &Error{Code: 121, Name: "INVALID_RECORD_STATE", Retriable: false,
		Message: "The record state is invalid. The acknowledgement of delivery could not be completed."}
	// ShareSessionNotFound is SHARE_SESSION_NOT_FOUND (122, retriable).
	ShareSessionNotFound = &Error{Code: 122, Name: "SHARE_SESSION_NOT_FOUND", Retriable: true,
		Message: "The share session was not found."}
	// InvalidShareSessionEpoch is INVALID_SHARE_SESSION_EPOCH (123, retriable).
	InvalidShareSessionEpoch = &Error{Code: 123, Name: "INVALID_SHARE_SESSION_EPOCH", Retriable: true,
		Message: "The share session epoch is invalid."}
	// FencedStateEpoch is FENCED_STATE_EPOCH (124).
	FencedStateEpoch = &Error{Code: 124, Name: "FENCED_STATE_EPOCH", Retriable: false,
		Message: "The share coordinator rejected the request because the share-group state epoch did not match."}
	// InvalidVoterKey is INVALID_VOTER_KEY (125).
	InvalidVoterKey = &Error{Code: 125, Name: "INVALID_VOTER_KEY", Retriable: false,
		Message: "The voter key doesn't match the receiving replica's key."}
	// DuplicateVoter is DUPLICATE_VOTER (126).
	DuplicateVoter = &Error{Code: 126, Name: "DUPLICATE_VOTER", Retriable: false,
		Message: "The voter is already part of the set of voters."}
	// VoterNotFound is VOTER_NOT_FOUND (127).
	VoterNotFound = &Error{Code: 127, Name: "VOTER_NOT_FOUND", Retriable: false,
		Message: "The voter is not part of the set of voters."}
	// InvalidRegularExpression is INVALID_REGULAR_EXPRESSION (128).
	InvalidRegularExpression = &Error{Code: 128, Name: "INVALID_REGULAR_EXPRESSION", Retriable: false,
		Message: "The regular expression is not valid."}
	// RebootstrapRequired is REBOOTSTRAP_REQUIRED (129).
	RebootstrapRequired = &Error{Code: 129, Name: "REBOOTSTRAP_REQUIRED", Retriable: false,
		Message: "Client metadata is stale. The client should rebootstrap to obtain new metadata."}
)

// errorTable lists every entry, in code order.
var errorTable = []*Error{
	UnknownServerError, OffsetOutOfRange, CorruptMessage, UnknownTopicOrPartition,
	InvalidFetchSize, LeaderNotAvailable, NotLeaderOrFollower, RequestTimedOut,
	BrokerNotAvailable, ReplicaNotAvailable, MessageTooLarge, StaleControllerEpoch,
	OffsetMetadataTooLarge, NetworkException, CoordinatorLoadInProgress, CoordinatorNotAvailable,
	NotCoordinator, InvalidTopicException, RecordListTooLarge, NotEnoughReplicas,
	NotEnoughReplicasAfterAppend, InvalidRequiredAcks, IllegalGeneration, InconsistentGroupProtocol,
	InvalidGroupID, UnknownMemberID, InvalidSessionTimeout, RebalanceInProgress,
	InvalidCommitOffsetSize, TopicAuthorizationFailed, GroupAuthorizationFailed, ClusterAuthorizationFailed,
	InvalidTimestamp, UnsupportedSaslMechanism, IllegalSaslState, UnsupportedVersion,
	TopicAlreadyExists, InvalidPartitions, InvalidReplicationFactor, InvalidReplicaAssignment,
	InvalidConfig, NotController, InvalidRequest, UnsupportedForMessageFormat,
	PolicyViolation, OutOfOrderSequenceNumber, DuplicateSequenceNumber, InvalidProducerEpoch,
	InvalidTxnState, InvalidProducerIDMapping, InvalidTransactionTimeout, ConcurrentTransactions,
	TransactionCoordinatorFenced, TransactionalIDAuthorizationFailed, SecurityDisabled, OperationNotAttempted,
	KafkaStorageError, LogDirNotFound, SaslAuthenticationFailed, UnknownProducerID,
	ReassignmentInProgress, DelegationTokenAuthDisabled, DelegationTokenNotFound, DelegationTokenOwnerMismatch,
	DelegationTokenRequestNotAllowed, DelegationTokenAuthorizationFailed, DelegationTokenExpired, InvalidPrincipalType,
	NonEmptyGroup, GroupIDNotFound, FetchSessionIDNotFound, InvalidFetchSessionEpoch,
	ListenerNotFound, TopicDeletionDisabled, FencedLeaderEpoch, UnknownLeaderEpoch,
	UnsupportedCompressionType, StaleBrokerEpoch, OffsetNotAvailable, MemberIDRequired,
	PreferredLeaderNotAvailable, GroupMaxSizeReached, FencedInstanceID, EligibleLeadersNotAvailable,
	ElectionNotNeeded, NoReassignmentInProgress, GroupSubscribedToTopic, InvalidRecord,
	UnstableOffsetCommit, ThrottlingQuotaExceeded, ProducerFenced, ResourceNotFound,
	DuplicateResource, UnacceptableCredential, InconsistentVoterSet, InvalidUpdateVersion,
	FeatureUpdateFailed, PrincipalDeserializationFailure, SnapshotNotFound, PositionOutOfRange,
	UnknownTopicID, DuplicateBrokerRegistration, BrokerIDNotRegistered, InconsistentTopicID,
	InconsistentClusterID, TransactionalIDNotFound, FetchSessionTopicIDError, IneligibleReplica,
	NewLeaderElected, OffsetMovedToTieredStorage, FencedMemberEpoch, UnreleasedInstanceID,
	UnsupportedAssignor, StaleMemberEpoch, MismatchedEndpointType, UnsupportedEndpointType,
	UnknownControllerID, UnknownSubscriptionID, TelemetryTooLarge, InvalidRegistration,
	TransactionAbortable, InvalidRecordState, ShareSessionNotFound, InvalidShareSessionEpoch,
	FencedStateEpoch, InvalidVoterKey, DuplicateVoter, VoterNotFound,
	InvalidRegularExpression, RebootstrapRequired,
}
