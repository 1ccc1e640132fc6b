package codec

import (
	"strings"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// dataPathAPIs are the APIs of producing, consuming, committing and the
// group and transaction rounds around them, whose arrays (partitions,
// topics, members) grow with the traffic: their encode and decode are
// printed, and the code of their array elements takes the runtime's inlined
// fast paths. The other APIs are most of a client package's code, answered
// once per admin request: they encode and decode through tables
// (tables.go), or, where a spec has what the tables do not know, through
// printed methods whose element decode calls out of line, as a message's
// own fields do (calls.go). Printed, their codec was a third of the
// package's compile time (docs/benchmarks.md, "Tables for the APIs off the
// data path").
var dataPathAPIs = map[string]bool{
	"Produce": true, "Fetch": true, "ListOffsets": true, "Metadata": true,
	"OffsetCommit": true, "OffsetFetch": true, "FindCoordinator": true,
	"JoinGroup": true, "Heartbeat": true, "LeaveGroup": true, "SyncGroup": true,
	"ApiVersions": true, "InitProducerId": true, "AddPartitionsToTxn": true,
	"AddOffsetsToTxn": true, "EndTxn": true, "TxnOffsetCommit": true,
	"ConsumerGroupHeartbeat": true, "ShareGroupHeartbeat": true,
	"ShareFetch": true, "ShareAcknowledge": true,
}

// FastPaths reports whether spec's codec is printed with the inlined fast
// paths: for the requests and responses of dataPathAPIs, and for every spec
// that is no request or response (headers, records of the metadata log and
// of the coordinators, which are read in bulk).
func FastPaths(spec *schema.Spec) bool {
	switch spec.Type {
	case schema.TypeRequest:
		return dataPathAPIs[strings.TrimSuffix(spec.Name, "Request")]
	case schema.TypeResponse:
		return dataPathAPIs[strings.TrimSuffix(spec.Name, "Response")]
	}
	return true
}
