package codec

import "github.com/kafkagen/kafkagen/generator/schema"

// topicIDKind is the entity the visitors derive, as Kafka's specs give
// topic ids (KIP-516) no entityType: fields schema.IsTopicID marks are
// visited as runtime.EntityTopicID, with runtime.EntityVisitor.UUID. A
// spec that one day marks a field "topicId" itself is visited too.
var topicIDKind = entityKind{"topicId", "EntityTopicID", "UUID", schema.KindUUID}
