package entities

// The visits of the golden case entities, written by hand from
// EntitiesExample.json. TestGoldenCompiles (generator/golden_test.go)
// copies this file beside the want folder's files and runs it.

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/runtime"
)

// example holds a distinct value in every field of an entity type.
func example() *EntitiesExample {
	m := NewEntitiesExample()
	m.TransactionalID = runtime.NullString{Value: "tx", Valid: true}
	m.ProducerID = 7
	m.GroupID = "group"
	m.OwnerGroup = "owner"
	m.TopicNames = []string{"a", "b"}
	m.Note = "note"
	m.Topics = []EntitiesExampleTopic{
		{Name: "t1", Partitions: []EntitiesExamplePartition{{Index: 0, Leader: 11, Replicas: []int32{12, 13}}}},
		{Name: "t2"},
	}
	m.Coordinator = &EntitiesExampleEndpoint{BrokerID: 5, Host: "coordinator", Port: 95}
	m.Brokers = []EntitiesExampleEndpoint{{BrokerID: 1, Host: "h1", Port: 91}, {BrokerID: 2, Host: "h2", Port: 92}}
	m.Listeners = []EntitiesExampleListener{{NodeID: 3, Host: "l3", Port: 93}}
	return m
}

// visited lists what VisitEntities passes for t, formatted.
func visited(m *EntitiesExample, version int16, t runtime.EntityType) []string {
	var got []string
	m.VisitEntities(version, t, &runtime.EntityVisitor{
		String: func(p *string) { got = append(got, *p) },
		Int32:  func(p *int32) { got = append(got, fmt.Sprint(*p)) },
		Int64:  func(p *int64) { got = append(got, fmt.Sprint(*p)) },
	})
	return got
}

func TestVisitEntities(t *testing.T) {
	tests := []struct {
		entity   runtime.EntityType
		versions []int16
		want     []string
	}{
		{runtime.EntityTransactionalID, []int16{0}, nil},
		{runtime.EntityTransactionalID, []int16{1, 2, 3}, []string{"tx"}},
		{runtime.EntityProducerID, []int16{0, 1, 2, 3}, []string{"7"}},
		{runtime.EntityGroupID, []int16{0, 1, 2}, []string{"group", "owner"}},
		{runtime.EntityGroupID, []int16{3}, []string{"owner"}},
		{runtime.EntityTopicName, []int16{0, 1, 2, 3}, []string{"a", "b", "t1", "t2"}},
		{runtime.EntityBrokerID, []int16{0}, []string{"11", "1", "2"}},
		{runtime.EntityBrokerID, []int16{1}, []string{"11", "5", "1", "2"}},
		{runtime.EntityBrokerID, []int16{2, 3}, []string{"11", "12", "13", "5", "1", "2"}},
		{runtime.EntityUnknown, []int16{0, 1, 2, 3}, nil},
		{runtime.EntityType(42), []int16{3}, nil},
		{runtime.EntityTopicName, []int16{-1, 4}, nil},
	}
	for _, tc := range tests {
		for _, v := range tc.versions {
			assert.Equal(t, tc.want, visited(example(), v, tc.entity), "%s at v%d", tc.entity, v)
		}
	}
}

func TestVisitEntitiesSkipsNullAndNil(t *testing.T) {
	m := example()
	m.TransactionalID = runtime.NullString{}
	m.Coordinator = nil
	assert.Nil(t, visited(m, 3, runtime.EntityTransactionalID))
	assert.Equal(t, []string{"11", "12", "13", "1", "2"}, visited(m, 3, runtime.EntityBrokerID))
	// A visitor without the function of t's Go type visits nothing.
	m.VisitEntities(3, runtime.EntityTopicName, &runtime.EntityVisitor{})
	m.VisitEntities(3, runtime.EntityBrokerID, &runtime.EntityVisitor{String: func(*string) { t.Fatal("String called for brokerId") }})
}

func TestVisitEntitiesEditsInPlace(t *testing.T) {
	m := example()
	m.VisitEntities(2, runtime.EntityTopicName, &runtime.EntityVisitor{String: func(p *string) { *p = "tenant1." + *p }})
	m.VisitEntities(2, runtime.EntityBrokerID, &runtime.EntityVisitor{Int32: func(p *int32) { *p += 100 }})
	assert.Equal(t, []string{"tenant1.a", "tenant1.b"}, m.TopicNames)
	assert.Equal(t, "tenant1.t1", m.Topics[0].Name)
	assert.Equal(t, "tenant1.t2", m.Topics[1].Name)
	assert.Equal(t, "note", m.Note, "entity type unknown")
	assert.Equal(t, int32(111), m.Topics[0].Partitions[0].Leader)
	assert.Equal(t, []int32{112, 113}, m.Topics[0].Partitions[0].Replicas)
	assert.Equal(t, int32(105), m.Coordinator.BrokerID)
	assert.Equal(t, int32(101), m.Brokers[0].BrokerID)
	assert.Equal(t, int32(3), m.Listeners[0].NodeID, "NodeId without an entity type")
	assert.Equal(t, int32(0), m.Topics[0].Partitions[0].Index)
}

type address struct {
	node int32
	host string
	port int32
}

func endpoints(m *EntitiesExample, version int16) []address {
	var got []address
	m.VisitEndpoints(version, func(node int32, host *string, port *int32) {
		got = append(got, address{node, *host, *port})
	})
	return got
}

func TestVisitEndpoints(t *testing.T) {
	all := []address{{5, "coordinator", 95}, {1, "h1", 91}, {2, "h2", 92}, {3, "l3", 93}}
	tests := []struct {
		version int16
		want    []address
	}{
		{-1, nil},
		{0, []address{{1, "h1", 91}, {2, "h2", 92}}}, // no Coordinator, no Listeners[].Port
		{1, all},
		{3, all},
		{4, nil},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, endpoints(example(), tc.version), "v%d", tc.version)
	}

	m := example()
	m.VisitEndpoints(2, func(node int32, host *string, port *int32) {
		*host = fmt.Sprintf("proxy-%d", node)
		*port = 9000 + node
	})
	assert.Equal(t, address{5, "proxy-5", 9005}, address{m.Coordinator.BrokerID, m.Coordinator.Host, m.Coordinator.Port})
	assert.Equal(t, address{2, "proxy-2", 9002}, address{m.Brokers[1].BrokerID, m.Brokers[1].Host, m.Brokers[1].Port})
	assert.Equal(t, address{3, "proxy-3", 9003}, address{m.Listeners[0].NodeID, m.Listeners[0].Host, m.Listeners[0].Port})
}

// TestVisitorsAllocateNothing: visiting with a prebuilt visitor allocates
// nothing.
func TestVisitorsAllocateNothing(t *testing.T) {
	m := example()
	n := 0
	v := &runtime.EntityVisitor{String: func(*string) { n++ }, Int32: func(*int32) { n++ }}
	fn := func(int32, *string, *int32) { n++ }
	allocs := testing.AllocsPerRun(100, func() {
		m.VisitEntities(3, runtime.EntityTopicName, v)
		m.VisitEntities(3, runtime.EntityBrokerID, v)
		m.VisitEndpoints(3, fn)
	})
	require.Zero(t, allocs)
	require.Equal(t, 101*(4+6+4), n)
}
