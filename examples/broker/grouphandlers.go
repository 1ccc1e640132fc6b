package main

import (
	"math"
	"slices"
	"strings"
	"time"

	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// Coordinator key types of FindCoordinator.
const (
	coordinatorGroup       int8 = 0
	coordinatorTransaction int8 = 1
)

// handleFindCoordinator answers that this node coordinates every group and
// transactional id; v4+ batches the keys.
func (b *Broker) handleFindCoordinator(c *call, req *kafkamsg.FindCoordinatorRequest) *kafkamsg.FindCoordinatorResponse {
	resp := kafkamsg.NewFindCoordinatorResponse()
	code := codeNone
	if req.KeyType != coordinatorGroup && req.KeyType != coordinatorTransaction {
		code = kerrors.InvalidRequest.Code
	}
	if c.version < 4 {
		resp.ErrorCode = code
		if code == codeNone {
			resp.NodeID, resp.Host, resp.Port = b.cfg.NodeID, b.host, b.port
		} else {
			resp.NodeID, resp.Port = -1, -1
		}
		return resp
	}
	for _, key := range req.CoordinatorKeys {
		co := defaults[kafkamsg.FindCoordinatorResponseCoordinator]()
		co.Key, co.ErrorCode = key, code
		co.NodeID, co.Host, co.Port = b.cfg.NodeID, b.host, b.port
		if code != codeNone {
			co.NodeID, co.Host, co.Port = -1, "", -1
		}
		resp.Coordinators = append(resp.Coordinators, co)
	}
	return resp
}

func (b *Broker) handleJoinGroup(c *call, req *kafkamsg.JoinGroupRequest) *kafkamsg.JoinGroupResponse {
	rebalance := req.RebalanceTimeoutMs
	if c.version == 0 { // v0 has no rebalance timeout: the session timeout serves
		rebalance = req.SessionTimeoutMs
	}
	jr := joinRequest{
		groupID:              req.GroupID,
		memberID:             req.MemberID,
		instanceID:           req.GroupInstanceID,
		clientID:             c.clientID,
		clientHost:           c.clientHost,
		protocolType:         req.ProtocolType,
		sessionTimeout:       time.Duration(req.SessionTimeoutMs) * time.Millisecond,
		rebalanceTimeout:     time.Duration(rebalance) * time.Millisecond,
		requireKnownMemberID: c.version >= 4,
	}
	for _, p := range req.Protocols {
		jr.protocols = append(jr.protocols, groupProtocol{name: p.Name, metadata: slices.Clone(p.Metadata)})
	}
	res := b.groups.join(c.ctx, jr)

	resp := kafkamsg.NewJoinGroupResponse()
	resp.ErrorCode = res.errorCode
	resp.GenerationID = res.generation
	resp.Leader = res.leader
	resp.MemberID = res.memberID
	resp.ProtocolName = runtime.NewNullString(res.protocol)
	if c.version >= 7 && res.errorCode == codeNone {
		resp.ProtocolType = runtime.NewNullString(res.protocolType)
	} else if c.version >= 7 {
		resp.ProtocolName = runtime.Null
	}
	for _, m := range res.members {
		rm := defaults[kafkamsg.JoinGroupResponseMember]()
		rm.MemberID, rm.Metadata = m.memberID, m.metadata
		if c.version >= 5 {
			rm.GroupInstanceID = m.instanceID
		}
		resp.Members = append(resp.Members, rm)
	}
	return resp
}

func (b *Broker) handleSyncGroup(c *call, req *kafkamsg.SyncGroupRequest) *kafkamsg.SyncGroupResponse {
	sr := syncRequest{
		groupID:      req.GroupID,
		memberID:     req.MemberID,
		generation:   req.GenerationID,
		protocolType: req.ProtocolType,
		protocol:     req.ProtocolName,
		assignments:  map[string][]byte{},
	}
	for _, a := range req.Assignments {
		sr.assignments[a.MemberID] = slices.Clone(a.Assignment)
	}
	res := b.groups.sync(c.ctx, sr)
	resp := kafkamsg.NewSyncGroupResponse()
	resp.ErrorCode = res.errorCode
	resp.Assignment = res.assignment
	if resp.Assignment == nil {
		resp.Assignment = []byte{}
	}
	if c.version >= 5 && res.errorCode == codeNone {
		resp.ProtocolType = runtime.NewNullString(res.protocolType)
		resp.ProtocolName = runtime.NewNullString(res.protocol)
	}
	return resp
}

func (b *Broker) handleHeartbeat(c *call, req *kafkamsg.HeartbeatRequest) *kafkamsg.HeartbeatResponse {
	resp := kafkamsg.NewHeartbeatResponse()
	resp.ErrorCode = b.groups.heartbeat(req.GroupID, req.MemberID, req.GenerationID)
	return resp
}

func (b *Broker) handleLeaveGroup(c *call, req *kafkamsg.LeaveGroupRequest) *kafkamsg.LeaveGroupResponse {
	resp := kafkamsg.NewLeaveGroupResponse()
	if c.version < 3 {
		codes, _ := b.groups.leave(req.GroupID, []leavingMember{{memberID: req.MemberID}})
		resp.ErrorCode = codes[0]
		return resp
	}
	leaving := make([]leavingMember, len(req.Members))
	for i, m := range req.Members {
		leaving[i] = leavingMember{memberID: m.MemberID, instanceID: m.GroupInstanceID}
	}
	codes, ids := b.groups.leave(req.GroupID, leaving)
	for i, m := range req.Members {
		resp.Members = append(resp.Members, kafkamsg.LeaveGroupResponseMemberResponse{
			MemberID: ids[i], GroupInstanceID: m.GroupInstanceID, ErrorCode: codes[i],
		})
	}
	return resp
}

func (b *Broker) handleDescribeGroups(c *call, req *kafkamsg.DescribeGroupsRequest) *kafkamsg.DescribeGroupsResponse {
	resp := kafkamsg.NewDescribeGroupsResponse()
	for _, id := range req.Groups {
		s, found := b.groups.describe(id)
		dg := defaults[kafkamsg.DescribeGroupsResponseDescribedGroup]()
		dg.GroupID, dg.GroupState = s.id, s.state
		dg.ProtocolType, dg.ProtocolData = s.protocolType, s.protocol
		switch {
		case id == "":
			dg.ErrorCode = kerrors.InvalidGroupID.Code
		case !found && c.version >= 6:
			// KIP-1043: v6 says a group is unknown instead of describing
			// it as Dead.
			dg.ErrorCode = kerrors.GroupIDNotFound.Code
			dg.ErrorMessage = runtime.NewNullString("Group " + id + " not found.")
		}
		if c.version >= 3 {
			dg.AuthorizedOperations = math.MinInt32
		}
		for _, m := range s.members {
			dm := defaults[kafkamsg.DescribeGroupsResponseDescribedGroupMember]()
			dm.MemberID, dm.ClientID, dm.ClientHost = m.id, m.clientID, m.clientHost
			dm.MemberMetadata, dm.MemberAssignment = orEmpty(m.metadata), orEmpty(m.assignment)
			if c.version >= 4 {
				dm.GroupInstanceID = m.instanceID
			}
			dg.Members = append(dg.Members, dm)
		}
		resp.Groups = append(resp.Groups, dg)
	}
	return resp
}

func (b *Broker) handleListGroups(c *call, req *kafkamsg.ListGroupsRequest) *kafkamsg.ListGroupsResponse {
	resp := kafkamsg.NewListGroupsResponse()
	for _, s := range b.groups.list() {
		if len(req.StatesFilter) > 0 && !containsFold(req.StatesFilter, s.state) {
			continue
		}
		if len(req.TypesFilter) > 0 && !containsFold(req.TypesFilter, "classic") {
			continue
		}
		g := defaults[kafkamsg.ListGroupsResponseListedGroup]()
		g.GroupID, g.ProtocolType = s.id, s.protocolType
		if c.version >= 4 {
			g.GroupState = s.state
		}
		if c.version >= 5 {
			g.GroupType = "classic"
		}
		resp.Groups = append(resp.Groups, g)
	}
	return resp
}

// orEmpty turns nil into an empty (non-null) byte slice.
func orEmpty(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// containsFold reports whether list holds s, ignoring case (Kafka matches
// ListGroups filters so).
func containsFold(list []string, s string) bool {
	return slices.ContainsFunc(list, func(e string) bool { return strings.EqualFold(e, s) })
}
