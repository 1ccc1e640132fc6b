package main

import (
	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

func (b *Broker) handleOffsetCommit(c *call, req *kafkamsg.OffsetCommitRequest) *kafkamsg.OffsetCommitResponse {
	var parts []topicPartition
	var offsets []committedOffset
	byID := c.version >= 10 // topics named by id (KIP-848)
	for _, t := range req.Topics {
		name := t.Name
		if byID {
			// An unknown id matches no topic: commitKnown answers it.
			name, _ = b.topicNameByID(t.TopicID)
		}
		for _, p := range t.Partitions {
			parts = append(parts, topicPartition{name, p.PartitionIndex})
			offsets = append(offsets, committedOffset{offset: p.CommittedOffset, leaderEpoch: p.CommittedLeaderEpoch, metadata: p.CommittedMetadata})
		}
	}
	// v0 has no generation: it is a storage-only commit.
	owner := offsetOwner{groupID: req.GroupID, memberID: req.MemberID, generation: req.GenerationIDOrMemberEpoch}
	codes := b.commitKnown(parts, offsets, func(known []topicPartition, offsets []committedOffset) []int16 {
		return b.groups.commit(owner, known, offsets)
	})
	resp := kafkamsg.NewOffsetCommitResponse()
	i := 0
	for _, t := range req.Topics {
		rt := kafkamsg.OffsetCommitResponseTopic{Name: t.Name, TopicID: t.TopicID}
		for _, p := range t.Partitions {
			code := codes[i]
			if byID && code == kerrors.UnknownTopicOrPartition.Code && parts[i].topic == "" {
				code = kerrors.UnknownTopicID.Code
			}
			rt.Partitions = append(rt.Partitions, kafkamsg.OffsetCommitResponsePartition{PartitionIndex: p.PartitionIndex, ErrorCode: code})
			i++
		}
		resp.Topics = append(resp.Topics, rt)
	}
	return resp
}

// commitKnown runs commit for the partitions that exist, with their offsets,
// and answers UNKNOWN_TOPIC_OR_PARTITION for the others, as Kafka's
// OffsetCommit does. It returns a code per partition of parts.
func (b *Broker) commitKnown(parts []topicPartition, offsets []committedOffset, commit func(known []topicPartition, offsets []committedOffset) []int16) []int16 {
	codes := make([]int16, len(parts))
	var known []topicPartition
	var knownOffsets []committedOffset
	var at []int
	for i, tp := range parts {
		if b.partitionExists(tp) {
			known, knownOffsets, at = append(known, tp), append(knownOffsets, offsets[i]), append(at, i)
		} else {
			codes[i] = kerrors.UnknownTopicOrPartition.Code
		}
	}
	if len(known) > 0 {
		for i, code := range commit(known, knownOffsets) {
			codes[at[i]] = code
		}
	}
	return codes
}

func (b *Broker) handleOffsetFetch(c *call, req *kafkamsg.OffsetFetchRequest) *kafkamsg.OffsetFetchResponse {
	resp := kafkamsg.NewOffsetFetchResponse()
	if c.version >= 8 {
		for _, g := range req.Groups {
			var parts []topicPartition
			rg := defaults[kafkamsg.OffsetFetchResponseGroup]()
			rg.GroupID = g.GroupID
			if g.Topics != nil {
				parts = []topicPartition{}
				for _, t := range g.Topics {
					name, known := t.Name, true
					if c.version >= 10 { // topics named by id (KIP-848)
						name, known = b.topicNameByID(t.TopicID)
					}
					if !known {
						rg.Topics = append(rg.Topics, unknownTopicIDOffsets(t.TopicID, t.PartitionIndexes))
						continue
					}
					for _, p := range t.PartitionIndexes {
						parts = append(parts, topicPartition{name, p})
					}
				}
			}
			lastTopic := "" // fetchOffsets groups partitions by topic
			for _, f := range b.groups.fetchOffsets(g.GroupID, parts, req.RequireStable) {
				if len(rg.Topics) == 0 || lastTopic != f.topic {
					rt := kafkamsg.OffsetFetchResponseTopics{Name: f.topic}
					if c.version >= 10 {
						rt.Name, rt.TopicID = "", b.topicIDByName(f.topic)
					}
					rg.Topics, lastTopic = append(rg.Topics, rt), f.topic
				}
				last := &rg.Topics[len(rg.Topics)-1]
				last.Partitions = append(last.Partitions, kafkamsg.OffsetFetchResponsePartitions{
					PartitionIndex: f.partition, CommittedOffset: f.offset, CommittedLeaderEpoch: f.leaderEpoch,
					Metadata: fetchedMetadata(f), ErrorCode: f.errorCode,
				})
			}
			resp.Groups = append(resp.Groups, rg)
		}
		return resp
	}
	var parts []topicPartition
	if req.Topics != nil {
		parts = []topicPartition{}
		for _, t := range req.Topics {
			for _, p := range t.PartitionIndexes {
				parts = append(parts, topicPartition{t.Name, p})
			}
		}
	}
	for _, f := range b.groups.fetchOffsets(req.GroupID, parts, req.RequireStable) {
		if n := len(resp.Topics); n == 0 || resp.Topics[n-1].Name != f.topic {
			resp.Topics = append(resp.Topics, kafkamsg.OffsetFetchResponseTopic{Name: f.topic})
		}
		last := &resp.Topics[len(resp.Topics)-1]
		p := defaults[kafkamsg.OffsetFetchResponsePartition]()
		p.PartitionIndex, p.CommittedOffset = f.partition, f.offset
		p.Metadata, p.ErrorCode = fetchedMetadata(f), f.errorCode
		if c.version >= 5 {
			p.CommittedLeaderEpoch = f.leaderEpoch
		}
		last.Partitions = append(last.Partitions, p)
	}
	return resp
}

// unknownTopicIDOffsets answers OffsetFetch v10+ for an id that names no
// topic: UNKNOWN_TOPIC_ID for each partition asked, as Kafka does.
func unknownTopicIDOffsets(id runtime.UUID, partitions []int32) kafkamsg.OffsetFetchResponseTopics {
	rt := kafkamsg.OffsetFetchResponseTopics{TopicID: id}
	for _, p := range partitions {
		rp := defaults[kafkamsg.OffsetFetchResponsePartitions]()
		rp.PartitionIndex, rp.CommittedOffset, rp.ErrorCode = p, -1, kerrors.UnknownTopicID.Code
		rp.Metadata = runtime.NewNullString("")
		rt.Partitions = append(rt.Partitions, rp)
	}
	return rt
}

// topicIDByName is the id of the topic named name (zero when it is gone).
func (b *Broker) topicIDByName(name string) runtime.UUID {
	b.mu.Lock()
	defer b.mu.Unlock()
	if t := b.topics[name]; t != nil {
		return t.id
	}
	return runtime.UUID{}
}

// fetchedMetadata is the metadata OffsetFetch returns: "" when there is no
// commit, as Kafka answers.
func fetchedMetadata(f fetchedOffset) runtime.NullString {
	if f.offset < 0 && !f.metadata.Valid {
		return runtime.NewNullString("")
	}
	return f.metadata
}
