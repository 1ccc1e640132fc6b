package proxy_test

import (
	"context"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/kafkagen/kafkagen/proxy"
	"github.com/kafkagen/kafkagen/proxy/internal/kafkamsg"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// refuseAudit refuses Produce to the topics named audit.*: it takes them
// out of the request, forwards the rest, and adds to the broker's response
// an answer for each, TOPIC_AUTHORIZATION_FAILED.
type refuseAudit struct {
	// keep copies what the filter keeps of a request until its response:
	// strings.Clone. The request's memory (the frame its strings point
	// into) is reused by the next request once Request returns.
	keep func(string) string
}

// refusedTopic is what the filter keeps of a request for its response.
type refusedTopic struct {
	name       string
	partitions []int32
}

// Wants Produce's requests and responses.
func (refuseAudit) Wants(key, _ int16) (requests, responses bool) {
	return key == kafkamsg.APIKeyProduce, key == kafkamsg.APIKeyProduce
}

// Request takes the audit.* topics out and keeps their names, copied.
func (f refuseAudit) Request(x *proxy.Exchange) error {
	req := x.Request.(*kafkamsg.ProduceRequest)
	var refused []refusedTopic
	kept := req.TopicData[:0]
	for _, t := range req.TopicData {
		if !strings.HasPrefix(t.Name, "audit.") {
			kept = append(kept, t)
			continue
		}
		r := refusedTopic{name: f.keep(t.Name)}
		for _, p := range t.PartitionData {
			r.partitions = append(r.partitions, p.Index)
		}
		refused = append(refused, r)
	}
	if len(refused) == 0 {
		return nil
	}
	req.TopicData = kept
	x.Edited()
	x.SetState(refused)
	return nil
}

// Response answers for the topics Request took out.
func (refuseAudit) Response(x *proxy.Exchange) error {
	refused, _ := x.State().([]refusedTopic)
	if len(refused) == 0 {
		return nil
	}
	resp := x.Response.(*kafkamsg.ProduceResponse)
	for _, r := range refused {
		topic := kafkamsg.ProduceResponseTopicProduceResponse{Name: r.name}
		for _, p := range r.partitions {
			answer := *kafkamsg.NewProduceResponsePartitionProduceResponse()
			answer.Index, answer.ErrorCode, answer.BaseOffset = p, kerrors.TopicAuthorizationFailed.Code, -1
			topic.PartitionResponses = append(topic.PartitionResponses, answer)
		}
		resp.Responses = append(resp.Responses, topic)
	}
	x.Edited()
	return nil
}

// A filter that refuses Produce to audit.* topics and answers for them,
// in front of a broker (here a stub on 127.0.0.1 that accepts everything).
func Example_refusingPartOfARequest() {
	broker, stopBroker := startProduceBroker()
	defer stopBroker()
	p, err := proxy.New(proxy.Config{
		Listen:      "127.0.0.1:0",
		Upstream:    []string{broker},
		NewRequest:  kafkamsg.NewRequest,
		NewResponse: kafkamsg.NewResponse,
		Filters:     []proxy.Filter{refuseAudit{keep: strings.Clone}},
	})
	if err != nil {
		panic(err)
	}
	if err := p.Start(); err != nil {
		panic(err)
	}
	defer p.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := wire.Dial(ctx, p.Addr().String(), wire.ConnConfig{ClientID: "example"})
	if err != nil {
		panic(err)
	}
	defer conn.Close()
	resp := kafkamsg.NewProduceResponse()
	if err := conn.Do(ctx, produceTo("orders", "audit.logins"), resp); err != nil {
		panic(err)
	}
	for _, t := range resp.Responses {
		fmt.Printf("%s: %v\n", t.Name, kerrors.ErrorCode(t.PartitionResponses[0].ErrorCode))
	}
	// Output:
	// orders: <nil>
	// audit.logins: TOPIC_AUTHORIZATION_FAILED (kafka error 29): Topic authorization failed.
}

// produceTo is a Produce request (acks 1) of one empty batch to partition 0
// of each topic.
func produceTo(topics ...string) *kafkamsg.ProduceRequest {
	req := kafkamsg.NewProduceRequest()
	req.Acks, req.TimeoutMs = 1, 5000
	for _, name := range topics {
		req.TopicData = append(req.TopicData, kafkamsg.ProduceRequestTopicProduceData{
			Name: name, PartitionData: []kafkamsg.ProduceRequestPartitionProduceData{{Index: 0}}})
	}
	return req
}

// startProduceBroker serves a broker stub on 127.0.0.1 that answers every
// Produce with success for each topic it names, and returns its address.
func startProduceBroker() (addr string, stop func()) {
	srv, err := wire.NewServer(wire.HandlerFunc(func(_ context.Context, _ *wire.Peer, r *wire.Request) (runtime.APIMessage, error) {
		switch req := r.Body.(type) {
		case *kafkamsg.APIVersionsRequest:
			resp := kafkamsg.NewAPIVersionsResponse()
			for _, key := range []int16{kafkamsg.APIKeyProduce, kafkamsg.APIKeyAPIVersions} {
				m := kafkamsg.NewRequest(key)
				resp.APIKeys = append(resp.APIKeys, kafkamsg.APIVersionsResponseAPIVersion{APIKey: key, MinVersion: m.MinVersion(), MaxVersion: m.MaxVersion()})
			}
			return resp, nil
		case *kafkamsg.ProduceRequest:
			resp := kafkamsg.NewProduceResponse()
			for _, t := range req.TopicData {
				answer := *kafkamsg.NewProduceResponsePartitionProduceResponse()
				resp.Responses = append(resp.Responses, kafkamsg.ProduceResponseTopicProduceResponse{Name: t.Name,
					PartitionResponses: []kafkamsg.ProduceResponsePartitionProduceResponse{answer}})
			}
			return resp, nil
		}
		return nil, fmt.Errorf("the stub broker serves Produce and ApiVersions, not %s", r.Body.SpecName())
	}), wire.ServerOptions{NewRequest: kafkamsg.NewRequest})
	if err != nil {
		panic(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	go func() { _ = srv.Serve(ln) }()
	return ln.Addr().String(), func() { _ = srv.Close() }
}
