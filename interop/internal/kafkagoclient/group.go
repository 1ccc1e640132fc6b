package kafkagoclient

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/kafkagen/kafkagen/interop/internal/scenario"
	"github.com/segmentio/kafka-go"
)

// group produces the records, reads them with a group Reader (join, sync,
// heartbeats), commits them synchronously, checks the commit, ListGroups and
// DescribeGroups, and closes the Reader (leave).
func (c client) group(ctx context.Context) (string, error) {
	const step = "group"
	topic := scenario.ClientID(Name, step)
	groupID := topic
	if err := c.createTopic(ctx, step+"-admin", topic); err != nil {
		return "", err
	}
	want := scenario.Records(topic, c.n, true)
	if err := c.produce(ctx, step+"-producer", topic, 0, want); err != nil {
		return "", err
	}
	r := kafka.NewReader(kafka.ReaderConfig{
		Brokers:           []string{c.broker},
		GroupID:           groupID,
		Topic:             topic,
		Dialer:            c.dialer(step),
		MaxWait:           200 * time.Millisecond,
		StartOffset:       kafka.FirstOffset,
		HeartbeatInterval: time.Second,
		SessionTimeout:    10 * time.Second,
		RebalanceTimeout:  10 * time.Second,
		JoinGroupBackoff:  200 * time.Millisecond,
	})
	defer r.Close()
	var msgs []kafka.Message
	got, err := read(ctx, func(ctx context.Context) (kafka.Message, error) {
		m, err := r.FetchMessage(ctx)
		msgs = append(msgs, m)
		return m, err
	}, len(want))
	if err != nil {
		return "", fmt.Errorf("group %s: %w", groupID, err)
	}
	if err := scenario.Check(got, want, 0); err != nil {
		return "", err
	}
	if err := r.CommitMessages(ctx, msgs...); err != nil {
		return "", fmt.Errorf("group %s: commit: %w", groupID, err)
	}
	if err := c.checkGroup(ctx, groupID, topic, int64(len(want))); err != nil {
		return "", err
	}
	if err := r.Close(); err != nil {
		return "", fmt.Errorf("group %s: close: %w", groupID, err)
	}
	return fmt.Sprintf("group %s consumed %d records, committed offset %d, described Stable, left",
		groupID, len(want), len(want)), nil
}

// checkGroup asks for the committed offset, the group's description and the
// group listing.
func (c client) checkGroup(ctx context.Context, groupID, topic string, offset int64) error {
	admin := c.adminClient("group-admin")
	offsets, err := admin.OffsetFetch(ctx, &kafka.OffsetFetchRequest{GroupID: groupID, Topics: map[string][]int{topic: {0}}})
	if err != nil {
		return fmt.Errorf("offset fetch: %w", err)
	}
	if offsets.Error != nil {
		return fmt.Errorf("offset fetch: %w", offsets.Error)
	}
	parts := offsets.Topics[topic]
	if len(parts) != 1 || parts[0].Error != nil || parts[0].CommittedOffset != offset {
		return fmt.Errorf("group %s committed %+v for %s, want offset %d", groupID, parts, topic, offset)
	}
	desc, err := admin.DescribeGroups(ctx, &kafka.DescribeGroupsRequest{GroupIDs: []string{groupID}})
	if err != nil {
		return fmt.Errorf("describe groups: %w", err)
	}
	if len(desc.Groups) != 1 || desc.Groups[0].Error != nil || desc.Groups[0].GroupState != "Stable" || len(desc.Groups[0].Members) != 1 {
		return fmt.Errorf("describe groups %s: %+v, want one Stable group with one member", groupID, desc.Groups)
	}
	list, err := admin.ListGroups(ctx, &kafka.ListGroupsRequest{})
	if err != nil {
		return fmt.Errorf("list groups: %w", err)
	}
	if list.Error != nil {
		return fmt.Errorf("list groups: %w", list.Error)
	}
	if !slices.ContainsFunc(list.Groups, func(g kafka.ListGroupsResponseGroup) bool { return g.GroupID == groupID }) {
		return fmt.Errorf("list groups: %s missing from %+v", groupID, list.Groups)
	}
	return nil
}
