package generated_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/runtime"
)

// visits lists, formatted, what m's VisitEntities passes for t at version.
func visits(m runtime.Entities, version int16, t runtime.EntityType) []string {
	var got []string
	m.VisitEntities(version, t, &runtime.EntityVisitor{
		String: func(p *string) { got = append(got, *p) },
		Int32:  func(p *int32) { got = append(got, fmt.Sprint(*p)) },
		Int64:  func(p *int64) { got = append(got, fmt.Sprint(*p)) },
	})
	return got
}

func leaderAndIsr() *generated.LeaderAndIsrRequest {
	m := generated.NewLeaderAndIsrRequest()
	m.ControllerID = 1
	m.ControllerEpoch = 9
	m.PartitionStates = []generated.LeaderAndIsrRequestLeaderAndIsrPartitionState{
		{TopicName: "orders", PartitionIndex: 0, Leader: 2, Isr: []int32{2, 3}, Replicas: []int32{2, 3, 4}},
		{TopicName: "payments", PartitionIndex: 1, Leader: 3, Isr: []int32{3}, Replicas: []int32{3, 4}},
	}
	return m
}

func partitionChange() *generated.PartitionChangeRecord {
	m := generated.NewPartitionChangeRecord()
	m.PartitionID = 7
	m.Isr = []int32{1, 2}
	m.Leader = 1
	m.Replicas = []int32{1, 2, 3}
	m.RemovingReplicas = []int32{3}
	m.AddingReplicas = []int32{4}
	return m
}

// TestVisitEntities checks the visits of messages of schemas/, expected
// values written by hand from their specs, in declaration order.
func TestVisitEntities(t *testing.T) {
	heartbeat := generated.NewBrokerHeartbeatResponse()
	heartbeat.ActiveControllerID = 5
	stop := generated.NewStopReplicaRequest()
	stop.ControllerID = 4
	stop.Partitions = []generated.StopReplicaRequestStopReplicaPartition{{TopicName: "a"}, {TopicName: "b"}}
	tests := []struct {
		name   string
		msg    runtime.Entities
		entity runtime.EntityType
		want   []string
	}{
		{"LeaderAndIsr topics", leaderAndIsr(), runtime.EntityTopicName, []string{"orders", "payments"}},
		{"LeaderAndIsr brokers", leaderAndIsr(), runtime.EntityBrokerID, []string{"1", "2", "2", "3", "2", "3", "4", "3", "3", "3", "4"}},
		{"LeaderAndIsr groups", leaderAndIsr(), runtime.EntityGroupID, nil},
		{"PartitionChangeRecord brokers", partitionChange(), runtime.EntityBrokerID, []string{"1", "2", "1", "1", "2", "3", "3", "4"}},
		{"BrokerHeartbeatResponse brokers", heartbeat, runtime.EntityBrokerID, []string{"5"}},
		{"StopReplica topics", stop, runtime.EntityTopicName, []string{"a", "b"}},
		{"StopReplica brokers", stop, runtime.EntityBrokerID, []string{"4"}},
		{"StopReplica producers", stop, runtime.EntityProducerID, nil},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, visits(tc.msg, 0, tc.entity), tc.name)
		assert.Nil(t, visits(tc.msg, 1, tc.entity), "%s: version 1 is not valid", tc.name)
	}
}

// TestVisitEntitiesRenames renames every topic and broker of a message in
// place and checks the fields, then that the encoding carries the new names.
func TestVisitEntitiesRenames(t *testing.T) {
	m := leaderAndIsr()
	m.VisitEntities(0, runtime.EntityTopicName, &runtime.EntityVisitor{String: func(p *string) { *p = "tenant1." + *p }})
	m.VisitEntities(0, runtime.EntityBrokerID, &runtime.EntityVisitor{Int32: func(p *int32) { *p *= 10 }})
	require.Equal(t, int32(10), m.ControllerID)
	require.Equal(t, int32(9), m.ControllerEpoch, "not a broker id")
	require.Equal(t, "tenant1.orders", m.PartitionStates[0].TopicName)
	require.Equal(t, []int32{30, 40}, m.PartitionStates[1].Replicas)

	b, err := m.AppendTo(nil, 0)
	require.NoError(t, err)
	back := generated.NewLeaderAndIsrRequest()
	_, err = back.Decode(b, 0)
	require.NoError(t, err)
	assert.Equal(t, []string{"tenant1.orders", "tenant1.payments"}, visits(back, 0, runtime.EntityTopicName))
	assert.Equal(t, m, back)
}

// TestEveryMessageIsVisitable: every message of the registry implements
// runtime.Entities and runtime.Endpoints. schemas/ has no broker address
// (no struct with Host and Port), so no VisitEndpoints calls fn.
func TestEveryMessageIsVisitable(t *testing.T) {
	for _, name := range generated.SpecNames() {
		m := generated.NewByName(name)
		_, ok := m.(runtime.Entities)
		assert.True(t, ok, "%s implements runtime.Entities", name)
		ep, ok := m.(runtime.Endpoints)
		if assert.True(t, ok, "%s implements runtime.Endpoints", name) {
			ep.VisitEndpoints(0, func(int32, *string, *int32) { t.Errorf("%s visited an endpoint", name) })
		}
	}
}

// TestVisitAllocations: visiting with a prebuilt visitor allocates nothing.
func TestVisitAllocations(t *testing.T) {
	var mirrors runtime.Entities
	for _, c := range allocCases() {
		if c.name == "DescribeMirrorsResponse" {
			mirrors = c.msg.(runtime.Entities)
		}
	}
	require.NotNil(t, mirrors)
	lai := leaderAndIsr()
	n := 0
	v := &runtime.EntityVisitor{String: func(p *string) { n += len(*p) }, Int32: func(p *int32) { n++ }}
	allocs := testing.AllocsPerRun(100, func() {
		mirrors.VisitEntities(0, runtime.EntityTopicName, v)
		lai.VisitEntities(0, runtime.EntityBrokerID, v)
	})
	require.Zero(t, allocs)
	require.Positive(t, n)
}
