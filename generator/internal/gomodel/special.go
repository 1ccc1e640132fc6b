package gomodel

import (
	"strings"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// specialField is a field by spec, struct (the spec's name for its root)
// and field name.
type specialField struct{ spec, owner, field string }

// specialValues names, for the request fields that take one of Kafka's
// special values, the runtime constants that name them (runtime/special.go;
// docs/protocol.md, "Special values"). Their field docs list them, so that
// a client finds -1 for ReplicaId where it sets the field: ListOffsets'
// ReplicaId has no spec default, and New's 0 is a broker's id.
var specialValues = map[specialField][]string{
	{"ListOffsetsRequest", "ListOffsetsRequest", "ReplicaId"}:      {"ConsumerReplicaID"},
	{"ListOffsetsRequest", "ListOffsetsRequest", "IsolationLevel"}: {"ReadUncommitted", "ReadCommitted"},
	{"ListOffsetsRequest", "ListOffsetsPartition", "Timestamp"}: {"LatestTimestamp", "EarliestTimestamp",
		"MaxTimestamp", "EarliestLocalTimestamp", "LatestTieredTimestamp", "EarliestPendingUploadTimestamp"},
	{"FetchRequest", "FetchRequest", "ReplicaId"}:      {"ConsumerReplicaID"},
	{"FetchRequest", "ReplicaState", "ReplicaId"}:      {"ConsumerReplicaID"},
	{"FetchRequest", "FetchRequest", "IsolationLevel"}: {"ReadUncommitted", "ReadCommitted"},
	{"ProduceRequest", "ProduceRequest", "Acks"}:       {"AcksNone", "AcksLeader", "AcksAll"},
}

// specialValuesOf is "runtime.A, runtime.B" for a field of specialValues,
// else "".
func specialValuesOf(spec string, f *schema.Field) string {
	names := specialValues[specialField{spec, f.Owner.Name, f.Name}]
	if len(names) == 0 {
		return ""
	}
	return "runtime." + strings.Join(names, ", runtime.")
}
