package main

import (
	"context"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kafkagen/kafkagen/interop/internal/scenario"
)

// readTopics reads partition 0 of each topic straight from the broker with
// franz-go, from the start to the end the broker reports, as scenario
// records in offset order, each with its timestamp (a record of a v2 batch
// always has one: -1 where it was written without).
func readTopics(ctx context.Context, broker string, topics []string) (map[string][]scenario.Record, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cl, err := kgo.NewClient(kgo.SeedBrokers(broker), kgo.ClientID("interop-bridge-contents"))
	if err != nil {
		return nil, err
	}
	defer cl.Close()
	parts := map[string]map[int32]kgo.Offset{}
	for _, t := range topics {
		parts[t] = map[int32]kgo.Offset{0: kgo.NewOffset().AtStart()}
	}
	ends, err := lastStableOffsets(ctx, cl, parts)
	if err != nil {
		return nil, err
	}
	cl.AddConsumePartitions(parts)
	out := map[string][]scenario.Record{}
	seen := map[string]int64{}
	for !reachedEnds(seen, ends) {
		fs := cl.PollFetches(ctx)
		if ctx.Err() != nil {
			return nil, fmt.Errorf("reading %d topics: %w", len(topics), ctx.Err())
		}
		for _, e := range fs.Errors() {
			return nil, fmt.Errorf("reading %s: %w", e.Topic, e.Err)
		}
		fs.EachRecord(func(r *kgo.Record) {
			rec := scenario.Record{Offset: r.Offset, Timestamp: r.Timestamp.UnixMilli(), Key: r.Key, Value: r.Value}
			for _, h := range r.Headers {
				rec.Headers = append(rec.Headers, scenario.Header{Key: h.Key, Value: h.Value})
			}
			out[r.Topic] = append(out[r.Topic], rec)
			key := fmt.Sprintf("%s/%d", r.Topic, r.Partition)
			seen[key] = max(seen[key], r.Offset+1)
		})
	}
	return out, nil
}
