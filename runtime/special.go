package runtime

// Kafka's special values: the numbers requests and responses use for
// "latest", "none" or "not a broker", named as Kafka's Java clients name
// them (docs/protocol.md, "Special values", says where each is used).

// Timestamps of ListOffsetsRequest's partitions that ask for an offset
// instead of looking one up by time.
const (
	// LatestTimestamp asks for the log end offset (the last stable offset
	// with ReadCommitted): where a new consumer starts with
	// auto.offset.reset=latest.
	LatestTimestamp int64 = -1
	// EarliestTimestamp asks for the log start offset.
	EarliestTimestamp int64 = -2
	// MaxTimestamp asks for the offset of the record with the largest
	// timestamp (ListOffsets v7+, KIP-734).
	MaxTimestamp int64 = -3
	// EarliestLocalTimestamp asks for the first offset in the broker's
	// local storage, with tiered storage (v8+, KIP-405).
	EarliestLocalTimestamp int64 = -4
	// LatestTieredTimestamp asks for the last offset moved to tiered
	// storage (v9+, KIP-1005).
	LatestTieredTimestamp int64 = -5
	// EarliestPendingUploadTimestamp asks for the first offset not yet
	// uploaded to tiered storage (v11+, KIP-1023).
	EarliestPendingUploadTimestamp int64 = -6
)

// ConsumerReplicaID is the ReplicaId (ReplicaID in Go) a client sends in
// ListOffsets and Fetch: it is not a broker replicating the partition.
const ConsumerReplicaID int32 = -1

// Isolation levels of Fetch and ListOffsets (their IsolationLevel field).
const (
	// ReadUncommitted sees every record, transactional ones included
	// before they commit or abort.
	ReadUncommitted int8 = 0
	// ReadCommitted sees records up to the last stable offset, and gets
	// the aborted transactions to skip.
	ReadCommitted int8 = 1
)

// Producer ids and sequences of a producer that is not idempotent (record
// batches, InitProducerId, Produce).
const (
	// NoProducerID is the producer id of a producer without one.
	NoProducerID int64 = -1
	// NoProducerEpoch is the producer epoch of a producer without an id.
	NoProducerEpoch int16 = -1
	// NoSequence is the base sequence of a batch no idempotent producer
	// numbered.
	NoSequence int32 = -1
)

// UnknownLeaderEpoch is the leader epoch a client sends when it has none to
// fence with (CurrentLeaderEpoch, LastFetchedEpoch...).
const UnknownLeaderEpoch int32 = -1

// Acks of a Produce request.
const (
	// AcksNone: the broker sends no response.
	AcksNone int16 = 0
	// AcksLeader: the leader answers once it has written the records.
	AcksLeader int16 = 1
	// AcksAll: the leader answers once every in-sync replica has them.
	AcksAll int16 = -1
)
