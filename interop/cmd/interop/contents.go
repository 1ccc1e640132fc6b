package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// contents is what a cluster holds: for each topic, its committed records
// (key, value and headers, in a comparable form), sorted.
type contents map[string][]string

// readContents reads every topic of the cluster at seeds straight from it,
// as a read_committed consumer from the start: aborted records and control
// records are left out, so two clusters that were sent the same
// transactions compare equal. It also counts the nodes that lead the
// topics' partitions. opts are added to the client's (a SASL login).
func readContents(ctx context.Context, seeds []string, opts ...kgo.Opt) (c contents, leaders int, err error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cl, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers(seeds...), kgo.FetchIsolationLevel(kgo.ReadCommitted()), kgo.ClientID("interop-contents")}, opts...)...)
	if err != nil {
		return nil, 0, err
	}
	defer cl.Close()
	md, err := kmsg.NewPtrMetadataRequest().RequestWith(ctx, cl)
	if err != nil {
		return nil, 0, fmt.Errorf("listing the topics: %w", err)
	}
	leading := map[int32]bool{}
	out := contents{}
	parts := map[string]map[int32]kgo.Offset{}
	records := 0
	for _, t := range md.Topics {
		if t.IsInternal || t.Topic == nil {
			continue
		}
		out[*t.Topic] = nil
		parts[*t.Topic] = map[int32]kgo.Offset{}
		for _, p := range t.Partitions {
			parts[*t.Topic][p.Partition] = kgo.NewOffset().AtStart()
			leading[p.Leader] = true
		}
	}
	ends, err := lastStableOffsets(ctx, cl, parts)
	if err != nil {
		return nil, 0, err
	}
	for _, n := range ends {
		records += int(n)
	}
	if records == 0 {
		return out, len(leading), nil
	}
	cl.AddConsumePartitions(parts)
	// Read until a partition's last stable offset is passed, or two quiet
	// polls in a row: the offsets at the end may be control records,
	// which a read_committed consumer never sees.
	seen := map[string]int64{}
	for quiet := 0; quiet < 2 && !reachedEnds(seen, ends); {
		pollCtx, cancelPoll := context.WithTimeout(ctx, time.Second)
		fs := cl.PollFetches(pollCtx)
		cancelPoll()
		if ctx.Err() != nil {
			return nil, 0, fmt.Errorf("reading the topics: %w", ctx.Err())
		}
		n := 0
		fs.EachRecord(func(r *kgo.Record) {
			n++
			out[r.Topic] = append(out[r.Topic], recordText(r))
			key := fmt.Sprintf("%s/%d", r.Topic, r.Partition)
			seen[key] = max(seen[key], r.Offset+1)
		})
		if n == 0 {
			quiet++
		} else {
			quiet = 0
		}
	}
	for t := range out {
		slices.Sort(out[t])
	}
	return out, len(leading), nil
}

// lastStableOffsets asks for the end of every partition, as read_committed
// consumers see it.
func lastStableOffsets(ctx context.Context, cl *kgo.Client, parts map[string]map[int32]kgo.Offset) (map[string]int64, error) {
	req := kmsg.NewPtrListOffsetsRequest()
	req.IsolationLevel = 1
	for topic, ps := range parts {
		rt := kmsg.NewListOffsetsRequestTopic()
		rt.Topic = topic
		for p := range ps {
			rp := kmsg.NewListOffsetsRequestTopicPartition()
			rp.Partition, rp.Timestamp = p, -1
			rt.Partitions = append(rt.Partitions, rp)
		}
		req.Topics = append(req.Topics, rt)
	}
	ends := map[string]int64{}
	for _, shard := range cl.RequestSharded(ctx, req) {
		if shard.Err != nil {
			return nil, fmt.Errorf("listing offsets: %w", shard.Err)
		}
		for _, t := range shard.Resp.(*kmsg.ListOffsetsResponse).Topics {
			for _, p := range t.Partitions {
				ends[fmt.Sprintf("%s/%d", t.Topic, p.Partition)] = p.Offset
			}
		}
	}
	return ends, nil
}

func reachedEnds(seen, ends map[string]int64) bool {
	for k, end := range ends {
		if seen[k] < end {
			return false
		}
	}
	return true
}

// recordText is a record in a form to compare: key, value and headers.
func recordText(r *kgo.Record) string {
	var b strings.Builder
	fmt.Fprintf(&b, "key=%q value=%q", r.Key, r.Value)
	for _, h := range r.Headers {
		fmt.Fprintf(&b, " %q=%q", h.Key, h.Value)
	}
	return b.String()
}

// diffContents lists how a run through a prefixing proxy left the cluster
// other than the same run without a prefix did: each topic of plain must be
// in prefixed as prefix+name holding exactly its records, and prefixed must
// hold no other topic.
func diffContents(plain, prefixed contents, prefix string) []string {
	var diffs []string
	for topic, want := range plain {
		got, ok := prefixed[prefix+topic]
		if !ok {
			diffs = append(diffs, fmt.Sprintf("topic %s has no %s%s", topic, prefix, topic))
			continue
		}
		if !slices.Equal(got, want) {
			diffs = append(diffs, fmt.Sprintf("%s%s holds %d records, %s %d; the first that differs: %s", prefix, topic, len(got), topic, len(want), firstDiff(got, want)))
		}
	}
	for topic := range prefixed {
		if name, ok := strings.CutPrefix(topic, prefix); !ok || !has(plain, name) {
			diffs = append(diffs, fmt.Sprintf("topic %s is not the prefixed name of a topic of the plain run", topic))
		}
	}
	slices.Sort(diffs)
	return diffs
}

func has(c contents, topic string) bool {
	_, ok := c[topic]
	return ok
}

// firstDiff shows the first record where two sorted lists differ.
func firstDiff(got, want []string) string {
	for i := range max(len(got), len(want)) {
		switch {
		case i >= len(got):
			return "missing " + want[i]
		case i >= len(want):
			return "extra " + got[i]
		case got[i] != want[i]:
			return fmt.Sprintf("%s instead of %s", got[i], want[i])
		}
	}
	return "none"
}
