package main

import (
	"strings"

	"github.com/kafkagen/kafkagen/examples/proxy/kafkamsg"
	"github.com/kafkagen/kafkagen/runtime"
)

// The answers per group or transactional id of the apis that name several,
// for acl.Typed (acl.go); the apis that name one are refused whole.

// splitGroups moves the refused groups (or transactional ids) out of req,
// into the api's response.
func splitGroups(req runtime.APIMessage, version int16, refused func(string) bool, code int16) (runtime.APIMessage, bool) {
	same := func(s *string) string { return *s }
	switch m := req.(type) {
	case *kafkamsg.DescribeGroupsRequest:
		out := splitOut(&m.Groups, same, refused)
		resp := &kafkamsg.DescribeGroupsResponse{}
		resp.Reset()
		for _, g := range out {
			var r kafkamsg.DescribeGroupsResponseDescribedGroup
			r.Reset()
			r.GroupID, r.ErrorCode = strings.Clone(g), code
			resp.Groups = append(resp.Groups, r)
		}
		return resp, len(m.Groups) == 0
	case *kafkamsg.DeleteGroupsRequest:
		out := splitOut(&m.GroupsNames, same, refused)
		resp := &kafkamsg.DeleteGroupsResponse{}
		resp.Reset()
		for _, g := range out {
			resp.Results = append(resp.Results, kafkamsg.DeleteGroupsResponseDeletableGroupResult{GroupID: strings.Clone(g), ErrorCode: code})
		}
		return resp, len(m.GroupsNames) == 0
	case *kafkamsg.FindCoordinatorRequest:
		if version < 4 {
			return nil, false // one key: the top-level error code
		}
		out := splitOut(&m.CoordinatorKeys, same, refused)
		resp := &kafkamsg.FindCoordinatorResponse{}
		resp.Reset()
		for _, k := range out {
			var r kafkamsg.FindCoordinatorResponseCoordinator
			r.Reset()
			r.Key, r.NodeID, r.Port, r.ErrorCode = strings.Clone(k), -1, -1, code
			resp.Coordinators = append(resp.Coordinators, r)
		}
		return resp, len(m.CoordinatorKeys) == 0
	case *kafkamsg.DescribeTransactionsRequest:
		out := splitOut(&m.TransactionalIDs, same, refused)
		resp := &kafkamsg.DescribeTransactionsResponse{}
		resp.Reset()
		for _, id := range out {
			var r kafkamsg.DescribeTransactionsResponseTransactionState
			r.Reset()
			r.TransactionalID, r.ErrorCode = strings.Clone(id), code
			resp.TransactionStates = append(resp.TransactionStates, r)
		}
		return resp, len(m.TransactionalIDs) == 0
	case *kafkamsg.ConsumerGroupDescribeRequest:
		out := splitOut(&m.GroupIDs, same, refused)
		resp := &kafkamsg.ConsumerGroupDescribeResponse{}
		resp.Reset()
		for _, g := range out {
			var r kafkamsg.ConsumerGroupDescribeResponseDescribedGroup
			r.Reset()
			r.GroupID, r.ErrorCode = strings.Clone(g), code
			resp.Groups = append(resp.Groups, r)
		}
		return resp, len(m.GroupIDs) == 0
	case *kafkamsg.ShareGroupDescribeRequest:
		out := splitOut(&m.GroupIDs, same, refused)
		resp := &kafkamsg.ShareGroupDescribeResponse{}
		resp.Reset()
		for _, g := range out {
			var r kafkamsg.ShareGroupDescribeResponseDescribedGroup
			r.Reset()
			r.GroupID, r.ErrorCode = strings.Clone(g), code
			resp.Groups = append(resp.Groups, r)
		}
		return resp, len(m.GroupIDs) == 0
	case *kafkamsg.OffsetFetchRequest:
		if version < 8 {
			return nil, false // one group: refused whole
		}
		out := splitOut(&m.Groups, func(g *kafkamsg.OffsetFetchRequestGroup) string { return g.GroupID }, refused)
		resp := &kafkamsg.OffsetFetchResponse{}
		resp.Reset()
		for _, g := range out {
			resp.Groups = append(resp.Groups, kafkamsg.OffsetFetchResponseGroup{GroupID: strings.Clone(g.GroupID), ErrorCode: code})
		}
		return resp, len(m.Groups) == 0
	}
	return nil, false
}
