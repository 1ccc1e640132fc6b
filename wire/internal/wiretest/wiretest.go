// Package wiretest holds the fixtures the tests of wire and wire/frames
// share.
package wiretest

import (
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generated"
)

// StopReplica is the request body the tests frame: a StopReplica request
// of one partition, orders-2.
func StopReplica() *generated.StopReplicaRequest {
	req := generated.NewStopReplicaRequest()
	req.ControllerID, req.ControllerEpoch, req.AckTimeoutMs = 1, 7, 3000
	req.Partitions = []generated.StopReplicaRequestStopReplicaPartition{
		{TopicName: "orders", PartitionIndex: 2, DeletePartition: true},
	}
	return req
}

// Unhex decodes a hex string of a test's bytes.
func Unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	require.NoError(t, err)
	return b
}
