package saramaclient

import (
	"context"
	"fmt"
	"sync"

	"github.com/IBM/sarama"
	"github.com/kafkagen/kafkagen/interop/internal/scenario"
)

// group produces the records, consumes them in a consumer group (join, sync,
// heartbeats, commit), checks the committed offset, ListGroups and
// DescribeGroups while the member is in, then closes the group (leave).
func (c client) group(ctx context.Context, p protocol, step string) (string, error) {
	topic := scenario.ClientID(Name, step)
	groupID := topic
	if err := c.createTopic(topic); err != nil {
		return "", err
	}
	want := scenario.Records(topic, c.n, p.headers)
	if err := produce(c.config(p, step+"-producer"), c.broker, topic, want); err != nil {
		return "", err
	}

	cfg := c.config(p, step)
	cfg.Consumer.Offsets.AutoCommit.Enable = false
	group, err := sarama.NewConsumerGroup([]string{c.broker}, groupID, cfg)
	if err != nil {
		return "", fmt.Errorf("consumer group: %w", err)
	}
	defer group.Close()
	h := &collector{n: len(want), done: make(chan struct{})}
	consumeCtx, stop := context.WithCancel(ctx)
	consumed := make(chan error, 1)
	go func() {
		var err error
		for consumeCtx.Err() == nil && err == nil {
			err = group.Consume(consumeCtx, []string{topic}, h)
		}
		consumed <- err
	}()
	select {
	case <-h.done:
	case err := <-consumed:
		stop()
		return "", fmt.Errorf("group %s: consume: %w", groupID, err)
	case <-ctx.Done():
		stop()
		return "", fmt.Errorf("group %s: %d of %d records before %w", groupID, len(h.records()), len(want), ctx.Err())
	}
	checkErr := c.checkGroup(cfg, groupID, topic, h.records(), want)
	stop()
	if err := <-consumed; err != nil && checkErr == nil {
		checkErr = fmt.Errorf("group %s: consume: %w", groupID, err)
	}
	if err := group.Close(); err != nil && checkErr == nil {
		checkErr = fmt.Errorf("group %s: close: %w", groupID, err)
	}
	if checkErr != nil {
		return "", checkErr
	}
	return fmt.Sprintf("group %s consumed %d records at %s, committed offset %d, described Stable, left",
		groupID, len(want), p.version, len(want)), nil
}

// checkGroup compares the records, then asks an admin client for the
// committed offset and the group's description and listing.
func (c client) checkGroup(cfg *sarama.Config, groupID, topic string, got, want []scenario.Record) error {
	if err := scenario.Check(got, want, 0); err != nil {
		return err
	}
	admin, err := sarama.NewClusterAdmin([]string{c.broker}, cfg)
	if err != nil {
		return fmt.Errorf("admin client: %w", err)
	}
	defer admin.Close()
	offsets, err := admin.ListConsumerGroupOffsets(groupID, map[string][]int32{topic: {0}})
	if err != nil {
		return fmt.Errorf("offset fetch: %w", err)
	}
	block := offsets.GetBlock(topic, 0)
	if block == nil || block.Err != sarama.ErrNoError || block.Offset != int64(len(want)) {
		return fmt.Errorf("group %s committed %+v for %s/0, want offset %d", groupID, block, topic, len(want))
	}
	descs, err := admin.DescribeConsumerGroups([]string{groupID})
	if err != nil {
		return fmt.Errorf("describe groups: %w", err)
	}
	if len(descs) != 1 || descs[0].State != "Stable" || len(descs[0].Members) != 1 {
		return fmt.Errorf("describe groups %s: %+v, want one Stable group with one member", groupID, descs)
	}
	groups, err := admin.ListConsumerGroups()
	if err != nil {
		return fmt.Errorf("list groups: %w", err)
	}
	if _, ok := groups[groupID]; !ok {
		return fmt.Errorf("list groups: %s missing from %v", groupID, groups)
	}
	return nil
}

// collector is the group handler: it keeps the records of its claims, marks
// and commits them, and holds the session open once it has them all.
type collector struct {
	n    int
	done chan struct{}

	mu  sync.Mutex
	got []scenario.Record
}

func (h *collector) Setup(sarama.ConsumerGroupSession) error   { return nil }
func (h *collector) Cleanup(sarama.ConsumerGroupSession) error { return nil }

func (h *collector) ConsumeClaim(sess sarama.ConsumerGroupSession, claim sarama.ConsumerGroupClaim) error {
	for m := range claim.Messages() {
		h.mu.Lock()
		h.got = append(h.got, fromMessage(m))
		complete := len(h.got) == h.n
		h.mu.Unlock()
		sess.MarkMessage(m, "")
		if complete {
			sess.Commit()
			close(h.done)
			<-sess.Context().Done()
			return nil
		}
	}
	return nil
}

func (h *collector) records() []scenario.Record {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]scenario.Record(nil), h.got...)
}
