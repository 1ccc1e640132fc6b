package codec

import (
	"strings"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// dataPathAPIs are the APIs of producing, consuming, committing and the
// group and transaction rounds around them, whose arrays (partitions,
// topics, members) grow with the traffic: the decode code of their array
// elements takes the runtime's inlined fast paths. Every other API's
// element decode calls out of line, as a message's own fields do
// (calls.go): those APIs are most of a client package's code, answered once
// per admin request, and their inlined decode cost more compile time than
// it saved decoding (docs/benchmarks.md, "Issue 26"). Encode code keeps
// its fast paths everywhere: out of line, it was no faster than kmsg's.
var dataPathAPIs = map[string]bool{
	"Produce": true, "Fetch": true, "ListOffsets": true, "Metadata": true,
	"OffsetCommit": true, "OffsetFetch": true, "FindCoordinator": true,
	"JoinGroup": true, "Heartbeat": true, "LeaveGroup": true, "SyncGroup": true,
	"ApiVersions": true, "InitProducerId": true, "AddPartitionsToTxn": true,
	"AddOffsetsToTxn": true, "EndTxn": true, "TxnOffsetCommit": true,
	"ConsumerGroupHeartbeat": true, "ShareGroupHeartbeat": true,
	"ShareFetch": true, "ShareAcknowledge": true,
}

// FastPaths reports whether the decode code of spec's array elements takes
// the inlined fast paths: for the requests and responses of dataPathAPIs, and
// for every spec that is no request or response (headers, records of the
// metadata log and of the coordinators, which are read in bulk).
func FastPaths(spec *schema.Spec) bool {
	switch spec.Type {
	case schema.TypeRequest:
		return dataPathAPIs[strings.TrimSuffix(spec.Name, "Request")]
	case schema.TypeResponse:
		return dataPathAPIs[strings.TrimSuffix(spec.Name, "Response")]
	}
	return true
}
