package main

import (
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// joinReq is a JoinGroup of the "consumer" protocol type with one assignor.
func joinReq(group, memberID string, sessionMs int32, metadata string) *kafkamsg.JoinGroupRequest {
	req := kafkamsg.NewJoinGroupRequest()
	req.GroupID, req.MemberID = group, memberID
	req.SessionTimeoutMs, req.RebalanceTimeoutMs = sessionMs, 5000
	req.ProtocolType = "consumer"
	req.Protocols = []kafkamsg.JoinGroupRequestProtocol{{Name: "range", Metadata: []byte(metadata)}}
	return req
}

// joinAsNew runs the KIP-394 dance of JoinGroup v4+: a join without a
// member id gets MEMBER_ID_REQUIRED and an id, and joins again with it.
func joinAsNew(t *testing.T, cl *wire.Client, version int16, group string, metadata string) *kafkamsg.JoinGroupResponse {
	t.Helper()
	first := do(t, cl, joinReq(group, "", 10000, metadata), version, kafkamsg.NewJoinGroupResponse())
	require.Equal(t, kerrors.MemberIDRequired.Code, first.ErrorCode)
	require.NotEmpty(t, first.MemberID)
	return do(t, cl, joinReq(group, first.MemberID, 10000, metadata), version, kafkamsg.NewJoinGroupResponse())
}

func syncReq(group, memberID string, generation int32, assignments map[string]string) *kafkamsg.SyncGroupRequest {
	req := kafkamsg.NewSyncGroupRequest()
	req.GroupID, req.MemberID, req.GenerationID = group, memberID, generation
	req.ProtocolType, req.ProtocolName = runtime.NewNullString("consumer"), runtime.NewNullString("range")
	for id, a := range assignments {
		req.Assignments = append(req.Assignments, kafkamsg.SyncGroupRequestAssignment{MemberID: id, Assignment: []byte(a)})
	}
	return req
}

func heartbeat(t *testing.T, cl *wire.Client, group, memberID string, generation int32) int16 {
	t.Helper()
	req := kafkamsg.NewHeartbeatRequest()
	req.GroupID, req.MemberID, req.GenerationID = group, memberID, generation
	return do(t, cl, req, 4, kafkamsg.NewHeartbeatResponse()).ErrorCode
}

func describeGroup(t *testing.T, cl *wire.Client, group string) kafkamsg.DescribeGroupsResponseDescribedGroup {
	t.Helper()
	req := kafkamsg.NewDescribeGroupsRequest()
	req.Groups = []string{group}
	resp := do(t, cl, req, 5, kafkamsg.NewDescribeGroupsResponse())
	require.Len(t, resp.Groups, 1)
	return resp.Groups[0]
}

func TestConsumerGroupRebalance(t *testing.T) {
	// The delay must outlast the gap between the two joins even on a loaded
	// machine, or the second starts generation 2.
	tb := startBroker(t, Config{AutoCreate: true, InitialRebalanceDelay: 500 * time.Millisecond})
	a, b := tb.client(t, "member-a"), tb.client(t, "member-b")

	// Both join together; the first rebalance waits the initial delay.
	var joinA, joinB *kafkamsg.JoinGroupResponse
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); joinA = joinAsNew(t, a, 7, "g", "meta-a") }()
	go func() { defer wg.Done(); joinB = joinAsNew(t, b, 7, "g", "meta-b") }()
	wg.Wait()
	require.Equal(t, codeNone, joinA.ErrorCode)
	require.Equal(t, codeNone, joinB.ErrorCode)
	assert.Equal(t, int32(1), joinA.GenerationID)
	assert.Equal(t, joinA.GenerationID, joinB.GenerationID)
	assert.Equal(t, joinA.Leader, joinB.Leader)
	assert.Equal(t, "range", joinA.ProtocolName.Value)
	assert.Equal(t, "consumer", joinA.ProtocolType.Value)
	leader, follower, leaderCl, followerCl := joinA, joinB, a, b
	if joinB.Leader == joinB.MemberID {
		leader, follower, leaderCl, followerCl = joinB, joinA, b, a
	}
	require.Len(t, leader.Members, 2, "the leader sees every member")
	assert.Empty(t, follower.Members)
	metadata := map[string]string{}
	for _, m := range leader.Members {
		metadata[m.MemberID] = string(m.Metadata)
	}
	assert.Equal(t, map[string]string{joinA.MemberID: "meta-a", joinB.MemberID: "meta-b"}, metadata)

	// The follower's SyncGroup waits for the leader's assignments.
	followerSync := make(chan *kafkamsg.SyncGroupResponse, 1)
	go func() {
		followerSync <- do(t, followerCl, syncReq("g", follower.MemberID, 1, nil), 5, kafkamsg.NewSyncGroupResponse())
	}()
	time.Sleep(50 * time.Millisecond)
	assignments := map[string]string{leader.MemberID: "to-leader", follower.MemberID: "to-follower"}
	ls := do(t, leaderCl, syncReq("g", leader.MemberID, 1, assignments), 5, kafkamsg.NewSyncGroupResponse())
	require.Equal(t, codeNone, ls.ErrorCode)
	assert.Equal(t, "to-leader", string(ls.Assignment))
	fs := <-followerSync
	require.Equal(t, codeNone, fs.ErrorCode)
	assert.Equal(t, "to-follower", string(fs.Assignment))
	assert.Equal(t, "range", fs.ProtocolName.Value)

	assert.Equal(t, codeNone, heartbeat(t, a, "g", joinA.MemberID, 1))
	assert.Equal(t, kerrors.IllegalGeneration.Code, heartbeat(t, a, "g", joinA.MemberID, 7))
	assert.Equal(t, kerrors.UnknownMemberID.Code, heartbeat(t, a, "g", "stranger", 1))

	d := describeGroup(t, a, "g")
	assert.Equal(t, "Stable", d.GroupState)
	assert.Equal(t, "range", d.ProtocolData)
	require.Len(t, d.Members, 2)
	for _, m := range d.Members {
		assert.Equal(t, assignments[m.MemberID], string(m.MemberAssignment))
		assert.True(t, strings.HasPrefix(m.ClientID, "member-"))
		assert.Equal(t, "127.0.0.1", m.ClientHost)
	}
	list := do(t, a, kafkamsg.NewListGroupsRequest(), 5, kafkamsg.NewListGroupsResponse())
	require.Len(t, list.Groups, 1)
	assert.Equal(t, kafkamsg.ListGroupsResponseListedGroup{GroupID: "g", ProtocolType: "consumer", GroupState: "Stable", GroupType: "classic"}, list.Groups[0])

	// The follower leaves: the leader's heartbeat asks it to rejoin, and it
	// forms generation 2 alone.
	leave := kafkamsg.NewLeaveGroupRequest()
	leave.GroupID = "g"
	leave.Members = []kafkamsg.LeaveGroupRequestMemberIdentity{{MemberID: follower.MemberID}}
	lr := do(t, followerCl, leave, 5, kafkamsg.NewLeaveGroupResponse())
	require.Len(t, lr.Members, 1)
	assert.Equal(t, codeNone, lr.Members[0].ErrorCode)
	assert.Equal(t, kerrors.RebalanceInProgress.Code, heartbeat(t, leaderCl, "g", leader.MemberID, 1))
	rejoin := do(t, leaderCl, joinReq("g", leader.MemberID, 10000, "meta"), 7, kafkamsg.NewJoinGroupResponse())
	require.Equal(t, codeNone, rejoin.ErrorCode)
	assert.Equal(t, int32(2), rejoin.GenerationID)
	assert.Equal(t, leader.MemberID, rejoin.Leader)
	assert.Len(t, rejoin.Members, 1)
	assert.Equal(t, "CompletingRebalance", describeGroup(t, a, "g").GroupState)
}

func TestGroupSessionExpiry(t *testing.T) {
	tb := startBroker(t, Config{})
	cl := tb.client(t, "sleepy")
	join := do(t, cl, joinReq("g", "", 300, "m"), 0, kafkamsg.NewJoinGroupResponse())
	require.Equal(t, codeNone, join.ErrorCode, "JoinGroup v0 hands out the member id at once")
	require.NotEmpty(t, join.MemberID)
	sync := do(t, cl, syncReq("g", join.MemberID, join.GenerationID, map[string]string{join.MemberID: "all"}), 0, kafkamsg.NewSyncGroupResponse())
	require.Equal(t, codeNone, sync.ErrorCode)
	assert.Equal(t, "all", string(sync.Assignment))
	require.Eventually(t, func() bool { return describeGroup(t, cl, "g").GroupState == "Empty" },
		5*time.Second, 50*time.Millisecond, "the member without heartbeats expires")
	assert.Equal(t, kerrors.UnknownMemberID.Code, heartbeat(t, cl, "g", join.MemberID, join.GenerationID))
}

func TestJoinGroupErrors(t *testing.T) {
	tb := startBroker(t, Config{})
	cl := tb.client(t, "c")
	tests := []struct {
		name string
		req  *kafkamsg.JoinGroupRequest
		code int16
	}{
		{"empty group id", joinReq("", "", 1000, "m"), kerrors.InvalidGroupID.Code},
		{"unknown member id", joinReq("g", "who", 1000, "m"), kerrors.UnknownMemberID.Code},
		{"no protocols", func() *kafkamsg.JoinGroupRequest { r := joinReq("g", "", 1000, "m"); r.Protocols = nil; return r }(), kerrors.InconsistentGroupProtocol.Code},
		{"zero session timeout", joinReq("g", "", 0, "m"), kerrors.InvalidSessionTimeout.Code},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.code, do(t, cl, tt.req, 5, kafkamsg.NewJoinGroupResponse()).ErrorCode)
		})
	}
}

func commitReq(group, memberID string, generation int32, topic string, partition int32, offset int64, metadata string) *kafkamsg.OffsetCommitRequest {
	req := kafkamsg.NewOffsetCommitRequest()
	req.GroupID, req.MemberID, req.GenerationIDOrMemberEpoch = group, memberID, generation
	p := defaults[kafkamsg.OffsetCommitRequestPartition]()
	p.PartitionIndex, p.CommittedOffset, p.CommittedMetadata = partition, offset, runtime.NewNullString(metadata)
	req.Topics = []kafkamsg.OffsetCommitRequestTopic{{Name: topic, Partitions: []kafkamsg.OffsetCommitRequestPartition{p}}}
	return req
}

func TestOffsetCommitFetch(t *testing.T) {
	tb := startBroker(t, Config{})
	cl := tb.client(t, "committer")
	createTopic(t, cl, "t", 2)
	commit := func(req *kafkamsg.OffsetCommitRequest, version int16) int16 {
		return do(t, cl, req, version, kafkamsg.NewOffsetCommitResponse()).Topics[0].Partitions[0].ErrorCode
	}
	// Storage-only commits: no generation, no member.
	assert.Equal(t, codeNone, commit(commitReq("simple", "", -1, "t", 0, 42, "meta"), 8))
	assert.Equal(t, codeNone, commit(commitReq("simple", "", -1, "t", 1, 7, ""), 2))
	assert.Equal(t, kerrors.UnknownTopicOrPartition.Code, commit(commitReq("simple", "", -1, "nope", 0, 1, ""), 8))
	assert.Equal(t, kerrors.OffsetMetadataTooLarge.Code, commit(commitReq("simple", "", -1, "t", 0, 1, strings.Repeat("x", 5000)), 8))
	assert.Equal(t, kerrors.IllegalGeneration.Code, commit(commitReq("other", "m", 3, "t", 0, 1, ""), 8),
		"a generation for a group that does not exist")

	// A member of a generation commits; strangers and old generations cannot.
	join := joinAsNew(t, cl, 5, "live", "m")
	require.Equal(t, codeNone, join.ErrorCode)
	assert.Equal(t, kerrors.RebalanceInProgress.Code, commit(commitReq("live", join.MemberID, join.GenerationID, "t", 0, 5, ""), 8),
		"commits wait until SyncGroup completes the rebalance")
	sync := do(t, cl, syncReq("live", join.MemberID, join.GenerationID, map[string]string{join.MemberID: "x"}), 5, kafkamsg.NewSyncGroupResponse())
	require.Equal(t, codeNone, sync.ErrorCode)
	assert.Equal(t, codeNone, commit(commitReq("live", join.MemberID, join.GenerationID, "t", 0, 5, ""), 8))
	assert.Equal(t, kerrors.IllegalGeneration.Code, commit(commitReq("live", join.MemberID, join.GenerationID+1, "t", 0, 6, ""), 8))
	assert.Equal(t, kerrors.UnknownMemberID.Code, commit(commitReq("live", "stranger", join.GenerationID, "t", 0, 6, ""), 8))

	// OffsetFetch v1 (named partitions), v7 (all partitions: null topics)
	// and v8 (batched groups).
	v1 := kafkamsg.NewOffsetFetchRequest()
	v1.GroupID = "simple"
	v1.Topics = []kafkamsg.OffsetFetchRequestTopic{{Name: "t", PartitionIndexes: []int32{0, 1}}, {Name: "unseen", PartitionIndexes: []int32{0}}}
	r1 := do(t, cl, v1, 1, kafkamsg.NewOffsetFetchResponse())
	require.Len(t, r1.Topics, 2)
	assert.Equal(t, int64(42), r1.Topics[0].Partitions[0].CommittedOffset)
	assert.Equal(t, "meta", r1.Topics[0].Partitions[0].Metadata.Value)
	assert.Equal(t, int64(7), r1.Topics[0].Partitions[1].CommittedOffset)
	assert.Equal(t, int64(-1), r1.Topics[1].Partitions[0].CommittedOffset, "no commit: offset -1")

	all := kafkamsg.NewOffsetFetchRequest()
	all.GroupID, all.Topics = "simple", nil
	r7 := do(t, cl, all, 7, kafkamsg.NewOffsetFetchResponse())
	require.Len(t, r7.Topics, 1)
	assert.Len(t, r7.Topics[0].Partitions, 2)

	batched := kafkamsg.NewOffsetFetchRequest()
	batched.Groups = []kafkamsg.OffsetFetchRequestGroup{
		{GroupID: "simple", Topics: []kafkamsg.OffsetFetchRequestTopics{{Name: "t", PartitionIndexes: []int32{1}}}},
		{GroupID: "live", Topics: nil},
	}
	r8 := do(t, cl, batched, 8, kafkamsg.NewOffsetFetchResponse())
	require.Len(t, r8.Groups, 2)
	assert.Equal(t, int64(7), r8.Groups[0].Topics[0].Partitions[0].CommittedOffset)
	require.Len(t, r8.Groups[1].Topics, 1)
	assert.Equal(t, int64(5), r8.Groups[1].Topics[0].Partitions[0].CommittedOffset)
}

func TestFindCoordinator(t *testing.T) {
	tb := startBroker(t, Config{})
	cl := tb.client(t, "c")
	for v := int16(0); v <= 3; v++ {
		req := kafkamsg.NewFindCoordinatorRequest()
		req.Key = "g"
		if v >= 1 {
			req.KeyType = coordinatorTransaction
		}
		resp := do(t, cl, req, v, kafkamsg.NewFindCoordinatorResponse())
		assert.Equal(t, codeNone, resp.ErrorCode, "v%d", v)
		assert.Equal(t, tb.addr, resp.Host+":"+strconv.Itoa(int(resp.Port)), "v%d", v)
	}
	req := kafkamsg.NewFindCoordinatorRequest()
	req.CoordinatorKeys = []string{"a", "b"}
	resp := do(t, cl, req, 6, kafkamsg.NewFindCoordinatorResponse())
	require.Len(t, resp.Coordinators, 2)
	assert.Equal(t, "b", resp.Coordinators[1].Key)
	assert.Equal(t, int32(0), resp.Coordinators[1].NodeID)
	req.KeyType = 9
	resp = do(t, cl, req, 6, kafkamsg.NewFindCoordinatorResponse())
	assert.Equal(t, kerrors.InvalidRequest.Code, resp.Coordinators[0].ErrorCode)
}

func TestStaticMemberRestart(t *testing.T) {
	tb := startBroker(t, Config{})
	cl := tb.client(t, "static")
	join := func(memberID string) *kafkamsg.JoinGroupResponse {
		req := joinReq("g", memberID, 10000, "m")
		req.GroupInstanceID = runtime.NewNullString("instance-1")
		return do(t, cl, req, 5, kafkamsg.NewJoinGroupResponse())
	}
	first := join("")
	require.Equal(t, codeNone, first.ErrorCode, "a static member gets its id without MEMBER_ID_REQUIRED")
	require.Len(t, first.Members, 1)
	assert.Equal(t, "instance-1", first.Members[0].GroupInstanceID.Value)

	restarted := join("")
	require.Equal(t, codeNone, restarted.ErrorCode)
	assert.NotEqual(t, first.MemberID, restarted.MemberID)
	assert.Equal(t, restarted.MemberID, restarted.Leader)
	assert.Len(t, restarted.Members, 1, "the new id replaced the old")
	assert.Equal(t, kerrors.UnknownMemberID.Code, heartbeat(t, cl, "g", first.MemberID, restarted.GenerationID))
}

func TestListGroupsFilters(t *testing.T) {
	tb := startBroker(t, Config{})
	cl := tb.client(t, "lister")
	createTopic(t, cl, "t", 1)
	require.Equal(t, codeNone, do(t, cl, commitReq("empty-group", "", -1, "t", 0, 1, ""), 8, kafkamsg.NewOffsetCommitResponse()).Topics[0].Partitions[0].ErrorCode)
	join := do(t, cl, joinReq("busy", "", 10000, "m"), 3, kafkamsg.NewJoinGroupResponse())
	require.Equal(t, codeNone, join.ErrorCode)
	list := func(states, types []string) []string {
		req := kafkamsg.NewListGroupsRequest()
		req.StatesFilter, req.TypesFilter = states, types
		var ids []string
		for _, g := range do(t, cl, req, 5, kafkamsg.NewListGroupsResponse()).Groups {
			ids = append(ids, g.GroupID)
		}
		return ids
	}
	assert.Equal(t, []string{"busy", "empty-group"}, list(nil, nil))
	assert.Equal(t, []string{"empty-group"}, list([]string{"empty"}, nil), "states match without case")
	assert.Equal(t, []string{"busy"}, list([]string{"CompletingRebalance"}, []string{"Classic"}))
	assert.Empty(t, list(nil, []string{"consumer"}), "no KIP-848 groups here")
}
