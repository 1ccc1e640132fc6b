package kgoclient

import (
	"context"
	"fmt"

	"github.com/kafkagen/kafkagen/interop/internal/scenario"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// groupTransact is consume-transform-produce with exactly-once semantics:
// a GroupTransactSession consumes the input topic in a group and, in each
// transaction, produces what it read to the output topic and commits the
// group's offsets with the transaction (AddOffsetsToTxn, TxnOffsetCommit).
// The group must end with offset n committed on the input, and a
// read_committed consumer must find the n records on the output in order.
func (c client) groupTransact(ctx context.Context) (string, error) {
	const step = "eos"
	in, out := scenario.ClientID(Name, step+"-in"), scenario.ClientID(Name, step+"-out")
	groupID := scenario.ClientID(Name, step)
	admin, err := c.clientWithTopics(ctx, step+"-producer", []string{in, out})
	if err != nil {
		return "", err
	}
	defer admin.Close()
	want := scenario.Records(in, c.n, true)
	if err := produce(ctx, admin, in, want); err != nil {
		return "", err
	}

	sess, err := kgo.NewGroupTransactSession(
		kgo.SeedBrokers(c.broker),
		kgo.ClientID(scenario.ClientID(Name, step)),
		kgo.TransactionalID(groupID),
		kgo.ConsumerGroup(groupID),
		kgo.ConsumeTopics(in),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()),
		kgo.RecordPartitioner(kgo.ManualPartitioner()),
	)
	if err != nil {
		return "", err
	}
	defer sess.Close()
	moved, transactions := 0, 0
	for moved < len(want) {
		fetches := sess.PollFetches(ctx)
		if err := ctx.Err(); err != nil {
			return "", fmt.Errorf("eos: %d of %d records moved before %w", moved, len(want), err)
		}
		for _, fe := range fetches.Errors() {
			return "", fmt.Errorf("eos: consume %s: %w", fe.Topic, fe.Err)
		}
		var rs []*kgo.Record
		fetches.EachRecord(func(r *kgo.Record) {
			rs = append(rs, &kgo.Record{Topic: out, Partition: 0, Key: r.Key, Value: r.Value, Headers: r.Headers})
		})
		if len(rs) == 0 {
			continue
		}
		if err := sess.Begin(); err != nil {
			return "", fmt.Errorf("eos: begin: %w", err)
		}
		if err := sess.ProduceSync(ctx, rs...).FirstErr(); err != nil {
			return "", fmt.Errorf("eos: produce to %s: %w", out, err)
		}
		committed, err := sess.End(ctx, kgo.TryCommit)
		if err != nil || !committed {
			return "", fmt.Errorf("eos: transaction %d not committed (%v)", transactions+1, err)
		}
		moved += len(rs)
		transactions++
	}

	offset, err := committedOffset(ctx, admin, groupID, in)
	if err != nil {
		return "", err
	}
	if offset != int64(len(want)) {
		return "", fmt.Errorf("eos: group %s committed offset %d on %s, want %d", groupID, offset, in, len(want))
	}
	// Each transaction ends with a commit marker on the output, so its
	// records are in order from offset 0 but have gaps after the first
	// transaction: each record is checked at the offset it was read at.
	got, err := c.consume(ctx, step+"-out", out, len(want), kgo.ReadCommitted())
	if err != nil {
		return "", err
	}
	if got[0].Offset != 0 {
		return "", fmt.Errorf("eos: output starts at offset %d, want 0", got[0].Offset)
	}
	for i := range got {
		if i > 0 && got[i].Offset <= got[i-1].Offset {
			return "", fmt.Errorf("eos: output offsets %d then %d", got[i-1].Offset, got[i].Offset)
		}
		if err := scenario.Check(got[i:i+1], want[i:i+1], got[i].Offset); err != nil {
			return "", fmt.Errorf("eos output, record %d: %w", i, err)
		}
	}
	return fmt.Sprintf("moved %d records %s -> %s in %d transactions with the group's offsets (committed %d)",
		len(want), in, out, transactions, offset), nil
}

// deleteTopic creates a topic, produces to it, deletes it and checks that
// Metadata no longer knows it.
func (c client) deleteTopic(ctx context.Context) (string, error) {
	const step = "delete-topic"
	topic := scenario.ClientID(Name, step)
	cl, err := c.clientWithTopics(ctx, step, []string{topic})
	if err != nil {
		return "", err
	}
	defer cl.Close()
	if err := produce(ctx, cl, topic, scenario.Records(topic, 2, true)); err != nil {
		return "", err
	}
	req := kmsg.NewPtrDeleteTopicsRequest()
	req.TimeoutMillis = 10000
	req.TopicNames = []string{topic}
	t := kmsg.NewDeleteTopicsRequestTopic()
	t.Topic = kmsg.StringPtr(topic)
	req.Topics = append(req.Topics, t)
	resp, err := req.RequestWith(ctx, cl)
	if err != nil {
		return "", fmt.Errorf("delete topics: %w", err)
	}
	if len(resp.Topics) != 1 {
		return "", fmt.Errorf("delete topics: answer for %d topics, want 1", len(resp.Topics))
	}
	if err := kerr.ErrorForCode(resp.Topics[0].ErrorCode); err != nil {
		return "", fmt.Errorf("delete topic %s: %w", topic, err)
	}
	md := kmsg.NewPtrMetadataRequest()
	mt := kmsg.NewMetadataRequestTopic()
	mt.Topic = kmsg.StringPtr(topic)
	md.Topics = append(md.Topics, mt)
	mresp, err := md.RequestWith(ctx, cl)
	if err != nil {
		return "", fmt.Errorf("metadata after delete: %w", err)
	}
	if len(mresp.Topics) != 1 || mresp.Topics[0].ErrorCode != kerr.UnknownTopicOrPartition.Code {
		return "", fmt.Errorf("metadata after deleting %s: %+v, want UNKNOWN_TOPIC_OR_PARTITION", topic, mresp.Topics)
	}
	return fmt.Sprintf("deleted %s; Metadata answers UNKNOWN_TOPIC_OR_PARTITION", topic), nil
}
