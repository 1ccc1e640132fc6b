package schema

import "strings"

// IsTopicID reports whether f holds topic ids (KIP-516), which Kafka's
// specs give no entityType: a uuid (or uuid array) without an entity type
// of its own whose name ends in "TopicId", ignoring case. Every uuid field
// of the 4.0 to 4.2 specs so named holds a topic's id, and the others
// (directory, incarnation, client instance and process ids) do not end so.
// The corpus test TestTopicIDFieldsPinned (conformance) lists every uuid
// field with what this rule says of it, so that a release adding one
// fails it until someone reviews the field. docs/protocol.md, "Topic ids".
func IsTopicID(f *Field) bool {
	return f.Type.Kind == KindUUID && f.EntityType == "" && strings.HasSuffix(strings.ToLower(f.Name), "topicid")
}
