package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkagen/kafkagen/examples/proxy/kafkamsg"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
)

// The policy tests name each client's principal by its client id
// (standInIdentity.principalFromClientId), so that one cluster without
// SASL serves every principal; identity_policy_test.go runs the same
// policies with principals from SASL.

// gatewayProxy is a kafkaproxy run with -config, its file and its addresses.
type gatewayProxy struct {
	bootstrap, metrics string
	file               string
	hup                chan os.Signal
	logs               *syncBuffer
}

// startPolicyGateway writes the configuration (listen and upstream added, and the
// metrics on a free port) and runs kafkaproxy -config on it until the test
// ends.
func startPolicyGateway(t *testing.T, c *kfake.Cluster, yaml string) *gatewayProxy {
	t.Helper()
	g := &gatewayProxy{file: filepath.Join(t.TempDir(), "kafkaproxy.yaml"), hup: make(chan os.Signal, 1), logs: &syncBuffer{}}
	listen := "127.0.0.1:" + strconv.Itoa(freePorts(t, len(c.ListenAddrs())+1))
	head := fmt.Sprintf("listen: %s\nupstream: [%s]\nmetrics: 127.0.0.1:0\nstandInIdentity: {principalFromClientId: true}\n",
		listen, strings.Join(c.ListenAddrs(), ", "))
	require.NoError(t, os.WriteFile(g.file, []byte(head+yaml), 0o600))
	o, err := parseFlags([]string{"-config", g.file}, io.Discard)
	require.NoError(t, err)
	o.hup = g.hup
	ctx, cancel := context.WithCancel(context.Background())
	out, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, o, log.New(io.MultiWriter(testWriter{t}, g.logs), "kafkaproxy: ", 0), w)
		w.Close()
	}()
	lines := bufio.NewReader(out)
	line, err := lines.ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "listening on "+listen+"\n", line)
	line, err = lines.ReadString('\n')
	require.NoError(t, err)
	g.bootstrap, g.metrics = listen, strings.TrimSpace(strings.TrimPrefix(line, "metrics on "))
	go io.Copy(io.Discard, out) //nolint:errcheck // the rest of stdout
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
	})
	return g
}

// reload rewrites the file's policy part and sends SIGHUP, and waits for
// the reload to be logged.
func (g *gatewayProxy) reload(t *testing.T, yaml string) {
	t.Helper()
	data, err := os.ReadFile(g.file)
	require.NoError(t, err)
	head := string(data[:strings.Index(string(data), "standInIdentity")])
	require.NoError(t, os.WriteFile(g.file, []byte(head+"standInIdentity: {principalFromClientId: true}\n"+yaml), 0o600))
	before := strings.Count(g.logs.String(), "reload: ")
	g.hup <- os.Interrupt // any signal: the channel is the reload's
	require.Eventually(t, func() bool { return strings.Count(g.logs.String(), "reload: ") > before }, 10*time.Second, 10*time.Millisecond)
	require.NotContains(t, g.logs.String(), "the configuration in force stays")
}

// scrape returns the value of a metric line (name with labels, as printed),
// summed over the lines that start with it.
func (g *gatewayProxy) scrape(t *testing.T, prefix string) float64 {
	t.Helper()
	return g.scrapeOr(t, prefix, false)
}

// scrapeOr is scrape, with zeroIfAbsent for a counter no label has moved
// yet (Prometheus prints none).
func (g *gatewayProxy) scrapeOr(t *testing.T, prefix string, zeroIfAbsent bool) float64 {
	t.Helper()
	body := g.get(t, "/metrics")
	sum, found := 0.0, false
	for _, line := range strings.Split(body, "\n") {
		if !strings.HasPrefix(line, prefix) {
			continue
		}
		v, err := strconv.ParseFloat(line[strings.LastIndexByte(line, ' ')+1:], 64)
		require.NoError(t, err, line)
		sum, found = sum+v, true
	}
	require.True(t, found || zeroIfAbsent, "no metric %s in\n%s", prefix, body)
	return sum
}

func (g *gatewayProxy) get(t *testing.T, path string) string {
	t.Helper()
	ctx := testContext(t)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+g.metrics+path, nil)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, string(body))
	return string(body)
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

const carolWritesA = `acls:
  - {principal: carol, resourceType: topic, patternType: prefixed, name: "a.", operations: [write, create], permission: allow}
`

// produceOne produces one record and returns the error of its topic.
func produceOne(t *testing.T, cl *kgo.Client, topic string) error {
	t.Helper()
	return cl.ProduceSync(testContext(t), &kgo.Record{Topic: topic, Value: []byte("v")}).FirstErr()
}

// ACLs through kafkaproxy -config: carol writes her topics and not
// another's, bob (no ACL) nothing.
func TestGatewayACL(t *testing.T) {
	c := startCluster(t, 1, kfake.SeedTopics(1, "a.orders", "b.orders"))
	g := startPolicyGateway(t, c, carolWritesA)
	carol := client(t, g.bootstrap, kgo.ClientID("carol"), kgo.RetryTimeout(2*time.Second))
	bob := client(t, g.bootstrap, kgo.ClientID("bob"), kgo.RetryTimeout(2*time.Second))

	require.NoError(t, produceOne(t, carol, "a.orders"))
	assert.ErrorIs(t, produceOne(t, carol, "b.orders"), kerr.TopicAuthorizationFailed)
	assert.ErrorIs(t, produceOne(t, bob, "a.orders"), kerr.TopicAuthorizationFailed)

	// The broker holds only carol's record.
	direct := client(t, c.ListenAddrs()[0], kgo.ConsumeTopics("a.orders", "b.orders"), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	assert.Equal(t, []string{"v"}, consume(t, direct, 1))
	// Refused in Metadata (kgo asks before producing) or in Produce.
	assert.GreaterOrEqual(t, g.scrape(t, `kafkaproxy_authorization_refusals_total{`), 2.0)
	assert.Greater(t, g.scrape(t, `kafkaproxy_requests_total{api="Produce"`), 0.0)
	assert.Greater(t, g.scrape(t, `kafkaproxy_request_duration_seconds_count{api="Metadata"`), 0.0)
	assert.Equal(t, "ok\n", g.get(t, "/healthz"))
}

// A reload that denies carol changes the answer on the connection she
// already has, which stays open: one wire.Conn, one TCP connection.
func TestGatewayReloadOnLiveConnection(t *testing.T) {
	c := startCluster(t, 1, kfake.SeedTopics(1, "a.orders"))
	g := startPolicyGateway(t, c, carolWritesA)
	conn, err := wire.Dial(testContext(t), g.bootstrap, wire.ConnConfig{ClientID: "carol"})
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	describe := func() int16 {
		req := &kafkamsg.MetadataRequest{}
		req.Reset()
		req.Topics = []kafkamsg.MetadataRequestTopic{{Name: runtime.NullString{Value: "a.orders", Valid: true}}}
		resp := &kafkamsg.MetadataResponse{}
		require.NoError(t, conn.DoAt(testContext(t), req, 12, resp))
		require.Len(t, resp.Topics, 1)
		return resp.Topics[0].ErrorCode
	}
	assert.Zero(t, describe(), "WRITE implies DESCRIBE")
	g.reload(t, carolWritesA+`  - {principal: carol, resourceType: topic, name: a.orders, operations: [describe], permission: deny}
`)
	assert.Equal(t, int16(29), describe(), "denied after the reload, on the same connection")
	assert.Equal(t, 1.0, g.scrape(t, "kafkaproxy_connections_total"))
	assert.Equal(t, 1.0, g.scrape(t, "kafkaproxy_connections{"), "still open")
}

// A bad file on SIGHUP keeps the configuration in force, and says why.
func TestGatewayBadReload(t *testing.T) {
	c := startCluster(t, 1, kfake.SeedTopics(1, "a.orders"))
	g := startPolicyGateway(t, c, carolWritesA)
	data, err := os.ReadFile(g.file)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(g.file, append(data, "acls2: []\n"...), 0o600))
	g.hup <- os.Interrupt
	require.Eventually(t, func() bool { return strings.Contains(g.logs.String(), "the configuration in force stays") }, 10*time.Second, 10*time.Millisecond)
	assert.Regexp(t, regexp.MustCompile(`reload: .*kafkaproxy.yaml: line \d+: unknown key acls2`), g.logs.String())
	carol := client(t, g.bootstrap, kgo.ClientID("carol"))
	require.NoError(t, produceOne(t, carol, "a.orders"))
}

// A produce quota holds its principal near the rate while another
// principal, on the same proxy, produces unthrottled; the throttled answers
// carry throttle_time_ms.
func TestGatewayQuota(t *testing.T) {
	const quotaRate = 256 << 10
	c := startCluster(t, 1, kfake.SeedTopics(1, "slow", "fast"))
	g := startPolicyGateway(t, c, fmt.Sprintf(`allowEveryoneIfNoAclFound: true
quotas:
  - {principal: bob, produceBytesPerSecond: %d}
`, quotaRate))
	var throttles [2]atomic.Int64 // bob, alice
	hook := func(i int) kgo.Opt {
		return kgo.WithHooks(throttleHook(func(d time.Duration) {
			if d > 0 {
				throttles[i].Add(1)
			}
		}))
	}
	bob := client(t, g.bootstrap, kgo.ClientID("bob"), hook(0), kgo.ProducerLinger(0))
	alice := client(t, g.bootstrap, kgo.ClientID("alice"), hook(1), kgo.ProducerLinger(0))
	// Random bytes: the quota counts the bytes sent, compressed, and
	// zeros compress to nothing.
	value := make([]byte, 16<<10)
	_, _ = rand.Read(value)

	const run = 3 * time.Second
	var sent [2]atomic.Int64
	var wg sync.WaitGroup
	for i, cl := range []*kgo.Client{bob, alice} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			topic := [...]string{"slow", "fast"}[i]
			deadline := time.Now().Add(run)
			for n := 0; n < 100000 && time.Now().Before(deadline); n++ {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				err := cl.ProduceSync(ctx, &kgo.Record{Topic: topic, Value: value}).FirstErr()
				cancel()
				if err != nil {
					t.Errorf("%s: %v", topic, err)
					return
				}
				sent[i].Add(int64(len(value)))
			}
		}()
	}
	start := time.Now()
	wg.Wait()
	elapsed := time.Since(start).Seconds()
	bobRate, aliceRate := float64(sent[0].Load())/elapsed, float64(sent[1].Load())/elapsed
	t.Logf("over %.1fs: bob %.0f B/s (quota %d), alice %.0f B/s; throttled answers: bob %d, alice %d",
		elapsed, bobRate, quotaRate, aliceRate, throttles[0].Load(), throttles[1].Load())
	// A second's burst comes on top of the rate: at most (run+1)/run of it,
	// and a margin for the last request's bytes.
	bound := quotaRate * (run.Seconds() + 1) / run.Seconds() * 1.15
	assert.LessOrEqual(t, bobRate, bound, "bob held to his quota")
	assert.GreaterOrEqual(t, bobRate, quotaRate*0.5, "bob still produces")
	// Alice's speed is the machine's; what shows she is not held is that
	// she passes the bound bob is held to, and is never throttled.
	assert.Greater(t, aliceRate, bound, "alice not held to bob's quota")
	assert.Positive(t, throttles[0].Load(), "bob's answers carry throttle_time_ms")
	assert.Zero(t, throttles[1].Load(), "alice's do not")
	assert.Positive(t, g.scrape(t, "kafkaproxy_throttle_seconds_total"))
}

// throttleHook is a kgo hook told of each answer's throttle_time_ms.
type throttleHook func(time.Duration)

func (h throttleHook) OnBrokerThrottle(_ kgo.BrokerMetadata, d time.Duration, _ bool) { h(d) }

var _ kgo.HookBrokerThrottle = throttleHook(nil)

// A consumer group through the gateway with only the ACLs Kafka asks of a
// consumer (READ on the topic and the group): join, fetch, commit, and the
// committed offsets read back; without READ on the group, the group's
// error.
func TestGatewayConsumerGroup(t *testing.T) {
	c := startCluster(t, 3, kfake.SeedTopics(3, "a.orders"))
	g := startPolicyGateway(t, c, `superUsers: [root]
acls:
  - {principal: carol, resourceType: topic, patternType: prefixed, name: "a.", operations: [read], permission: allow}
  - {principal: carol, resourceType: group, name: readers, operations: [read], permission: allow}
  - {principal: dave, resourceType: topic, patternType: prefixed, name: "a.", operations: [read], permission: allow}
`)
	root := client(t, g.bootstrap, kgo.ClientID("root"))
	sent := produce(t, root, "a.orders", 30)

	carol := client(t, g.bootstrap, kgo.ClientID("carol"), kgo.ConsumerGroup("readers"), kgo.ConsumeTopics("a.orders"),
		kgo.FetchMaxWait(200*time.Millisecond), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	assert.Equal(t, values(sent), consume(t, carol, 30))
	require.NoError(t, carol.CommitUncommittedOffsets(testContext(t)))
	committed := client(t, g.bootstrap, kgo.ClientID("carol"))
	offsets, err := kadmFetchOffsets(t, committed, "readers")
	require.NoError(t, err)
	assert.Equal(t, int64(30), offsets, "the offsets carol committed, summed over the partitions")

	dave := client(t, g.bootstrap, kgo.ClientID("dave"), kgo.ConsumerGroup("readers"), kgo.ConsumeTopics("a.orders"),
		kgo.FetchMaxWait(200*time.Millisecond))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var groupErr error
	for groupErr == nil && ctx.Err() == nil {
		for _, e := range dave.PollFetches(ctx).Errors() {
			groupErr = e.Err
		}
	}
	assert.ErrorIs(t, groupErr, kerr.GroupAuthorizationFailed)
}

// kadmFetchOffsets sums the committed offsets of group, read with an
// OffsetFetch of all its topics.
func kadmFetchOffsets(t *testing.T, cl *kgo.Client, group string) (int64, error) {
	t.Helper()
	req := kmsg.NewPtrOffsetFetchRequest()
	req.Group = group
	resp, err := req.RequestWith(testContext(t), cl)
	if err != nil {
		return 0, err
	}
	if err := kerr.ErrorForCode(resp.ErrorCode); err != nil {
		return 0, err
	}
	var sum int64
	for _, topic := range resp.Topics {
		for _, p := range topic.Partitions {
			if err := kerr.ErrorForCode(p.ErrorCode); err != nil {
				return 0, err
			}
			sum += p.Offset
		}
	}
	return sum, nil
}

// A transaction with only the ACLs Kafka asks of a transactional producer
// (WRITE on its transactional id and its topics), consumed read_committed
// by a reader with READ; another transactional id is refused.
func TestGatewayTransaction(t *testing.T) {
	c := startCluster(t, 3, kfake.SeedTopics(3, "a.payments"))
	g := startPolicyGateway(t, c, `acls:
  - {principal: carol, resourceType: transactionalId, name: tx-1, operations: [write], permission: allow}
  - {principal: carol, resourceType: topic, patternType: prefixed, name: "a.", operations: [write, read], permission: allow}
`)
	txn := client(t, g.bootstrap, kgo.ClientID("carol"), kgo.TransactionalID("tx-1"), kgo.DefaultProduceTopic("a.payments"))
	require.NoError(t, txn.BeginTransaction())
	sent := produce(t, txn, "a.payments", 20)
	require.NoError(t, txn.EndTransaction(testContext(t), kgo.TryCommit))
	reader := client(t, g.bootstrap, kgo.ClientID("carol"), kgo.ConsumeTopics("a.payments"), kgo.FetchIsolationLevel(kgo.ReadCommitted()))
	assert.Equal(t, values(sent), consume(t, reader, 20))

	other := client(t, g.bootstrap, kgo.ClientID("carol"), kgo.TransactionalID("tx-2"), kgo.DefaultProduceTopic("a.payments"),
		kgo.RetryTimeout(2*time.Second))
	// kgo asks for a producer id at the start of the transaction or at
	// the first record: either is refused.
	err := other.BeginTransaction()
	if err == nil {
		err = other.ProduceSync(testContext(t), &kgo.Record{Value: []byte("x")}).FirstErr()
	}
	assert.ErrorIs(t, err, kerr.TransactionalIDAuthorizationFailed)
}

// A fetch quota holds a consumer near its rate while another principal
// reads the same topic unthrottled.
func TestGatewayFetchQuota(t *testing.T) {
	const quotaRate, fetchBytes = 256 << 10, 64 << 10
	c := startCluster(t, 1, kfake.SeedTopics(1, "data"))
	g := startPolicyGateway(t, c, fmt.Sprintf(`allowEveryoneIfNoAclFound: true
quotas:
  - {principal: bob, fetchBytesPerSecond: %d}
`, quotaRate))
	root := client(t, g.bootstrap, kgo.ClientID("root"), kgo.ProducerLinger(0))
	value := make([]byte, 16<<10)
	_, _ = rand.Read(value)
	const records = 256 // 4 MiB, a batch each: a fetch returns whole batches
	for range records {
		require.NoError(t, root.ProduceSync(testContext(t), &kgo.Record{Topic: "data", Value: value}).FirstErr())
	}

	const run = 3 * time.Second
	read := func(principal string) float64 {
		cl := client(t, g.bootstrap, kgo.ClientID(principal), kgo.ConsumeTopics("data"), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
			kgo.FetchMaxBytes(fetchBytes), kgo.FetchMaxPartitionBytes(fetchBytes), kgo.FetchMaxWait(100*time.Millisecond))
		ctx, cancel := context.WithTimeout(context.Background(), run)
		defer cancel()
		start, got := time.Now(), 0
		for got < records && ctx.Err() == nil {
			cl.PollFetches(ctx).EachRecord(func(r *kgo.Record) { got++ })
		}
		return float64(got*len(value)) / time.Since(start).Seconds()
	}
	var bobRate, aliceRate float64
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); bobRate = read("bob") }()
	go func() { defer wg.Done(); aliceRate = read("alice") }()
	wg.Wait()
	t.Logf("bob %.0f B/s (fetch quota %d), alice %.0f B/s", bobRate, quotaRate, aliceRate)
	// The burst of a second, and the fetch that went into debt.
	bound := (quotaRate*(run.Seconds()+1) + fetchBytes) / run.Seconds() * 1.15
	assert.LessOrEqual(t, bobRate, bound, "bob held to his fetch quota")
	assert.Positive(t, bobRate)
	assert.Greater(t, aliceRate, bound, "alice not held to bob's quota")
	assert.Positive(t, g.scrape(t, "kafkaproxy_throttle_seconds_total"))
}

// A producer that may write but not create a topic does not make the
// broker create it; once a reload gives it CREATE, it does.
func TestGatewayNoAutoCreateWithoutCreate(t *testing.T) {
	c := startCluster(t, 1)
	writeOnly := `acls:
  - {principal: carol, resourceType: topic, patternType: prefixed, name: "a.", operations: [write], permission: allow}
`
	g := startPolicyGateway(t, c, writeOnly)
	carol := client(t, g.bootstrap, kgo.ClientID("carol"), kgo.RetryTimeout(time.Second), kgo.AllowAutoTopicCreation())
	assert.ErrorIs(t, produceOne(t, carol, "a.new"), kerr.UnknownTopicOrPartition)
	direct := client(t, c.ListenAddrs()[0])
	assert.NotContains(t, topicNames(metadata(t, direct)), "a.new", "not created")

	g.reload(t, strings.Replace(writeOnly, "[write]", "[write, create]", 1))
	require.NoError(t, produceOne(t, carol, "a.new"))
	assert.Contains(t, topicNames(metadata(t, direct)), "a.new")
}
