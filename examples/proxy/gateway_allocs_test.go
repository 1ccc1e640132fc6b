package main

import (
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/examples/proxy/kafkamsg"
	"github.com/kafkagen/kafkagen/proxy"
	"github.com/kafkagen/kafkagen/proxy/acl"
	"github.com/kafkagen/kafkagen/proxy/gateway"
	"github.com/kafkagen/kafkagen/proxy/quota"
	"github.com/kafkagen/kafkagen/runtime"
)

// Issue 28's performance target: the authorization and topic-id checks add
// no allocation per request in steady state. These tests run a realistic
// exchange through the filters kafkaproxy -config builds (serve: the
// tenant's allow-list, the ACL filter, the quota filter, the virtual
// clusters), each filter measured on its own, after the state is warmed:
// the tenant has learned its topic's id from a Metadata answer.

// allocsGateway: carol may read and write orders, alice is a super user;
// both are in virtual cluster a.
const allocsGateway = `listen: 127.0.0.1:9192
upstream: [127.0.0.1:9092]
sasl:
  mechanisms: [SCRAM-SHA-512]
  users: {alice: alice-secret, carol: carol-secret}
superUsers: [alice]
virtualClusters:
  - {name: a, principals: [alice, carol], topicPrefix: "a."}
  - {name: b, principals: [bob], topicPrefix: "b."}
acls:
  - {principal: carol, resourceType: topic, patternType: literal, name: orders, operations: [read, write], permission: allow}
`

// gatewayChain is the filter chain of a configuration file, as serve
// builds it, with the filters the tests single out.
type gatewayChain struct {
	filters  []proxy.Filter
	acl      *acl.Filter
	quotas   *quota.Filter
	clusters *proxy.VirtualClusters
}

func newGatewayChain(t *testing.T, yaml string) gatewayChain {
	t.Helper()
	path := filepath.Join(t.TempDir(), "kafkaproxy.yaml")
	require.NoError(t, os.WriteFile(path, []byte(yaml), 0o600))
	o, err := parseFlags([]string{"-config", path}, io.Discard)
	require.NoError(t, err)
	logger := log.New(io.Discard, "", 0)
	cfg, err := config(o, logger, nil)
	require.NoError(t, err)
	var users *gateway.Users
	if o.gateway.SASL != nil {
		users = o.gateway.SASL.Store
	}
	g, err := newGateway(o.configPath, o.file, users, logger)
	require.NoError(t, err)
	c := gatewayChain{}
	c.filters, err = withGateway(cfg.Filters, g)
	require.NoError(t, err)
	for _, f := range c.filters {
		switch f := f.(type) {
		case *acl.Filter:
			c.acl = f
		case *quota.Filter:
			c.quotas = f
		case *proxy.VirtualClusters:
			c.clusters = f
		}
	}
	require.NotNil(t, c.acl, "the ACL filter is in the chain")
	require.NotNil(t, c.quotas, "the quota filter is in the chain")
	require.NotNil(t, c.clusters, "the virtual clusters are in the chain")
	return c
}

// request runs x through the chain's request filters, in order, as the
// proxy does: each filter that wants the request, until one answers.
func (c gatewayChain) request(t *testing.T, x *proxy.Exchange) {
	for _, f := range c.filters {
		rf, ok := f.(proxy.RequestFilter)
		if wants, _ := f.Wants(x.Header.APIKey, x.Header.APIVersion); !ok || !wants {
			continue
		}
		require.NoError(t, rf.Request(x))
		require.Nil(t, x.Answered(), "%T answered %s v%d", f, x.Request.SpecName(), x.Header.APIVersion)
	}
}

// response runs x through the chain's response filters, last first.
func (c gatewayChain) response(t *testing.T, x *proxy.Exchange) {
	for i := len(c.filters) - 1; i >= 0; i-- {
		f := c.filters[i]
		rf, ok := f.(proxy.ResponseFilter)
		if _, wants := f.Wants(x.Header.APIKey, x.Header.APIVersion); ok && wants {
			require.NoError(t, rf.Response(x))
		}
	}
}

var ordersID = runtime.UUID{0x0a, 1, 2, 3}

// gatewayExchange is a client's request and its broker's answer, as the
// filters see them, with reset putting the names back as they came (the
// filters rename in place) without allocating.
type gatewayExchange struct {
	name      string
	principal string
	key, ver  int16
	request   runtime.APIMessage
	response  runtime.APIMessage
	reset     func()
	// prefixed is how many names the tenant prefixes in the request:
	// one new string each, the prefixing's and not the checks'.
	prefixed int
	// sent is the topic name the request carries to the broker.
	sent func() string
}

func (e gatewayExchange) exchange() *proxy.Exchange {
	x := &proxy.Exchange{Conn: &proxy.ConnInfo{ID: 1, NodeID: -1, Principal: e.principal}, Request: e.request}
	x.Header.APIKey, x.Header.APIVersion = e.key, e.ver
	x.Header.ClientID = runtime.NewNullString("allocs")
	return x
}

// answer turns x into the response side of itself.
func (e gatewayExchange) answer(x *proxy.Exchange) {
	x.Request, x.Response, x.ResponseVersion = nil, e.response, e.ver
}

// metadataExchange is Metadata of orders by name (byID false) or by id,
// answered with orders and another tenant's topic, which the tenant hides.
func metadataExchange(principal string, byID bool) gatewayExchange {
	req := kafkamsg.NewMetadataRequest()
	req.Topics = make([]kafkamsg.MetadataRequestTopic, 1)
	resp := kafkamsg.NewMetadataResponse()
	resp.Brokers = []kafkamsg.MetadataResponseBroker{{NodeID: 0, Host: "127.0.0.1", Port: 9092}}
	answer := make([]kafkamsg.MetadataResponseTopic, 2)
	parts := []kafkamsg.MetadataResponsePartition{{LeaderID: 0, ReplicaNodes: []int32{0}, IsrNodes: []int32{0}}}
	e := gatewayExchange{name: "Metadata v12 by name", principal: principal, key: kafkamsg.APIKeyMetadata, ver: 12,
		request: req, response: resp, prefixed: 1}
	if byID {
		e.name, e.prefixed = "Metadata v12 by id", 0
	}
	e.sent = func() string { return req.Topics[0].Name.Value }
	e.reset = func() {
		req.Topics[0] = kafkamsg.MetadataRequestTopic{Name: runtime.NullString{Value: "orders", Valid: true}}
		if byID {
			req.Topics[0] = kafkamsg.MetadataRequestTopic{TopicID: ordersID} // a null name
		}
		answer[0] = kafkamsg.MetadataResponseTopic{Name: runtime.NullString{Value: "a.orders", Valid: true}, TopicID: ordersID, Partitions: parts}
		answer[1] = kafkamsg.MetadataResponseTopic{Name: runtime.NullString{Value: "b.secret", Valid: true}, TopicID: runtime.UUID{0x0b}}
		resp.Topics = answer[:2]
	}
	return e
}

// produceExchange is a Produce of one batch to orders, by name at v12 or
// by id at v13.
func produceExchange(principal string, version int16) gatewayExchange {
	req := kafkamsg.NewProduceRequest()
	req.Acks = -1
	req.TopicData = make([]kafkamsg.ProduceRequestTopicProduceData, 1)
	part := []kafkamsg.ProduceRequestPartitionProduceData{{Index: 0, Records: make([]byte, 1024)}}
	resp := kafkamsg.NewProduceResponse()
	resp.Responses = make([]kafkamsg.ProduceResponseTopicProduceResponse, 1)
	rpart := []kafkamsg.ProduceResponsePartitionProduceResponse{{Index: 0, BaseOffset: 42}}
	byID := version >= 13
	e := gatewayExchange{principal: principal, key: kafkamsg.APIKeyProduce, ver: version, request: req, response: resp}
	e.name, e.prefixed = "Produce v12 by name", 1
	if byID {
		e.name, e.prefixed = "Produce v13 by id", 0
	}
	e.sent = func() string { return req.TopicData[0].Name }
	e.reset = func() {
		req.TopicData[0] = kafkamsg.ProduceRequestTopicProduceData{PartitionData: part}
		resp.Responses[0] = kafkamsg.ProduceResponseTopicProduceResponse{PartitionResponses: rpart}
		if byID {
			req.TopicData[0].TopicID, resp.Responses[0].TopicID = ordersID, ordersID
		} else {
			req.TopicData[0].Name, resp.Responses[0].Name = "orders", "a.orders"
		}
	}
	return e
}

// fetchExchange is a Fetch of partition 0 of orders, by name at v12 or by
// id from v13.
func fetchExchange(principal string, version int16) gatewayExchange {
	req := kafkamsg.NewFetchRequest()
	req.Topics = make([]kafkamsg.FetchRequestFetchTopic, 1)
	part := []kafkamsg.FetchRequestFetchPartition{{Partition: 0, PartitionMaxBytes: 1 << 20}}
	resp := kafkamsg.NewFetchResponse()
	resp.Responses = make([]kafkamsg.FetchResponseFetchableTopicResponse, 1)
	rpart := []kafkamsg.FetchResponsePartitionData{{PartitionIndex: 0, HighWatermark: 10, Records: make([]byte, 1024)}}
	byID := version >= 13
	e := gatewayExchange{principal: principal, key: kafkamsg.APIKeyFetch, ver: version, request: req, response: resp}
	e.name, e.prefixed = "Fetch v12 by name", 1
	if byID {
		e.name, e.prefixed = fmt.Sprintf("Fetch v%d by id", version), 0
	}
	e.sent = func() string { return req.Topics[0].Topic }
	e.reset = func() {
		req.Topics[0] = kafkamsg.FetchRequestFetchTopic{Partitions: part}
		resp.Responses[0] = kafkamsg.FetchResponseFetchableTopicResponse{Partitions: rpart}
		if byID {
			req.Topics[0].TopicID, resp.Responses[0].TopicID = ordersID, ordersID
		} else {
			req.Topics[0].Topic, resp.Responses[0].Topic = "orders", "a.orders"
		}
	}
	return e
}

// The exchanges of a producer and a consumer in steady state: carol's at
// the versions the ACL filter advertises (names), alice's (a super user,
// whom the ACL filter passes) at the versions naming topics by id.
func gatewayExchanges() []gatewayExchange {
	return []gatewayExchange{
		metadataExchange("carol", false),
		produceExchange("carol", 12),
		fetchExchange("carol", 12),
		metadataExchange("alice", true),
		produceExchange("alice", 13),
		fetchExchange("alice", 13),
		fetchExchange("alice", 17),
	}
}

// warm teaches tenant a its topic's id, as a Metadata answer through the
// chain does, and checks that it was learned.
func (c gatewayChain) warm(t *testing.T) {
	t.Helper()
	e := metadataExchange("carol", false)
	e.reset()
	x := e.exchange()
	c.request(t, x)
	e.answer(x)
	c.response(t, x)
	vc, ok := c.clusters.Lookup("carol")
	require.True(t, ok)
	require.True(t, vc.Tenant.KnowsTopicID(ordersID), "learned from the Metadata answer")
	md := e.response.(*kafkamsg.MetadataResponse)
	require.Len(t, md.Topics, 1, "the other tenant's topic hidden")
	assert.Equal(t, "orders", md.Topics[0].Name.Value, "the prefix removed")
}

func TestGatewayChecksAllocateNothing(t *testing.T) {
	c := newGatewayChain(t, allocsGateway)
	c.warm(t)
	for _, e := range gatewayExchanges() {
		t.Run(e.name+" as "+e.principal, func(t *testing.T) {
			// The whole exchange once through the chain: forwarded,
			// renamed, and the answer back in the tenant's names.
			e.reset()
			x := e.exchange()
			c.request(t, x)
			if e.prefixed > 0 {
				assert.Equal(t, "a.orders", e.sent(), "the name prefixed for the broker")
			} else {
				assert.Empty(t, e.sent(), "named by id only")
			}
			e.answer(x)
			c.response(t, x)

			// One Exchange per measurement, as the proxy keeps one per
			// request slot; the messages put back as they came each run.
			measure := func(f func(x *proxy.Exchange) error, response bool) float64 {
				x := e.exchange()
				return testing.AllocsPerRun(200, func() {
					e.reset()
					x.Request, x.Response = e.request, nil
					if response {
						e.answer(x)
					}
					if err := f(x); err != nil || x.Answered() != nil {
						t.Fatalf("refused: %v", err)
					}
				})
			}
			// Each filter where the proxy calls it: a message no filter
			// wants is relayed as bytes (Fetch answers from v13).
			requests, responses := func(f proxy.Filter) bool { w, _ := f.Wants(e.key, e.ver); return w },
				func(f proxy.Filter) bool { _, w := f.Wants(e.key, e.ver); return w }
			if requests(c.acl) {
				assert.Zero(t, measure(c.acl.Request, false), "ACL check of the request")
			}
			if responses(c.acl) {
				assert.Zero(t, measure(c.acl.Response, true), "ACL filter on the answer (merging, hiding what may not be described)")
			}
			if requests(c.quotas) {
				assert.Zero(t, measure(c.quotas.Request, false), "quota accounting of the request")
			}
			if responses(c.quotas) {
				assert.Zero(t, measure(c.quotas.Response, true), "quota accounting of the answer")
			}
			if requests(c.clusters) {
				assert.Equal(t, float64(e.prefixed), measure(c.clusters.Request, false),
					"the tenant on the request: the id check, and one new string per name prefixed")
			}
			if responses(c.clusters) {
				assert.Zero(t, measure(c.clusters.Response, true), "the tenant on the answer (hiding, the prefix removed, ids learned)")
			}
		})
	}
}
