package main

import (
	"github.com/kafkagen/kafkagen/examples/proxy/kafkamsg"
	"github.com/kafkagen/kafkagen/proxy"
	"github.com/kafkagen/kafkagen/runtime"
)

// The typed part of topic-prefix multi-tenancy for kafkamsg: the names the
// specs do not mark with an entity type, the lists a tenant must not see
// whole, and the one data-path api that names no topic.

// Config resource types (Kafka's ConfigResource.Type) whose names the
// tenant's prefix applies to.
const (
	configResourceTopic int8 = 2
	configResourceGroup int8 = 32
)

// fetchTopicIDsFrom is the first Fetch version that names topics by id only
// (KIP-516): its requests and responses hold no name (TestFetchNamesNoTopic
// checks this against the specs). Its requests are still decoded, for the
// ids the tenant may use; its responses name only ids the request did.
const fetchTopicIDsFrom = 13

func newTenant(prefix string) *proxy.Tenant {
	t := proxy.NewTenant(prefix)
	t.Names, t.Hide, t.Decode, t.RefuseIDs, t.Check = tenantNames, tenantHide, tenantDecode, refuseIDs, tenantCheck
	return t
}

// tenantDecode leaves Fetch responses from v13 undecoded: they name no
// topic, and only ids the request was allowed to.
func tenantDecode(key, version int16, request bool) bool {
	return request || key != kafkamsg.APIKeyFetch || version < fetchTopicIDsFrom
}

// tenantNames visits the names the specs leave unmarked: FindCoordinator's
// keys (groups or transactional ids, as KeyType says) and the resource names
// of the config apis that are topics or groups. (ShareGroupHeartbeat's
// SubscribedTopicNames, unmarked in the corpus, is marked in 4.2, which
// kafkamsg is generated from too.)
func tenantNames(m runtime.APIMessage, version int16, visit func(runtime.EntityType, *string)) {
	switch m := m.(type) {
	case *kafkamsg.FindCoordinatorRequest:
		t := runtime.EntityGroupID // 0: a group, 2: a share group
		if m.KeyType == 1 {
			t = runtime.EntityTransactionalID
		}
		if version < 4 {
			visit(t, &m.Key)
		}
		for i := range m.CoordinatorKeys {
			visit(t, &m.CoordinatorKeys[i])
		}
	case *kafkamsg.FindCoordinatorResponse:
		for i := range m.Coordinators {
			visit(runtime.EntityGroupID, &m.Coordinators[i].Key)
		}
	case *kafkamsg.DescribeConfigsRequest:
		configNames(m.Resources, func(r *kafkamsg.DescribeConfigsRequestDescribeConfigsResource) (int8, *string) {
			return r.ResourceType, &r.ResourceName
		}, visit)
	case *kafkamsg.DescribeConfigsResponse:
		configNames(m.Results, func(r *kafkamsg.DescribeConfigsResponseDescribeConfigsResult) (int8, *string) {
			return r.ResourceType, &r.ResourceName
		}, visit)
	case *kafkamsg.AlterConfigsRequest:
		configNames(m.Resources, func(r *kafkamsg.AlterConfigsRequestAlterConfigsResource) (int8, *string) {
			return r.ResourceType, &r.ResourceName
		}, visit)
	case *kafkamsg.AlterConfigsResponse:
		configNames(m.Responses, func(r *kafkamsg.AlterConfigsResponseAlterConfigsResourceResponse) (int8, *string) {
			return r.ResourceType, &r.ResourceName
		}, visit)
	case *kafkamsg.IncrementalAlterConfigsRequest:
		configNames(m.Resources, func(r *kafkamsg.IncrementalAlterConfigsRequestAlterConfigsResource) (int8, *string) {
			return r.ResourceType, &r.ResourceName
		}, visit)
	case *kafkamsg.IncrementalAlterConfigsResponse:
		configNames(m.Responses, func(r *kafkamsg.IncrementalAlterConfigsResponseAlterConfigsResourceResponse) (int8, *string) {
			return r.ResourceType, &r.ResourceName
		}, visit)
	}
}

// configNames visits the names of config resources that are topics or
// groups.
func configNames[T any](resources []T, resource func(*T) (int8, *string), visit func(runtime.EntityType, *string)) {
	for i := range resources {
		switch typ, name := resource(&resources[i]); typ {
		case configResourceTopic:
			visit(runtime.EntityTopicName, name)
		case configResourceGroup:
			visit(runtime.EntityGroupID, name)
		}
	}
}

// tenantHide removes other tenants' entries from the answers that list
// every topic, group or transaction of the cluster.
func tenantHide(m runtime.APIMessage, _ int16, visible func(runtime.EntityType, string) bool) bool {
	topic := func(name string) bool { return visible(runtime.EntityTopicName, name) }
	switch m := m.(type) {
	case *kafkamsg.MetadataResponse:
		return keep(&m.Topics, func(t *kafkamsg.MetadataResponseTopic) bool { return !t.Name.Valid || topic(t.Name.Value) })
	case *kafkamsg.DescribeTopicPartitionsResponse:
		if m.NextCursor != nil && !topic(m.NextCursor.TopicName) {
			m.NextCursor = nil
		}
		return keep(&m.Topics, func(t *kafkamsg.DescribeTopicPartitionsResponseTopic) bool {
			return !t.Name.Valid || topic(t.Name.Value)
		})
	case *kafkamsg.ListGroupsResponse:
		return keep(&m.Groups, func(g *kafkamsg.ListGroupsResponseListedGroup) bool { return visible(runtime.EntityGroupID, g.GroupID) })
	case *kafkamsg.ListTransactionsResponse:
		return keep(&m.TransactionStates, func(s *kafkamsg.ListTransactionsResponseTransactionState) bool {
			return visible(runtime.EntityTransactionalID, s.TransactionalID)
		})
	case *kafkamsg.ListPartitionReassignmentsResponse:
		return keep(&m.Topics, func(t *kafkamsg.ListPartitionReassignmentsResponseOngoingTopicReassignment) bool {
			return topic(t.Name)
		})
	case *kafkamsg.DescribeLogDirsResponse:
		removed := false
		for i := range m.Results {
			if keep(&m.Results[i].Topics, func(t *kafkamsg.DescribeLogDirsResponseDescribeLogDirsTopic) bool { return topic(t.Name) }) {
				removed = true
			}
		}
		return removed
	case *kafkamsg.DescribeConfigsResponse:
		return keep(&m.Results, func(r *kafkamsg.DescribeConfigsResponseDescribeConfigsResult) bool {
			return r.ResourceType != configResourceTopic && r.ResourceType != configResourceGroup || topic(r.ResourceName)
		})
	}
	return false
}

// keep keeps the elements of *s for which ok is true, in order, and reports
// whether it removed any.
func keep[T any](s *[]T, ok func(*T) bool) bool {
	kept := (*s)[:0]
	for i := range *s {
		if ok(&(*s)[i]) {
			kept = append(kept, (*s)[i])
		}
	}
	removed := len(kept) < len(*s)
	*s = kept
	return removed
}
