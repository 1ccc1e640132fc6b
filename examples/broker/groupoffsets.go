package main

import (
	"cmp"
	"slices"
	"strings"

	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// maxOffsetMetadata is Kafka's offset.metadata.max.bytes default.
const maxOffsetMetadata = 4096

// offsetOwner is who commits offsets: a group member of a generation, or
// (generation -1, no member id) a client using the group for storage only.
type offsetOwner struct {
	groupID    string
	memberID   string
	generation int32
}

// groupForCommit finds or creates the group an OffsetCommit writes to and
// checks the committer belongs to its current generation (Kafka's
// GroupCoordinator.handleCommitOffsets rules).
func (c *groupCoordinator) groupForCommit(o offsetOwner) (*group, int16) {
	if o.groupID == "" {
		return nil, kerrors.InvalidGroupID.Code
	}
	g := c.groups[o.groupID]
	if g == nil {
		if o.generation >= 0 {
			return nil, kerrors.IllegalGeneration.Code
		}
		g = newGroup(o.groupID)
		c.groups[o.groupID] = g
		return g, codeNone
	}
	switch {
	case o.generation < 0 && g.state == groupEmpty:
		return g, codeNone
	case g.state == groupCompletingRebalance:
		return nil, kerrors.RebalanceInProgress.Code
	case g.members[o.memberID] == nil:
		return nil, kerrors.UnknownMemberID.Code
	case o.generation != g.generation:
		return nil, kerrors.IllegalGeneration.Code
	}
	return g, codeNone
}

// commit stores offsets for a group. It returns one error code for the whole
// request, or per partition for metadata that is too large (codes[i]).
func (c *groupCoordinator) commit(o offsetOwner, parts []topicPartition, offsets []committedOffset) (codes []int16) {
	c.mu.Lock()
	defer c.mu.Unlock()
	g, code := c.groupForCommit(o)
	return storeOffsets(code, parts, offsets, func(tp topicPartition, o committedOffset) { g.offsets[tp] = o })
}

// storeOffsets stores each offset whose metadata fits, answering a code per
// partition: refused's (when not NONE) for all, or OFFSET_METADATA_TOO_LARGE
// for the offsets whose metadata is too long.
func storeOffsets(refused int16, parts []topicPartition, offsets []committedOffset, store func(topicPartition, committedOffset)) []int16 {
	codes := make([]int16, len(parts))
	for i := range parts {
		switch {
		case refused != codeNone:
			codes[i] = refused
		case len(offsets[i].metadata.Value) > maxOffsetMetadata:
			codes[i] = kerrors.OffsetMetadataTooLarge.Code
		default:
			store(parts[i], offsets[i])
		}
	}
	return codes
}

// txnCommit holds offsets of a transaction until EndTxn commits or drops
// them (TxnOffsetCommit). memberID and generation are checked when given.
func (c *groupCoordinator) txnCommit(o offsetOwner, producerID int64, parts []topicPartition, offsets []committedOffset) (codes []int16) {
	c.mu.Lock()
	defer c.mu.Unlock()
	code := codeNone
	g := c.groups[o.groupID]
	switch {
	case o.groupID == "":
		code = kerrors.InvalidGroupID.Code
	case g == nil:
		g = newGroup(o.groupID)
		c.groups[o.groupID] = g
	case o.memberID != "" && g.members[o.memberID] == nil:
		code = kerrors.UnknownMemberID.Code
	case o.memberID != "" && o.generation >= 0 && o.generation != g.generation:
		code = kerrors.IllegalGeneration.Code
	}
	return storeOffsets(code, parts, offsets, func(tp topicPartition, o committedOffset) {
		pending := g.txnOffsets[producerID]
		if pending == nil {
			pending = map[topicPartition]committedOffset{}
			g.txnOffsets[producerID] = pending
		}
		pending[tp] = o
	})
}

// endTxn applies (commit) or drops a producer's transactional offsets.
func (c *groupCoordinator) endTxn(groupID string, producerID int64, commit bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	g := c.groups[groupID]
	if g == nil {
		return
	}
	if commit {
		for tp, o := range g.txnOffsets[producerID] {
			g.offsets[tp] = o
		}
	}
	delete(g.txnOffsets, producerID)
}

// fetchedOffset is one partition's answer to OffsetFetch.
type fetchedOffset struct {
	topicPartition
	committedOffset
	errorCode int16
}

// fetchOffsets returns a group's committed offsets for parts, or for every
// committed partition when parts is nil. Partitions without a commit get
// offset -1. With requireStable, partitions with transactional offsets not
// yet committed answer UNSTABLE_OFFSET_COMMIT.
func (c *groupCoordinator) fetchOffsets(groupID string, parts []topicPartition, requireStable bool) []fetchedOffset {
	c.mu.Lock()
	defer c.mu.Unlock()
	g := c.groups[groupID]
	if parts == nil && g != nil {
		for tp := range g.offsets {
			parts = append(parts, tp)
		}
		slices.SortFunc(parts, func(a, b topicPartition) int {
			return cmp.Or(strings.Compare(a.topic, b.topic), cmp.Compare(a.partition, b.partition))
		})
	}
	out := make([]fetchedOffset, len(parts))
	for i, tp := range parts {
		f := fetchedOffset{topicPartition: tp, committedOffset: committedOffset{offset: -1, leaderEpoch: -1}}
		if g != nil {
			if o, ok := g.offsets[tp]; ok {
				f.committedOffset = o
			}
			if requireStable && g.pendingTxnOffset(tp) {
				f.errorCode = kerrors.UnstableOffsetCommit.Code
			}
		}
		out[i] = f
	}
	return out
}

// pendingTxnOffset reports whether an open transaction holds an offset for tp.
func (g *group) pendingTxnOffset(tp topicPartition) bool {
	for _, pending := range g.txnOffsets {
		if _, ok := pending[tp]; ok {
			return true
		}
	}
	return false
}
