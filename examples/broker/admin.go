package main

import (
	"fmt"
	"slices"

	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

func (b *Broker) handleCreateTopics(c *call, req *kafkamsg.CreateTopicsRequest) *kafkamsg.CreateTopicsResponse {
	resp := kafkamsg.NewCreateTopicsResponse()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, rt := range req.Topics {
		res := defaults[kafkamsg.CreateTopicsResponseCreatableTopicResult]()
		res.Name = rt.Name
		partitions := rt.NumPartitions
		if len(rt.Assignments) > 0 {
			partitions = int32(len(rt.Assignments))
		}
		var code int16
		var msg string
		switch {
		case rt.ReplicationFactor != -1 && rt.ReplicationFactor != 1 && len(rt.Assignments) == 0:
			code, msg = kerrors.InvalidReplicationFactor.Code, fmt.Sprintf("replication factor %d is larger than the 1 available broker", rt.ReplicationFactor)
		case req.ValidateOnly:
			partitions, code, msg = b.checkNewTopic(rt.Name, partitions)
		default:
			var t *topic
			t, code, msg = b.createTopic(rt.Name, partitions)
			if t != nil {
				res.TopicID = t.id
				partitions = int32(len(t.partitions))
			}
		}
		res.ErrorCode = code
		if code != codeNone {
			res.ErrorMessage = runtime.NewNullString(msg)
		} else if c.version >= 5 {
			res.NumPartitions, res.ReplicationFactor = partitions, 1
			res.Configs = []kafkamsg.CreateTopicsResponseCreatableTopicConfigs{}
		}
		if c.version < 1 {
			res.ErrorMessage = runtime.Null // v0 has no message
		}
		resp.Topics = append(resp.Topics, res)
	}
	return resp
}

func (b *Broker) handleDeleteTopics(c *call, req *kafkamsg.DeleteTopicsRequest) *kafkamsg.DeleteTopicsResponse {
	resp := kafkamsg.NewDeleteTopicsResponse()
	b.mu.Lock()
	defer b.mu.Unlock()
	// v0-5 name topics in TopicNames, v6 in Topics (by name or id).
	targets := slices.Clone(req.Topics)
	for _, name := range req.TopicNames {
		targets = append(targets, kafkamsg.DeleteTopicsRequestDeleteTopicState{Name: runtime.NewNullString(name)})
	}
	for _, rt := range targets {
		res := defaults[kafkamsg.DeleteTopicsResponseDeletableTopicResult]()
		var t *topic
		if rt.Name.Valid {
			t = b.topics[rt.Name.Value]
			res.Name = rt.Name
		} else {
			t = b.topicIDs[rt.TopicID]
			res.Name = runtime.Null
		}
		res.TopicID = rt.TopicID
		switch {
		case t == nil && rt.Name.Valid:
			res.ErrorCode = kerrors.UnknownTopicOrPartition.Code
		case t == nil:
			res.ErrorCode = kerrors.UnknownTopicID.Code
		default:
			res.Name, res.TopicID = runtime.NewNullString(t.name), t.id
			b.deleteTopic(t)
		}
		if c.version < 6 {
			res.TopicID = runtime.UUID{} // the field exists from v6
		}
		resp.Responses = append(resp.Responses, res)
	}
	b.notifyAppend() // waiting fetches of deleted topics answer at once
	return resp
}
