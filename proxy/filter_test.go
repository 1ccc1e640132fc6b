package proxy

import (
	"context"
	"encoding/binary"
	"errors"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// testFilter does what a test asks of it with Metadata and Produce.
type testFilter struct {
	// answerTopic: a Metadata request for it is answered by the filter.
	answerTopic string
	// renameFrom/renameTo rename the topic of Produce requests and back in
	// their responses.
	renameFrom, renameTo string
	// refuseTopic: a Produce to it closes the connection.
	refuseTopic string
}

func (f *testFilter) Wants(key, _ int16) (bool, bool) { return key == 0 || key == 3, key == 0 }

func (f *testFilter) Request(x *Exchange) error {
	switch m := x.Request.(type) {
	case *metadataRequest:
		if len(m.Topics) == 1 && m.Topics[0] == f.answerTopic {
			resp := testResponses(3).(*metadataResponse)
			resp.Topics = []topicError{{ErrorCode: 87, Name: f.answerTopic}}
			x.Answer(resp)
		}
	case *produceRequest:
		if m.Topic == f.refuseTopic {
			return kerrors.ErrorCode(29)
		}
		if m.Topic == f.renameFrom {
			m.Topic = f.renameTo
			x.Edited()
		}
		x.SetState(m.Topic)
	}
	return nil
}

func (f *testFilter) Response(x *Exchange) error {
	m := x.Response.(*produceResponse)
	if m.Topic != x.State() {
		return errors.New("the response is for another topic than its request")
	}
	if m.Topic == f.renameTo {
		m.Topic = f.renameFrom
		x.Edited()
	}
	return nil
}

func metadata(topics ...string) *metadataRequest {
	m := testRequests(3).(*metadataRequest)
	m.Topics = topics
	return m
}

// A filter's answer comes in its turn: after the answers of the requests
// sent before it (a slow Produce), before those of the requests after it.
// wire.Client checks the order by correlation id.
func TestFilterAnswersInOrder(t *testing.T) {
	b := startBroker(t)
	p, logs := startProxy(t, Config{Filters: []Filter{&testFilter{answerTopic: "local"}}}, b)
	cl := dial(t, p.Addr().String())

	alone := do(t, cl, metadata("local"), 1, testResponses(3).(*metadataResponse))
	assert.Equal(t, []topicError{{ErrorCode: 87, Name: "local"}}, alone.Topics, "answered with nothing in flight")

	// Three requests in one write: a slow Produce, the filter's, a Produce.
	conn := rawDial(t, p.Addr().String())
	var frames []byte
	for i, req := range []runtime.APIMessage{produce("slow-1", 1, records(10, 1)), metadata("local"), produce("fast", 1, records(10, 2))} {
		body, err := req.AppendTo(nil, 1)
		require.NoError(t, err)
		frames = append(frames, requestFrame(t, req.APIKey(), 1, int32(i+10), body)...)
	}
	_, err := conn.Write(frames)
	require.NoError(t, err)
	for i := range 3 {
		f := readFrame(t, conn)
		assert.Equal(t, int32(i+10), int32(binary.BigEndian.Uint32(f[4:])), "response %d", i)
	}
	assert.Empty(t, logs.String())
	b.mu.Lock()
	defer b.mu.Unlock()
	assert.Equal(t, []int16{0, 0}, b.seen, "the answered Metadata never reached the broker")
}

// A filter renames the topic of Produce requests (encoded again) and back in
// their responses; the broker stores the new name.
func TestFilterEdits(t *testing.T) {
	b := startBroker(t)
	p, _ := startProxy(t, Config{Filters: []Filter{&testFilter{renameFrom: "orders", renameTo: "tenant1.orders"}}}, b)
	cl := dial(t, p.Addr().String())
	for i, n := range []int{5, 70 << 10, 2 << 20} {
		resp := do(t, cl, produce("orders", 1, records(n, i)), 2, testResponses(0).(*produceResponse))
		assert.Equal(t, "orders", resp.Topic)
		assert.Equal(t, int64(i), resp.BaseOffset)
	}
	assert.Len(t, b.records("tenant1.orders"), 3)
	assert.Empty(t, b.records("orders"))
	assert.Equal(t, records(70<<10, 1), b.records("tenant1.orders")[1])
}

// A filter's error closes the connection, and the log says why.
func TestFilterRefuses(t *testing.T) {
	b := startBroker(t)
	p, logs := startProxy(t, Config{Filters: []Filter{&testFilter{refuseTopic: "secret"}}}, b)
	cl := dial(t, p.Addr().String())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := cl.Do(ctx, produce("secret", 1, records(3, 0)), 2, testResponses(0))
	require.Error(t, err)
	require.Eventually(t, func() bool { return logs.String() != "" }, 5*time.Second, 10*time.Millisecond)
	assert.Contains(t, logs.String(), "refused ProduceRequest v2: TOPIC_AUTHORIZATION_FAILED (kafka error 29)")
	assert.Empty(t, b.records("secret"))
}

// Responses carrying broker addresses are rewritten to the proxy's ports,
// PORT+1+N for node N, and a client connecting there reaches that node.
func TestAddressRewriting(t *testing.T) {
	b0, b1 := startBroker(t), startBroker(t)
	b0.brokers = []broker{b0.asNode(0), b1.asNode(2)}
	b1.brokers = b0.brokers
	p, logs := startProxy(t, Config{RewriteAddresses: true}, b0)
	base := p.Addr().(*net.TCPAddr).Port
	cl := dial(t, p.Addr().String())
	resp := do(t, cl, metadata(), 1, testResponses(3).(*metadataResponse))
	assert.Equal(t, []broker{{0, "127.0.0.1", int32(base + 1)}, {2, "127.0.0.1", int32(base + 3)}}, resp.Brokers)

	node2 := dial(t, "127.0.0.1:"+strconv.Itoa(base+3))
	again := do(t, node2, metadata("x"), 1, testResponses(3).(*metadataResponse))
	assert.Equal(t, resp.Brokers, again.Brokers, "node 2's own answer rewritten the same")
	b1.mu.Lock()
	assert.Equal(t, []int16{3}, b1.seen, "node 2's port reaches node 2")
	b1.mu.Unlock()
	addr, ok := p.NodeAddr(2)
	require.True(t, ok)
	assert.Equal(t, "127.0.0.1:"+strconv.Itoa(base+3), addr.String())
	assert.Empty(t, logs.String())
}

// A node id whose port would pass 65535 is refused: the connection closes
// and the log says why.
func TestAddressRewritingNodeTooHigh(t *testing.T) {
	b := startBroker(t)
	b.brokers = []broker{b.asNode(70000)}
	p, logs := startProxy(t, Config{RewriteAddresses: true}, b)
	cl := dial(t, p.Addr().String())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	require.Error(t, cl.Do(ctx, metadata(), 1, testResponses(3)))
	require.Eventually(t, func() bool { return logs.String() != "" }, 5*time.Second, 10*time.Millisecond)
	assert.Contains(t, logs.String(), "node id 70000 does not fit the proxy's ports")
}

// Shutdown lets a request in flight be answered, then closes; with a context
// that ends first it closes what is left and says so.
func TestShutdown(t *testing.T) {
	b := startBroker(t)
	p, logs := startProxy(t, Config{}, b)
	cl := dial(t, p.Addr().String())
	answered := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		answered <- cl.Do(ctx, produce("slow-drain", 1, records(10, 0)), 2, testResponses(0))
	}()
	require.Eventually(t, func() bool { return len(b.records("slow-drain")) == 1 }, 5*time.Second, 5*time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	require.NoError(t, p.Shutdown(ctx))
	require.NoError(t, <-answered, "the request in flight was answered")
	_, err := net.DialTimeout("tcp", p.Addr().String(), time.Second)
	require.Error(t, err, "the port is closed")
	assert.Empty(t, logs.String())

	held := startBroker(t)
	held.hook = func(net.Conn, *wire.Request) bool { return true } // never answers
	p2, _ := startProxy(t, Config{}, held)
	cl2 := dial(t, p2.Addr().String())
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = cl2.Do(ctx, metadata(), 1, testResponses(3))
	}()
	require.Eventually(t, func() bool {
		held.mu.Lock()
		defer held.mu.Unlock()
		return len(held.seen) == 1
	}, 5*time.Second, 5*time.Millisecond)
	short, cancel2 := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel2()
	assert.ErrorIs(t, p2.Shutdown(short), context.DeadlineExceeded)
}
