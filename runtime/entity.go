package runtime

import "strconv"

// For users: visiting the fields of a message by what they name, for code
// that edits messages it does not know the types of (a proxy renaming
// topics, a tool rewriting broker addresses).

// EntityType is what a field names, as a spec's "entityType" marks it.
type EntityType int8

// The entity types of Kafka's specs.
const (
	EntityUnknown         EntityType = iota // no entity type
	EntityTransactionalID                   // "transactionalId": strings
	EntityProducerID                        // "producerId": int64
	EntityGroupID                           // "groupId": strings
	EntityTopicName                         // "topicName": strings
	EntityBrokerID                          // "brokerId": int32
	// EntityTopicID is a topic's id (KIP-516): uuid fields, which the specs
	// leave without an entity type. kafkagen marks as such every uuid field
	// (or uuid array) whose name ends in "TopicId", ignoring case, and any
	// a future spec marks "topicId" itself (docs/protocol.md, "Topic ids").
	EntityTopicID // "topicId" (derived): UUID
)

var entityNames = [...]string{"unknown", "transactionalId", "producerId", "groupId", "topicName", "brokerId", "topicId"}

// String is the spec's name of t ("topicName").
func (t EntityType) String() string {
	if t < 0 || int(t) >= len(entityNames) {
		return "EntityType(" + strconv.Itoa(int(t)) + ")"
	}
	return entityNames[t]
}

// EntityVisitor receives pointers to the fields a VisitEntities call
// visits; a nil function skips the fields of its Go type. Values may be
// changed through the pointers.
type EntityVisitor struct {
	// String receives string fields and elements of string arrays, and the
	// Value of nullable strings that are not null (null ones are skipped).
	String func(p *string)
	// Int32 receives int32 fields and elements (brokerId).
	Int32 func(p *int32)
	// Int64 receives int64 fields and elements (producerId).
	Int64 func(p *int64)
	// UUID receives uuid fields and elements (topicId).
	UUID func(p *UUID)
}

// Entities is implemented by every generated top-level message.
type Entities interface {
	// VisitEntities calls v for every field of entity type t that the
	// message has at version, in nested structs and arrays too, in
	// declaration order. Fields absent at version are not visited.
	VisitEntities(version int16, t EntityType, v *EntityVisitor)
}

// Endpoints is implemented by every generated top-level message; messages
// that carry no broker address visit nothing.
type Endpoints interface {
	// VisitEndpoints calls fn for every broker address the message holds
	// at version: each struct (the message itself included) with a string
	// Host and an int32 Port beside the node's int32 id (a field of entity
	// type brokerId, or named NodeId or BrokerId). Host and port may be
	// changed through the pointers.
	VisitEndpoints(version int16, fn func(nodeID int32, host *string, port *int32))
}
