package main

import (
	"context"
	"sync"
	"time"

	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// groupCoordinator holds every group. One lock guards them all; requests
// that must wait for other members (JoinGroup, SyncGroup) wait on a channel
// with the lock released.
type groupCoordinator struct {
	mu           sync.Mutex
	groups       map[string]*group
	initialDelay time.Duration
	stop         chan struct{}
}

func newGroupCoordinator(initialDelay time.Duration) *groupCoordinator {
	c := &groupCoordinator{groups: map[string]*group{}, initialDelay: initialDelay, stop: make(chan struct{})}
	go c.expireLoop()
	return c
}

func (c *groupCoordinator) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case <-c.stop:
	default:
		close(c.stop)
	}
	for _, g := range c.groups {
		if g.timer != nil {
			g.timer.Stop()
		}
	}
}

// joinRequest is a JoinGroup request with the connection's identity.
type joinRequest struct {
	groupID          string
	memberID         string
	instanceID       runtime.NullString
	clientID         string
	clientHost       string
	protocolType     string
	protocols        []groupProtocol
	sessionTimeout   time.Duration
	rebalanceTimeout time.Duration
	// requireKnownMemberID is set from JoinGroup v4: a member without an id
	// is given one with MEMBER_ID_REQUIRED and joins again with it.
	requireKnownMemberID bool
}

// join runs a JoinGroup: it returns once the rebalance completes (or at once
// with an error), or when ctx ends.
func (c *groupCoordinator) join(ctx context.Context, r joinRequest) joinResult {
	return await(ctx, &c.mu, func() (joinResult, chan joinResult) { return c.joinLocked(r) },
		joinResult{errorCode: kerrors.RebalanceInProgress.Code, memberID: r.memberID, generation: -1})
}

// await runs start under mu. When start hands back a channel instead of an
// answer, the request waits there with mu released, until another member's
// request answers it or ctx ends (the connection closed: cancelled).
func await[R any](ctx context.Context, mu *sync.Mutex, start func() (R, chan R), cancelled R) R {
	mu.Lock()
	res, wait := start()
	mu.Unlock()
	if wait == nil {
		return res
	}
	select {
	case res = <-wait:
		return res
	case <-ctx.Done():
		return cancelled
	}
}

func (c *groupCoordinator) joinLocked(r joinRequest) (joinResult, chan joinResult) {
	fail := func(code int16) (joinResult, chan joinResult) {
		return joinResult{errorCode: code, memberID: r.memberID, generation: -1}, nil
	}
	if r.groupID == "" {
		return fail(kerrors.InvalidGroupID.Code)
	}
	if r.sessionTimeout <= 0 {
		return fail(kerrors.InvalidSessionTimeout.Code)
	}
	g := c.groups[r.groupID]
	if g == nil {
		g = newGroup(r.groupID)
		c.groups[r.groupID] = g
	}
	now := time.Now()
	m := g.members[r.memberID]
	if m == nil || r.memberID == "" {
		if _, pending := g.pending[r.memberID]; r.memberID != "" && !pending {
			return fail(kerrors.UnknownMemberID.Code)
		}
		if !g.supports(r.protocolType, r.protocols) {
			return fail(kerrors.InconsistentGroupProtocol.Code)
		}
		if r.memberID == "" {
			r.memberID = r.clientID + "-" + newUUID().String()
			if r.requireKnownMemberID && !r.instanceID.Valid {
				g.pending[r.memberID] = now.Add(r.sessionTimeout)
				return joinResult{errorCode: kerrors.MemberIDRequired.Code, memberID: r.memberID, generation: -1}, nil
			}
		}
		if old := g.memberByInstance(r.instanceID); old != nil {
			g.removeMember(old.id) // a static member restarted: the new id replaces the old
		}
		if len(g.members) == 0 {
			g.protocolType = r.protocolType
		}
		m = &member{id: r.memberID, instanceID: r.instanceID}
		g.addMember(m)
	} else if !g.supports(r.protocolType, r.protocols) && len(g.members) > 1 {
		return fail(kerrors.InconsistentGroupProtocol.Code)
	}
	m.clientID, m.clientHost = r.clientID, r.clientHost
	m.protocols = r.protocols
	m.sessionTimeout, m.rebalanceTimeout = r.sessionTimeout, r.rebalanceTimeout
	m.lastHeartbeat = now
	if m.joinWait != nil { // a repeated JoinGroup replaces the one waiting
		m.joinWait <- joinResult{errorCode: kerrors.RebalanceInProgress.Code, memberID: m.id, generation: -1}
	}
	m.joinWait = make(chan joinResult, 1)
	wait := m.joinWait
	switch g.state {
	case groupEmpty, groupStable, groupCompletingRebalance:
		c.prepareRebalance(g)
	case groupPreparingRebalance:
		c.tryCompleteJoin(g)
	}
	return joinResult{}, wait
}

// prepareRebalance starts a rebalance: members must rejoin before the
// deadline. A new group waits the initial delay instead, so that members
// starting together land in one generation.
func (c *groupCoordinator) prepareRebalance(g *group) {
	if g.state == groupCompletingRebalance {
		for _, m := range g.members {
			if m.syncWait != nil {
				m.syncWait <- syncResult{errorCode: kerrors.RebalanceInProgress.Code}
				m.syncWait = nil
			}
		}
	}
	delay := g.rebalanceTimeout()
	initial := g.state == groupEmpty
	if initial {
		delay = min(c.initialDelay, delay)
		initial = delay > 0
	}
	g.state = groupPreparingRebalance
	g.delaying = initial
	if g.timer != nil {
		g.timer.Stop()
	}
	generation := g.generation
	g.timer = time.AfterFunc(delay, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if g.state == groupPreparingRebalance && g.generation == generation && c.groups[g.id] == g {
			c.completeJoin(g)
		}
	})
	c.tryCompleteJoin(g)
}

// tryCompleteJoin completes the rebalance once every member has rejoined,
// unless a new group is still in its initial delay.
func (c *groupCoordinator) tryCompleteJoin(g *group) {
	if g.allJoined() && !g.delaying {
		c.completeJoin(g)
	}
}

// completeJoin ends the join phase: members that did not rejoin are dropped,
// the generation advances, and every waiting JoinGroup gets its answer (the
// leader with every member's metadata).
func (c *groupCoordinator) completeJoin(g *group) {
	if g.timer != nil {
		g.timer.Stop()
		g.timer = nil
	}
	for _, id := range append([]string(nil), g.joinOrder...) {
		if g.members[id].joinWait == nil {
			g.removeMember(id)
		}
	}
	clear(g.pending)
	g.delaying = false
	g.generation++
	if len(g.members) == 0 {
		g.state, g.protocol, g.leader = groupEmpty, "", ""
		return
	}
	g.protocol = g.selectProtocol()
	g.state = groupCompletingRebalance
	var all []joinedMember
	for _, id := range g.joinOrder {
		m := g.members[id]
		all = append(all, joinedMember{memberID: id, instanceID: m.instanceID, metadata: m.metadataFor(g.protocol)})
	}
	now := time.Now()
	for _, m := range g.members {
		res := joinResult{generation: g.generation, protocolType: g.protocolType, protocol: g.protocol, leader: g.leader, memberID: m.id}
		if m.id == g.leader {
			res.members = all
		}
		m.joinWait <- res
		m.joinWait = nil
		m.assignment = nil
		m.lastHeartbeat = now
	}
}

// syncRequest is a SyncGroup request.
type syncRequest struct {
	groupID      string
	memberID     string
	generation   int32
	protocolType runtime.NullString
	protocol     runtime.NullString
	assignments  map[string][]byte // the leader's, by member id
}

// sync runs a SyncGroup: followers wait for the leader's assignments.
func (c *groupCoordinator) sync(ctx context.Context, r syncRequest) syncResult {
	return await(ctx, &c.mu, func() (syncResult, chan syncResult) { return c.syncLocked(r) },
		syncResult{errorCode: kerrors.RebalanceInProgress.Code})
}

func (c *groupCoordinator) syncLocked(r syncRequest) (syncResult, chan syncResult) {
	g := c.groups[r.groupID]
	if g == nil || g.members[r.memberID] == nil {
		return syncResult{errorCode: kerrors.UnknownMemberID.Code}, nil
	}
	m := g.members[r.memberID]
	switch {
	case r.generation != g.generation:
		return syncResult{errorCode: kerrors.IllegalGeneration.Code}, nil
	case r.protocolType.Valid && r.protocolType.Value != g.protocolType,
		r.protocol.Valid && r.protocol.Value != g.protocol:
		return syncResult{errorCode: kerrors.InconsistentGroupProtocol.Code}, nil
	}
	done := syncResult{protocolType: g.protocolType, protocol: g.protocol}
	switch g.state {
	case groupPreparingRebalance:
		return syncResult{errorCode: kerrors.RebalanceInProgress.Code}, nil
	case groupStable:
		done.assignment = m.assignment
		return done, nil
	case groupCompletingRebalance:
		m.lastHeartbeat = time.Now()
		if m.syncWait != nil {
			m.syncWait <- syncResult{errorCode: kerrors.RebalanceInProgress.Code}
		}
		m.syncWait = make(chan syncResult, 1)
		wait := m.syncWait
		if r.memberID == g.leader {
			g.state = groupStable
			for _, each := range g.members {
				each.assignment = r.assignments[each.id]
				if each.syncWait != nil {
					res := done
					res.assignment = each.assignment
					each.syncWait <- res
					each.syncWait = nil
				}
			}
		}
		return syncResult{}, wait
	}
	return syncResult{errorCode: kerrors.UnknownMemberID.Code}, nil
}
