package kgoclient

import (
	"context"
	"fmt"

	"github.com/kafkagen/kafkagen/interop/internal/scenario"
	"github.com/twmb/franz-go/pkg/kgo"
)

// transactions aborts one transaction and commits the next, then reads the
// partition twice: read_committed must see only the committed records, after
// the aborted ones and the abort marker (offsets n+1 to 2n); read_uncommitted
// must see both sets, skipping the offsets of the two control records.
func (c client) transactions(ctx context.Context) (string, error) {
	const step = "txn"
	topic := scenario.ClientID(Name, step)
	cl, err := c.clientWithTopics(ctx, step, []string{topic}, kgo.TransactionalID(topic))
	if err != nil {
		return "", err
	}
	defer cl.Close()
	records := scenario.Records(topic, 2*c.n, true)
	aborted, committed := records[:c.n], records[c.n:]
	for _, txn := range []struct {
		records []scenario.Record
		end     kgo.TransactionEndTry
	}{{aborted, kgo.TryAbort}, {committed, kgo.TryCommit}} {
		if err := cl.BeginTransaction(); err != nil {
			return "", fmt.Errorf("begin transaction: %w", err)
		}
		if err := produce(ctx, cl, topic, txn.records); err != nil {
			return "", err
		}
		if err := cl.EndTransaction(ctx, txn.end); err != nil {
			return "", fmt.Errorf("end transaction (commit %v): %w", txn.end, err)
		}
	}

	got, err := c.consume(ctx, step+"-committed", topic, len(committed), kgo.ReadCommitted())
	if err != nil {
		return "", err
	}
	if err := scenario.Check(got, committed, int64(c.n)+1); err != nil {
		return "", fmt.Errorf("read_committed: %w", err)
	}
	all, err := c.consume(ctx, step+"-uncommitted", topic, len(records), kgo.ReadUncommitted())
	if err != nil {
		return "", err
	}
	if err := scenario.Check(all[:c.n], aborted, 0); err != nil {
		return "", fmt.Errorf("read_uncommitted, aborted records: %w", err)
	}
	if err := scenario.Check(all[c.n:], committed, int64(c.n)+1); err != nil {
		return "", fmt.Errorf("read_uncommitted, committed records: %w", err)
	}
	return fmt.Sprintf("aborted %d and committed %d records; read_committed saw offsets %d-%d only",
		len(aborted), len(committed), c.n+1, 2*c.n), nil
}
