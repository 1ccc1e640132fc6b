package main

import (
	"math"

	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

func (b *Broker) handleMetadata(c *call, req *kafkamsg.MetadataRequest) *kafkamsg.MetadataResponse {
	resp := kafkamsg.NewMetadataResponse()
	broker := defaults[kafkamsg.MetadataResponseBroker]()
	broker.NodeID, broker.Host, broker.Port = b.cfg.NodeID, b.host, b.port
	resp.Brokers = append(resp.Brokers, broker)
	resp.ClusterID = runtime.NewNullString(clusterID)
	resp.ControllerID = b.cfg.NodeID
	// Before v4 there is no flag and Kafka always creates.
	create := c.version < 4 || req.AllowAutoTopicCreation

	b.mu.Lock()
	defer b.mu.Unlock()
	// All topics: a null list (v1+), or an empty one at v0.
	if req.Topics == nil || (c.version == 0 && len(req.Topics) == 0) {
		for _, name := range b.sortedTopicNames() {
			resp.Topics = append(resp.Topics, b.metadataTopic(b.topics[name], codeNone))
		}
		return resp
	}
	for _, rt := range req.Topics {
		switch {
		case !rt.Name.Valid: // by id (v10+)
			t := b.topicIDs[rt.TopicID]
			if t == nil {
				mt := b.metadataTopic(&topic{id: rt.TopicID}, kerrors.UnknownTopicID.Code)
				mt.Name = runtime.Null
				resp.Topics = append(resp.Topics, mt)
				continue
			}
			resp.Topics = append(resp.Topics, b.metadataTopic(t, codeNone))
		default:
			t, code := b.topicForWrite(rt.Name.Value, create)
			if t == nil {
				t = &topic{name: rt.Name.Value}
			}
			resp.Topics = append(resp.Topics, b.metadataTopic(t, code))
		}
	}
	return resp
}

// metadataTopic describes a topic: this node leads every partition, with
// leader epoch 0 and itself as the only replica.
func (b *Broker) metadataTopic(t *topic, code int16) kafkamsg.MetadataResponseTopic {
	mt := defaults[kafkamsg.MetadataResponseTopic]()
	mt.ErrorCode = code
	mt.Name = runtime.NewNullString(t.name)
	mt.TopicID = t.id
	mt.TopicAuthorizedOperations = math.MinInt32
	for i := range t.partitions {
		p := defaults[kafkamsg.MetadataResponsePartition]()
		p.PartitionIndex = int32(i)
		p.LeaderID = b.cfg.NodeID
		p.LeaderEpoch = 0
		p.ReplicaNodes = []int32{b.cfg.NodeID}
		p.IsrNodes = []int32{b.cfg.NodeID}
		p.OfflineReplicas = []int32{}
		mt.Partitions = append(mt.Partitions, p)
	}
	return mt
}

// partitionExists reports whether a topic has that partition.
func (b *Broker) partitionExists(tp topicPartition) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.topics[tp.topic].partition(tp.partition) != nil
}
