package kgoclient

import (
	"context"
	"fmt"
	"slices"

	"github.com/kafkagen/kafkagen/interop/internal/scenario"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// group produces the records, consumes them in a consumer group that joins,
// syncs and commits, checks the commit with OffsetFetch and the group with
// ListGroups and DescribeGroups, and leaves.
func (c client) group(ctx context.Context) (string, error) {
	const step = "group"
	topic := scenario.ClientID(Name, step)
	groupID := topic
	producer, err := c.clientWithTopics(ctx, step+"-producer", []string{topic})
	if err != nil {
		return "", err
	}
	defer producer.Close()
	want := scenario.Records(topic, c.n, true)
	if err := produce(ctx, producer, topic, want); err != nil {
		return "", err
	}

	member, err := c.newClient(step, kgo.ConsumerGroup(groupID), kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.DisableAutoCommit())
	if err != nil {
		return "", err
	}
	defer member.Close()
	got, err := poll(ctx, member, topic, len(want))
	if err != nil {
		return "", err
	}
	if err := scenario.Check(got, want, 0); err != nil {
		return "", err
	}
	if err := member.CommitUncommittedOffsets(ctx); err != nil {
		return "", fmt.Errorf("commit: %w", err)
	}
	committed, err := committedOffset(ctx, producer, groupID, topic)
	if err != nil {
		return "", err
	}
	if committed != int64(len(want)) {
		return "", fmt.Errorf("group %s committed offset %d, want %d", groupID, committed, len(want))
	}
	state, members, err := describeGroup(ctx, producer, groupID)
	if err != nil {
		return "", err
	}
	if state != "Stable" || members != 1 {
		return "", fmt.Errorf("group %s is %s with %d members, want Stable with 1", groupID, state, members)
	}
	if err := listed(ctx, producer, groupID); err != nil {
		return "", err
	}
	if err := member.LeaveGroupContext(ctx); err != nil {
		return "", fmt.Errorf("leave group: %w", err)
	}
	return fmt.Sprintf("group %s consumed %d records, committed offset %d, described Stable, left",
		groupID, len(got), committed), nil
}

// committedOffset is the group's committed offset of partition 0 of topic.
func committedOffset(ctx context.Context, cl *kgo.Client, groupID, topic string) (int64, error) {
	req := kmsg.NewPtrOffsetFetchRequest()
	req.Group = groupID
	rt := kmsg.NewOffsetFetchRequestTopic()
	rt.Topic, rt.Partitions = topic, []int32{0}
	req.Topics = append(req.Topics, rt)
	resp, err := req.RequestWith(ctx, cl)
	if err != nil {
		return 0, fmt.Errorf("offset fetch: %w", err)
	}
	if err := kerr.ErrorForCode(resp.ErrorCode); err != nil {
		return 0, fmt.Errorf("offset fetch: %w", err)
	}
	for _, t := range resp.Topics {
		for _, p := range t.Partitions {
			if err := kerr.ErrorForCode(p.ErrorCode); err != nil {
				return 0, fmt.Errorf("offset fetch %s/%d: %w", t.Topic, p.Partition, err)
			}
			if t.Topic == topic && p.Partition == 0 {
				return p.Offset, nil
			}
		}
	}
	return 0, fmt.Errorf("offset fetch: no offset for %s/0 in group %s", topic, groupID)
}

// describeGroup returns the group's state and member count.
func describeGroup(ctx context.Context, cl *kgo.Client, groupID string) (string, int, error) {
	req := kmsg.NewPtrDescribeGroupsRequest()
	req.Groups = []string{groupID}
	resp, err := req.RequestWith(ctx, cl)
	if err != nil {
		return "", 0, fmt.Errorf("describe groups: %w", err)
	}
	for _, g := range resp.Groups {
		if g.Group != groupID {
			continue
		}
		if err := kerr.ErrorForCode(g.ErrorCode); err != nil {
			return "", 0, fmt.Errorf("describe group %s: %w", groupID, err)
		}
		return g.State, len(g.Members), nil
	}
	return "", 0, fmt.Errorf("describe groups: %s missing from the answer", groupID)
}

// listed checks that ListGroups names the group.
func listed(ctx context.Context, cl *kgo.Client, groupID string) error {
	resp, err := kmsg.NewPtrListGroupsRequest().RequestWith(ctx, cl)
	if err != nil {
		return fmt.Errorf("list groups: %w", err)
	}
	if err := kerr.ErrorForCode(resp.ErrorCode); err != nil {
		return fmt.Errorf("list groups: %w", err)
	}
	if !slices.ContainsFunc(resp.Groups, func(g kmsg.ListGroupsResponseGroup) bool { return g.Group == groupID }) {
		return fmt.Errorf("list groups: %s missing from %d groups", groupID, len(resp.Groups))
	}
	return nil
}
