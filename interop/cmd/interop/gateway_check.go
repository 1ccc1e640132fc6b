package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/sasl/scram"

	"github.com/kafkagen/kafkagen/interop/internal/scenario"
	"github.com/kafkagen/kafkagen/runtime"
)

// clientTopics are the topics a client run leaves in its cluster, by their
// name at the broker: its SecureSteps' one produced topic,
// "<client>-<label>-none" (scenario.ClientID), with n records. The
// wrong-password and nonce steps create none.
func clientTopics(t gatewayTenant, n int) map[string]expectedTopic {
	sec := scenario.Security{Protocol: t.Run.Protocol, Mechanism: t.Run.Mechanism}
	name := scenario.ClientID(t.Run.Client, sec.Label()+"-none")
	return map[string]expectedTopic{t.Prefix() + name: {Name: name, N: n}}
}

// diffTenantContents lists how the broker's topics differ from want: every
// topic of want is there holding exactly the records the scenario rule
// gives its tenant's name for it (key and value; a "topic" header, which
// kcat and others add, naming the tenant's name, not the broker's), and
// there is no other topic, with or without a prefix.
func diffTenantContents(got contents, want map[string]expectedTopic) []string {
	var diffs []string
	for topic, w := range want {
		records, ok := got[topic]
		if !ok {
			diffs = append(diffs, fmt.Sprintf("topic %s is not at the broker", topic))
			continue
		}
		if d := diffRecords(records, w); d != "" {
			diffs = append(diffs, fmt.Sprintf("topic %s: %s", topic, d))
		}
	}
	for topic := range got {
		if _, ok := want[topic]; !ok {
			diffs = append(diffs, fmt.Sprintf("topic %s is at the broker, and no tenant made it", topic))
		}
	}
	slices.Sort(diffs)
	return diffs
}

// diffRecords compares a topic's records (recordText forms) with the n of
// the scenario rule for name, in any order; "" when they are the same.
func diffRecords(got []string, w expectedTopic) string {
	want := map[string]bool{}
	for _, r := range scenario.Records(w.Name, w.N, false) {
		want[fmt.Sprintf("key=%q value=%q", r.Key, r.Value)] = true
	}
	if len(got) != len(want) {
		return fmt.Sprintf("%d records, want %d", len(got), len(want))
	}
	for _, g := range got {
		keyValue, headers, hasHeaders := strings.Cut(g, `" "`)
		if hasHeaders {
			keyValue += `"` // the value's closing quote, which Cut took
		}
		if !want[keyValue] {
			return "a record the tenant did not write: " + g
		}
		delete(want, keyValue)
		if strings.Contains(g, `"topic"=`) && !strings.Contains(" \""+headers, fmt.Sprintf(`"topic"=%q`, w.Name)) {
			return "a record whose topic header is not " + w.Name + ": " + g
		}
	}
	return ""
}

// brokerLogin is how the harness reads the broker behind the gateway: as
// the proxy's own user, the only one the broker knows.
func brokerLogin(password string) kgo.Opt {
	return kgo.SASL(scram.Auth{User: gatewayUpstreamUser, Pass: password}.AsSha512Mechanism())
}

// brokerTopicID asks the broker for a topic's id; the zero id when it has
// no such topic.
func brokerTopicID(ctx context.Context, addr, password, topic string) (runtime.UUID, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr), brokerLogin(password), kgo.ClientID("interop-gateway-check"))
	if err != nil {
		return runtime.UUID{}, err
	}
	defer cl.Close()
	req := kmsg.NewPtrMetadataRequest()
	rt := kmsg.NewMetadataRequestTopic()
	rt.Topic = kmsg.StringPtr(topic)
	req.Topics = append(req.Topics, rt)
	resp, err := req.RequestWith(ctx, cl)
	if err != nil {
		return runtime.UUID{}, err
	}
	if len(resp.Topics) != 1 || resp.Topics[0].ErrorCode != 0 {
		return runtime.UUID{}, nil
	}
	return runtime.UUID(resp.Topics[0].TopicID), nil
}

// reachedBroker lists the attempts answered at the proxy whose client id
// nevertheless shows in the broker's stats, with what the broker counted.
func reachedBroker(st *stats, attempts []attempt) []string {
	var out []string
	for _, a := range attempts {
		if !a.AtProxy {
			continue
		}
		if apis := st.Clients[a.ClientID]; len(apis) > 0 {
			out = append(out, fmt.Sprintf("%s reached the broker: %v", a.Name, apis))
		}
	}
	return out
}

// steadyRequests is the broker's request count once its stats file (written
// every second) stops moving: two reads 1.5 s apart that agree, within 15 s.
func steadyRequests(ctx context.Context, b *broker) (int64, error) {
	last := int64(-1)
	for range 10 {
		st, err := b.readStats()
		if err != nil {
			return 0, err
		}
		if st.Requests == last {
			return last, nil
		}
		last = st.Requests
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(1500 * time.Millisecond):
		}
	}
	return 0, fmt.Errorf("the broker's request count kept moving for 15s (at %d)", last)
}
