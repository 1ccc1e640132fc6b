package bridge

import "reflect"

// offsetCommitAdapter turns OffsetCommit v0-1 into v2. v0 has no
// generation or member (Kafka 0.8.2 kept these offsets in ZooKeeper): it
// becomes a commit with generation -1 and no member, which Kafka accepts
// for a group with no members, as v0 commits were used (approximate: a
// group with live members refuses it). v1's per-partition CommitTimestamp
// is dropped: v2 has only the group-wide retention, left at -1 (the
// broker's default), as Kafka ignored v1 timestamps from 2.1 on.
type offsetCommitAdapter struct{}

func (offsetCommitAdapter) request(c *connBridge, req reflect.Value, from, to int16) (any, error) {
	var f fields
	f.each(req, "Topics", func(t reflect.Value) {
		f.each(t, "Partitions", func(p reflect.Value) {
			f.setInt(p, "CommitTimestamp", -1)
		})
	})
	return nil, f.err
}

func (offsetCommitAdapter) response(*connBridge, reflect.Value, int16, int16, any) error { return nil }
