package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// topic is a topic's name, id and partitions.
type topic struct {
	name       string
	id         runtime.UUID
	partitions []*partitionLog
}

// maxTopicNameLen is Kafka's limit (Topic.MAX_NAME_LENGTH).
const maxTopicNameLen = 249

// validTopicName reports why name cannot be a topic, or "" when it can:
// Kafka's rules (Topic.validate).
func validTopicName(name string) string {
	switch {
	case name == "":
		return "topic name is empty"
	case name == "." || name == "..":
		return fmt.Sprintf("topic name %q is illegal", name)
	case len(name) > maxTopicNameLen:
		return fmt.Sprintf("topic name is %d characters long, over the maximum of %d", len(name), maxTopicNameLen)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return fmt.Sprintf("topic name %q has the illegal character %q at %d (legal: ASCII letters, digits, '.', '_', '-')", name, c, i)
		}
	}
	return ""
}

// checkNewTopic says whether a topic could be created with partitions (-1:
// the broker's default), returning the partitions it would get, or an error
// code and message. b.mu must be held.
func (b *Broker) checkNewTopic(name string, partitions int32) (int32, int16, string) {
	if why := validTopicName(name); why != "" {
		return 0, kerrors.InvalidTopicException.Code, why
	}
	if _, ok := b.topics[name]; ok {
		return 0, kerrors.TopicAlreadyExists.Code, fmt.Sprintf("topic %q already exists", name)
	}
	if partitions == -1 {
		partitions = b.cfg.Partitions
	}
	if partitions < 1 {
		return 0, kerrors.InvalidPartitions.Code, fmt.Sprintf("number of partitions must be at least 1, got %d", partitions)
	}
	return partitions, codeNone, ""
}

// createTopic adds a topic. b.mu must be held. It returns an error code and
// message when the topic cannot be created.
func (b *Broker) createTopic(name string, partitions int32) (*topic, int16, string) {
	partitions, code, msg := b.checkNewTopic(name, partitions)
	if code != codeNone {
		return nil, code, msg
	}
	name = strings.Clone(name) // it may point into a Produce's frame (aliased)
	t := &topic{name: name, id: newUUID(), partitions: make([]*partitionLog, partitions)}
	for i := range t.partitions {
		t.partitions[i] = newPartitionLog()
	}
	b.topics[name] = t
	b.topicIDs[t.id] = t
	if b.cfg.DataDir != "" {
		if err := b.createTopicFiles(t); err != nil {
			b.deleteTopic(t)
			return nil, kerrors.KafkaStorageError.Code, fmt.Sprintf("creating topic %q: %v", name, err)
		}
	}
	b.cfg.Logger.Printf("created topic %s (%d partitions, id %s)", name, partitions, t.id)
	return t, codeNone, ""
}

// topicForWrite finds a topic, creating it when allowed. b.mu must be held.
func (b *Broker) topicForWrite(name string, create bool) (*topic, int16) {
	if t := b.topics[name]; t != nil {
		return t, codeNone
	}
	if !create || !b.cfg.AutoCreate {
		return nil, kerrors.UnknownTopicOrPartition.Code
	}
	t, code, _ := b.createTopic(name, -1)
	return t, code
}

// deleteTopic removes a topic. b.mu must be held.
func (b *Broker) deleteTopic(t *topic) {
	delete(b.topics, t.name)
	delete(b.topicIDs, t.id)
	if b.cfg.DataDir != "" {
		if err := b.removeTopicFiles(t); err != nil {
			b.cfg.Logger.Printf("deleting topic %s from the data folder: %v", t.name, err)
		}
	}
	b.cfg.Logger.Printf("deleted topic %s", t.name)
}

// partition returns a topic's partition, or nil when out of range.
func (t *topic) partition(index int32) *partitionLog {
	if t == nil || index < 0 || int(index) >= len(t.partitions) {
		return nil
	}
	return t.partitions[index]
}

// sortedTopicNames lists the topics by name. b.mu must be held.
func (b *Broker) sortedTopicNames() []string {
	names := make([]string, 0, len(b.topics))
	for name := range b.topics {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
