package main

import (
	"slices"
	"time"

	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// The classic consumer group protocol (JoinGroup, SyncGroup, Heartbeat,
// LeaveGroup), as Kafka's GroupCoordinator runs it: a group moves from Empty
// to PreparingRebalance when a member joins, waits until every known member
// has rejoined (or the rebalance timeout drops the missing), hands the leader
// the members' metadata in CompletingRebalance, and becomes Stable when the
// leader's SyncGroup carries the assignments.

// groupState is a classic group's state; its String is Kafka's name.
type groupState int

const (
	groupEmpty groupState = iota
	groupPreparingRebalance
	groupCompletingRebalance
	groupStable
	groupDead
)

func (s groupState) String() string {
	return [...]string{"Empty", "PreparingRebalance", "CompletingRebalance", "Stable", "Dead"}[s]
}

// joinResult is a JoinGroup answer delivered to a waiting member.
type joinResult struct {
	errorCode    int16
	generation   int32
	protocolType string
	protocol     string
	leader       string
	memberID     string
	members      []joinedMember // the leader's view; empty for followers
}

// joinedMember is one member as the leader sees it in its JoinGroup answer.
type joinedMember struct {
	memberID   string
	instanceID runtime.NullString
	metadata   []byte
}

// syncResult is a SyncGroup answer delivered to a waiting member.
type syncResult struct {
	errorCode    int16
	protocolType string
	protocol     string
	assignment   []byte
}

// groupProtocol is one assignor a member supports, with its metadata.
type groupProtocol struct {
	name     string
	metadata []byte
}

// member is one consumer in a classic group.
type member struct {
	id               string
	instanceID       runtime.NullString
	clientID         string
	clientHost       string
	protocols        []groupProtocol
	sessionTimeout   time.Duration
	rebalanceTimeout time.Duration
	lastHeartbeat    time.Time
	joinWait         chan joinResult // a JoinGroup waiting for the rebalance, or nil
	syncWait         chan syncResult // a SyncGroup waiting for the leader, or nil
	assignment       []byte
}

// metadataFor is the member's metadata for a protocol name.
func (m *member) metadataFor(protocol string) []byte {
	for _, p := range m.protocols {
		if p.name == protocol {
			return p.metadata
		}
	}
	return nil
}

// group is a classic group: its members and its committed offsets.
type group struct {
	id           string
	state        groupState
	generation   int32
	protocolType string
	protocol     string // the chosen assignor, once a generation completed
	leader       string
	members      map[string]*member
	joinOrder    []string             // member ids in join order: the leader is the first
	pending      map[string]time.Time // ids handed out with MEMBER_ID_REQUIRED, by deadline
	timer        *time.Timer          // the running rebalance's deadline
	delaying     bool                 // a new group's first rebalance waits out the initial delay
	offsets      map[topicPartition]committedOffset
	txnOffsets   map[int64]map[topicPartition]committedOffset // by producer id, until EndTxn
}

// topicPartition names a partition.
type topicPartition struct {
	topic     string
	partition int32
}

// committedOffset is a group's committed position in one partition.
type committedOffset struct {
	offset      int64
	leaderEpoch int32
	metadata    runtime.NullString
}

func newGroup(id string) *group {
	return &group{
		id:         id,
		members:    map[string]*member{},
		pending:    map[string]time.Time{},
		offsets:    map[topicPartition]committedOffset{},
		txnOffsets: map[int64]map[topicPartition]committedOffset{},
	}
}

// supports reports whether every member can run one of the protocols.
func (g *group) supports(protocolType string, protocols []groupProtocol) bool {
	if len(g.members) == 0 {
		return protocolType != "" && len(protocols) > 0
	}
	if protocolType != g.protocolType {
		return false
	}
	for _, p := range protocols {
		if g.allSupport(p.name) {
			return true
		}
	}
	return false
}

func (g *group) allSupport(protocol string) bool {
	for _, m := range g.members {
		if !slices.ContainsFunc(m.protocols, func(p groupProtocol) bool { return p.name == protocol }) {
			return false
		}
	}
	return true
}

// selectProtocol picks the assignor as Kafka does: among those every member
// supports, each member votes for its most preferred; most votes wins, ties
// going to the earliest in the leader's preference order.
func (g *group) selectProtocol() string {
	leader := g.members[g.leader]
	var candidates []string
	for _, p := range leader.protocols {
		if g.allSupport(p.name) {
			candidates = append(candidates, p.name)
		}
	}
	votes := map[string]int{}
	for _, m := range g.members {
		for _, p := range m.protocols {
			if slices.Contains(candidates, p.name) {
				votes[p.name]++
				break
			}
		}
	}
	best := ""
	for _, c := range candidates {
		if best == "" || votes[c] > votes[best] {
			best = c
		}
	}
	return best
}

// allJoined reports whether every member has a JoinGroup waiting.
func (g *group) allJoined() bool {
	for _, m := range g.members {
		if m.joinWait == nil {
			return false
		}
	}
	return len(g.pending) == 0
}

// rebalanceTimeout is the longest rebalance timeout of the members.
func (g *group) rebalanceTimeout() time.Duration {
	var d time.Duration
	for _, m := range g.members {
		d = max(d, m.rebalanceTimeout)
	}
	return d
}

// addMember adds a member in join order.
func (g *group) addMember(m *member) {
	g.members[m.id] = m
	g.joinOrder = append(g.joinOrder, m.id)
	delete(g.pending, m.id)
	if g.leader == "" {
		g.leader = m.id
	}
}

// removeMember drops a member, answering any request it has waiting, and
// hands leadership to the next member in join order.
func (g *group) removeMember(id string) {
	m := g.members[id]
	if m == nil {
		return
	}
	if m.joinWait != nil {
		m.joinWait <- joinResult{errorCode: kerrors.UnknownMemberID.Code, memberID: id, generation: -1}
		m.joinWait = nil
	}
	if m.syncWait != nil {
		m.syncWait <- syncResult{errorCode: kerrors.UnknownMemberID.Code}
		m.syncWait = nil
	}
	delete(g.members, id)
	g.joinOrder = slices.DeleteFunc(g.joinOrder, func(s string) bool { return s == id })
	if g.leader == id {
		g.leader = ""
		if len(g.joinOrder) > 0 {
			g.leader = g.joinOrder[0]
		}
	}
}

// memberByInstance finds the member of a static instance id.
func (g *group) memberByInstance(instanceID runtime.NullString) *member {
	if !instanceID.Valid {
		return nil
	}
	for _, m := range g.members {
		if m.instanceID == instanceID {
			return m
		}
	}
	return nil
}
