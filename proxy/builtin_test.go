package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/runtime"
)

// Refused apis leave the ApiVersions answer; a refused request whose
// response has a top-level error code is answered with the error, one built
// by ErrorResponse likewise, and any other closes the connection.
func TestAllowList(t *testing.T) {
	b := startBroker(t)
	allow := NewAllowList([]int16{0}, testResponses)
	allow.ErrorResponse = func(req runtime.APIMessage, _ int16, code int16) runtime.APIMessage {
		m, ok := req.(*metadataRequest)
		if !ok || len(m.Topics) == 0 {
			return nil
		}
		resp := testResponses(3).(*metadataResponse)
		for _, name := range m.Topics {
			resp.Topics = append(resp.Topics, topicError{ErrorCode: code, Name: name})
		}
		return resp
	}
	p, logs := startProxy(t, Config{Filters: []Filter{allow}}, b)
	cl := dial(t, p.Addr().String())

	versions := do(t, cl, generated.NewAPIVersionsRequest(), 3, generated.NewAPIVersionsResponse())
	var keys []int16
	for _, k := range versions.APIKeys {
		keys = append(keys, k.APIKey)
	}
	assert.Equal(t, []int16{0, 18}, keys)

	hs := do(t, cl, generated.NewSaslHandshakeRequest(), 1, generated.NewSaslHandshakeResponse())
	assert.Equal(t, int16(31), hs.ErrorCode, "CLUSTER_AUTHORIZATION_FAILED")
	md := do(t, cl, metadata("a", "b"), 1, testResponses(3).(*metadataResponse))
	assert.Equal(t, []topicError{{31, "a"}, {31, "b"}}, md.Topics)
	do(t, cl, produce("orders", 1, records(3, 0)), 2, testResponses(0))

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	require.Error(t, cl.Do(ctx, metadata(), 1, testResponses(3)), "no typed answer and no top-level error code: closed")
	require.Eventually(t, func() bool { return logs.String() != "" }, 5*time.Second, 10*time.Millisecond)
	assert.Contains(t, logs.String(), "api key 3 is not allowed, and its response has no top-level error code to say so: CLUSTER_AUTHORIZATION_FAILED")
	b.mu.Lock()
	defer b.mu.Unlock()
	assert.Equal(t, []int16{18, 0}, b.seen, "refused requests never reach the broker")
}

// hideMetadata is the typed Hide of the test package.
func hideMetadata(m runtime.APIMessage, _ int16, visible func(runtime.EntityType, string) bool) bool {
	md, ok := m.(*metadataResponse)
	if !ok {
		return false
	}
	kept := md.Topics[:0]
	for _, t := range md.Topics {
		if visible(runtime.EntityTopicName, t.Name) {
			kept = append(kept, t)
		}
	}
	removed := len(kept) < len(md.Topics)
	md.Topics = kept
	return removed
}

// The client sees its names, the broker stores them prefixed, and other
// tenants' topics are hidden; without Hide a foreign name closes the
// connection instead of reaching the client.
func TestTenant(t *testing.T) {
	b := startBroker(t)
	tenant := NewTenant("tenant1.")
	tenant.Hide = hideMetadata
	p, logs := startProxy(t, Config{Filters: []Filter{tenant}}, b)
	cl := dial(t, p.Addr().String())
	for _, topic := range []string{"orders", "payments"} {
		resp := do(t, cl, produce(topic, 1, records(100, 1)), 2, testResponses(0).(*produceResponse))
		assert.Equal(t, topic, resp.Topic)
	}
	b.mu.Lock()
	b.produced["tenant2.orders"] = [][]byte{{1}}
	b.produced["__consumer_offsets"] = [][]byte{{1}}
	b.mu.Unlock()
	assert.Equal(t, []string{"__consumer_offsets", "tenant1.orders", "tenant1.payments", "tenant2.orders"}, b.topics())

	all := do(t, cl, metadata(), 1, testResponses(3).(*metadataResponse))
	assert.Equal(t, []topicError{{0, "orders"}, {0, "payments"}}, all.Topics)
	one := do(t, cl, metadata("orders"), 1, testResponses(3).(*metadataResponse))
	assert.Equal(t, []topicError{{0, "orders"}}, one.Topics)
	assert.Empty(t, logs.String())

	tenant.Hide = nil
	cl2 := dial(t, p.Addr().String())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	require.Error(t, cl2.Do(ctx, metadata(), 1, testResponses(3)))
	require.Eventually(t, func() bool { return logs.String() != "" }, 5*time.Second, 10*time.Millisecond)
	assert.Contains(t, logs.String(), `MetadataResponse v1 names "__consumer_offsets", which is not the tenant's (prefix "tenant1.")`)
}

// The log has a line per exchange, in Kafka's JSON form with secrets
// redacted; a Produce with acks 0 has a null response.
func TestLog(t *testing.T) {
	b := startBroker(t)
	var out lockedBuffer
	logFilter, err := NewLog(&out, testRequests)
	require.NoError(t, err)
	p, _ := startProxy(t, Config{Filters: []Filter{logFilter}}, b)
	cl := dial(t, p.Addr().String())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	require.NoError(t, cl.Send(ctx, produce("quiet", 0, records(7, 0)), 2))
	do(t, cl, produce("orders", 1, records(5, 0)), 2, testResponses(0))

	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 2)
	type line struct {
		RequestHeader struct {
			RequestAPIKey     int16  `json:"requestApiKey"`
			RequestAPIVersion int16  `json:"requestApiVersion"`
			CorrelationID     int32  `json:"correlationId"`
			ClientID          string `json:"clientId"`
		} `json:"requestHeader"`
		Request     map[string]any `json:"request"`
		Response    map[string]any `json:"response"`
		Connection  string         `json:"connection"`
		Upstream    string         `json:"upstream"`
		NodeID      int32          `json:"nodeId"`
		TotalTimeMs float64        `json:"totalTimeMs"`
	}
	var quiet, orders line
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &quiet), lines[0])
	require.NoError(t, json.Unmarshal([]byte(lines[1]), &orders), lines[1])
	assert.Equal(t, "quiet", quiet.Request["topic"])
	assert.Nil(t, quiet.Response)
	assert.Equal(t, int32(1), orders.RequestHeader.CorrelationID)
	assert.Equal(t, "proxy-test", orders.RequestHeader.ClientID)
	assert.Equal(t, map[string]any{"acks": 1.0, "timeoutMs": 1000.0, "topic": "orders", "authBytes": "<redacted>", "recordsSizeInBytes": 5.0}, orders.Request)
	assert.Equal(t, map[string]any{"topic": "orders", "errorCode": 0.0, "baseOffset": 0.0}, orders.Response)
	assert.Equal(t, b.addr(), orders.Upstream)
	assert.Equal(t, int32(-1), orders.NodeID)
	assert.NotEmpty(t, orders.Connection)
}

func TestRedactJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"authBytes":"AHVzZXIAcGFzcw=="}`, `{"authBytes":"<redacted>"}`},
		{`{"errorCode":0,"authBytes":"","sessionLifetimeMs":0}`, `{"errorCode":0,"authBytes":"<redacted>","sessionLifetimeMs":0}`},
		{`{"upsertions":[{"name":"alice","mechanism":1,"iterations":4096,"salt":"c2FsdA==","saltedPassword":"cHc="}]}`,
			`{"upsertions":[{"name":"alice","mechanism":1,"iterations":4096,"salt":"<redacted>","saltedPassword":"<redacted>"}]}`},
		{`{"hmac":"aG1hYw==","expiryTimePeriodMs":-1}`, `{"hmac":"<redacted>","expiryTimePeriodMs":-1}`},
		{`{"resources":[{"configs":[{"name":"ssl.key.password","value":"s3cret"},{"name":"retention.ms","value":"100"},{"name":"sasl.jaas.config","value":null}]}]}`,
			`{"resources":[{"configs":[{"name":"ssl.key.password","value":"<redacted>"},{"name":"retention.ms","value":"100"},{"name":"sasl.jaas.config","value":null}]}]}`},
		{`{"topic":"a\"authBytes\":\\","nested":{"authBytes":{"x":[1,2]}},"list":[[],{}]}`, `{"topic":"a\"authBytes\":\\","nested":{"authBytes":"<redacted>"},"list":[[],{}]}`},
		{`{"name":"x", "value" : "kept" }`, `{"name":"x", "value" : "kept" }`},
	}
	for _, tt := range tests {
		got := redactJSON([]byte(tt.in))
		assert.Equal(t, tt.want, string(got))
		assert.True(t, json.Valid(got), "%s", got)
	}
}

// lockedBuffer is a bytes.Buffer for writers on many goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
