package main

import (
	"slices"
	"strings"
	"time"

	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// heartbeat keeps a member alive and tells it whether a rebalance started.
func (c *groupCoordinator) heartbeat(groupID, memberID string, generation int32) int16 {
	c.mu.Lock()
	defer c.mu.Unlock()
	g := c.groups[groupID]
	if g == nil || g.members[memberID] == nil {
		return kerrors.UnknownMemberID.Code
	}
	if generation != g.generation {
		return kerrors.IllegalGeneration.Code
	}
	g.members[memberID].lastHeartbeat = time.Now()
	switch g.state {
	case groupPreparingRebalance:
		return kerrors.RebalanceInProgress.Code
	case groupEmpty, groupDead:
		return kerrors.UnknownMemberID.Code
	}
	return codeNone
}

// leavingMember names a member leaving: by id, or by static instance id
// when the id is empty (LeaveGroup v3+).
type leavingMember struct {
	memberID   string
	instanceID runtime.NullString
}

// leave removes members from a group and rebalances the rest. It returns an
// error code per member (UNKNOWN_MEMBER_ID for those not in the group) and
// the member ids resolved.
func (c *groupCoordinator) leave(groupID string, leaving []leavingMember) (codes []int16, ids []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	g := c.groups[groupID]
	codes, ids = make([]int16, len(leaving)), make([]string, len(leaving))
	removed := false
	for i, l := range leaving {
		ids[i] = l.memberID
		var m *member
		if g != nil {
			m = g.members[l.memberID]
			if l.memberID == "" {
				m = g.memberByInstance(l.instanceID)
			}
		}
		if m == nil || (l.instanceID.Valid && m.instanceID != l.instanceID) {
			codes[i] = kerrors.UnknownMemberID.Code
			continue
		}
		ids[i] = m.id
		g.removeMember(m.id)
		removed = true
	}
	if removed {
		c.membersChanged(g)
	}
	return codes, ids
}

// membersChanged rebalances a group after members left or expired.
func (c *groupCoordinator) membersChanged(g *group) {
	switch g.state {
	case groupStable, groupCompletingRebalance:
		c.prepareRebalance(g)
	case groupPreparingRebalance:
		c.tryCompleteJoin(g)
	}
}

// expireInterval is how often session timeouts are checked.
const expireInterval = 100 * time.Millisecond

// expireLoop drops members whose session timed out without a heartbeat,
// and member ids handed out with MEMBER_ID_REQUIRED that never joined.
// Members waiting in JoinGroup or SyncGroup are alive by definition.
func (c *groupCoordinator) expireLoop() {
	tick := time.NewTicker(expireInterval)
	defer tick.Stop()
	for {
		select {
		case <-c.stop:
			return
		case now := <-tick.C:
			c.expire(now)
		}
	}
}

func (c *groupCoordinator) expire(now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, g := range c.groups {
		for id, deadline := range g.pending {
			if now.After(deadline) {
				delete(g.pending, id)
			}
		}
		expired := false
		for _, id := range slices.Clone(g.joinOrder) {
			m := g.members[id]
			if m.joinWait == nil && m.syncWait == nil && now.Sub(m.lastHeartbeat) > m.sessionTimeout {
				g.removeMember(id)
				expired = true
			}
		}
		if expired {
			c.membersChanged(g)
		} else if g.state == groupPreparingRebalance {
			c.tryCompleteJoin(g) // pending ids that expired may have been all it waited for
		}
	}
}

// groupSummary is a group as DescribeGroups and ListGroups show it.
type groupSummary struct {
	id           string
	state        string
	protocolType string
	protocol     string
	members      []memberSummary
}

// memberSummary is a member as DescribeGroups shows it.
type memberSummary struct {
	id, clientID, clientHost string
	instanceID               runtime.NullString
	metadata, assignment     []byte
}

// describe summarises a group; ok is false when it does not exist. Member
// metadata and assignments are shown once the group is Stable, as Kafka does.
func (c *groupCoordinator) describe(groupID string) (s groupSummary, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	g := c.groups[groupID]
	if g == nil {
		return groupSummary{id: groupID, state: groupDead.String()}, false
	}
	s = groupSummary{id: g.id, state: g.state.String(), protocolType: g.protocolType}
	stable := g.state == groupStable
	if stable {
		s.protocol = g.protocol
	}
	for _, id := range g.joinOrder {
		m := g.members[id]
		ms := memberSummary{id: id, clientID: m.clientID, clientHost: m.clientHost, instanceID: m.instanceID}
		if stable {
			ms.metadata, ms.assignment = m.metadataFor(g.protocol), m.assignment
		}
		s.members = append(s.members, ms)
	}
	return s, true
}

// list summarises every group, sorted by id.
func (c *groupCoordinator) list() []groupSummary {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]groupSummary, 0, len(c.groups))
	for _, g := range c.groups {
		out = append(out, groupSummary{id: g.id, state: g.state.String(), protocolType: g.protocolType})
	}
	slices.SortFunc(out, func(a, b groupSummary) int { return strings.Compare(a.id, b.id) })
	return out
}
