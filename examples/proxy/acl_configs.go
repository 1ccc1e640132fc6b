package main

import (
	"strings"

	"github.com/kafkagen/kafkagen/examples/proxy/kafkamsg"
	"github.com/kafkagen/kafkagen/runtime"
)

// The config apis for acl.Typed: each resource is a topic, a group, or a
// part of the cluster (a broker, a broker's loggers, client metrics), and is
// answered on its own, as Kafka does.

// Config resource types (Kafka's ConfigResource.Type) that are the
// cluster's.
const (
	configResourceBroker        int8 = 4
	configResourceBrokerLogger  int8 = 8
	configResourceClientMetrics int8 = 16
)

// configEntity is the entity type a config resource is checked as.
func configEntity(resourceType int8) runtime.EntityType {
	switch resourceType {
	case configResourceTopic:
		return runtime.EntityTopicName
	case configResourceGroup:
		return runtime.EntityGroupID
	case configResourceBroker, configResourceBrokerLogger, configResourceClientMetrics:
		return runtime.EntityBrokerID
	}
	return runtime.EntityUnknown
}

// configClusterNames visits the config resources that are the cluster's,
// as acl.Check wants them (entity type brokerId).
func configClusterNames(m runtime.APIMessage, visit func(runtime.EntityType, *string)) {
	each := func(typ int8, name *string) {
		if configEntity(typ) == runtime.EntityBrokerID {
			visit(runtime.EntityBrokerID, name)
		}
	}
	switch m := m.(type) {
	case *kafkamsg.DescribeConfigsRequest:
		for i := range m.Resources {
			each(m.Resources[i].ResourceType, &m.Resources[i].ResourceName)
		}
	case *kafkamsg.AlterConfigsRequest:
		for i := range m.Resources {
			each(m.Resources[i].ResourceType, &m.Resources[i].ResourceName)
		}
	case *kafkamsg.IncrementalAlterConfigsRequest:
		for i := range m.Resources {
			each(m.Resources[i].ResourceType, &m.Resources[i].ResourceName)
		}
	}
}

// splitConfigs moves the resources of entity type t whose name is refused
// out of a config request, into its answer; ok false for other apis.
func splitConfigs(req runtime.APIMessage, t runtime.EntityType, refused func(string) bool, code int16) (resp runtime.APIMessage, nothingLeft, ok bool) {
	match := func(typ int8, name string) bool { return configEntity(typ) == t && refused(name) }
	switch m := req.(type) {
	case *kafkamsg.DescribeConfigsRequest:
		out := splitWhere(&m.Resources, func(r *kafkamsg.DescribeConfigsRequestDescribeConfigsResource) bool {
			return match(r.ResourceType, r.ResourceName)
		})
		r := &kafkamsg.DescribeConfigsResponse{}
		r.Reset()
		for _, res := range out {
			var e kafkamsg.DescribeConfigsResponseDescribeConfigsResult
			e.Reset()
			e.ResourceType, e.ResourceName, e.ErrorCode = res.ResourceType, strings.Clone(res.ResourceName), code
			r.Results = append(r.Results, e)
		}
		return r, len(m.Resources) == 0, true
	case *kafkamsg.AlterConfigsRequest:
		out := splitWhere(&m.Resources, func(r *kafkamsg.AlterConfigsRequestAlterConfigsResource) bool {
			return match(r.ResourceType, r.ResourceName)
		})
		r := &kafkamsg.AlterConfigsResponse{}
		r.Reset()
		for _, res := range out {
			r.Responses = append(r.Responses, kafkamsg.AlterConfigsResponseAlterConfigsResourceResponse{
				ResourceType: res.ResourceType, ResourceName: strings.Clone(res.ResourceName), ErrorCode: code})
		}
		return r, len(m.Resources) == 0, true
	case *kafkamsg.IncrementalAlterConfigsRequest:
		out := splitWhere(&m.Resources, func(r *kafkamsg.IncrementalAlterConfigsRequestAlterConfigsResource) bool {
			return match(r.ResourceType, r.ResourceName)
		})
		r := &kafkamsg.IncrementalAlterConfigsResponse{}
		r.Reset()
		for _, res := range out {
			r.Responses = append(r.Responses, kafkamsg.IncrementalAlterConfigsResponseAlterConfigsResourceResponse{
				ResourceType: res.ResourceType, ResourceName: strings.Clone(res.ResourceName), ErrorCode: code})
		}
		return r, len(m.Resources) == 0, true
	}
	return nil, false, false
}

// mergeConfigs adds the refusals of a config api to its answer; ok false
// for other apis.
func mergeConfigs(resp, refusals runtime.APIMessage) bool {
	switch m := resp.(type) {
	case *kafkamsg.DescribeConfigsResponse:
		m.Results = append(m.Results, refusals.(*kafkamsg.DescribeConfigsResponse).Results...)
	case *kafkamsg.AlterConfigsResponse:
		m.Responses = append(m.Responses, refusals.(*kafkamsg.AlterConfigsResponse).Responses...)
	case *kafkamsg.IncrementalAlterConfigsResponse:
		m.Responses = append(m.Responses, refusals.(*kafkamsg.IncrementalAlterConfigsResponse).Responses...)
	default:
		return false
	}
	return true
}
