package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kafkagen/kafkagen/examples/proxy/kafkamsg"
	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// load is one kind of traffic: Produce requests each carrying one batch, or
// Fetch requests each reading the same preloaded megabyte, sent at a fixed
// rate with a bound on those in flight.
type load struct {
	name            string
	produce         bool
	recordSize      int
	recordsPerBatch int
	rate            float64 // requests per second
	inFlight        int
}

// fetchBytes is how much a Fetch of the benchmark reads.
const fetchBytes = 1 << 20

// batch is one record batch of the load's records.
func (l load) batch() []byte {
	b := records.NewBatchBuilder()
	value := make([]byte, l.recordSize)
	for i := range value {
		value[i] = byte(i)
	}
	for i := range l.recordsPerBatch {
		b.Append(1700000000000, []byte("k"+strconv.Itoa(i)), value)
	}
	out, err := b.AppendTo(nil)
	if err != nil {
		panic(err) // a batch of plain records always builds
	}
	return out
}

// countingConn counts the bytes a client writes and reads.
type countingConn struct {
	net.Conn
	written, read atomic.Int64
}

func (c *countingConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.written.Add(int64(n))
	return n, err
}

func (c *countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.read.Add(int64(n))
	return n, err
}

// session is a client connection with the versions it negotiated.
type session struct {
	conn     *countingConn
	cl       *wire.Client
	versions *wire.Negotiated
}

// connect opens a session to addr: TLS and SASL when sec says so, then
// ApiVersions. The bytes counted are the Kafka protocol's, under TLS.
func connect(addr string, sec security) (*session, error) {
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if sec.tls != nil {
		tc := tls.Client(c, sec.tls)
		if err := tc.HandshakeContext(ctx); err != nil {
			c.Close()
			return nil, fmt.Errorf("TLS with %s: %w", addr, err)
		}
		c = tc
	}
	s := &session{conn: &countingConn{Conn: c}}
	if sec.sasl != nil {
		conn, err := wire.NewConn(ctx, s.conn, wire.ConnConfig{ClientID: "proxybench", SoftwareName: "proxybench", SoftwareVersion: "1.0", SASL: sec.sasl})
		if err != nil {
			return nil, fmt.Errorf("ApiVersions and SASL at %s: %w", addr, err)
		}
		s.cl, s.versions = conn.Client(), conn.Negotiated(kafkamsg.NewRequest)
		return s, nil
	}
	s.cl = wire.NewClient(s.conn, wire.ClientConfig{ClientID: runtime.NewNullString("proxybench")})
	req := kafkamsg.NewAPIVersionsRequest()
	req.ClientSoftwareName, req.ClientSoftwareVersion = "proxybench", "1.0"
	resp := kafkamsg.NewAPIVersionsResponse()
	err = s.cl.Do(ctx, req, 3, resp)
	if err == nil {
		err = kerrors.ErrorCode(resp.ErrorCode)
	}
	if err != nil {
		s.cl.Close()
		return nil, fmt.Errorf("ApiVersions at %s: %w", addr, err)
	}
	var ranges []wire.VersionRange
	for _, k := range resp.APIKeys {
		ranges = append(ranges, wire.VersionRange{APIKey: k.APIKey, MinVersion: k.MinVersion, MaxVersion: k.MaxVersion})
	}
	s.versions = wire.Negotiate(ranges, kafkamsg.NewRequest)
	return s, nil
}

// do sends req at the negotiated version and decodes into resp.
func (s *session) do(ctx context.Context, req, resp runtime.APIMessage) error {
	v, err := s.version(req.APIKey())
	if err != nil {
		return err
	}
	return s.cl.Do(ctx, req, v, resp)
}

// version is the version requests of apiKey are sent at.
func (s *session) version(apiKey int16) (int16, error) {
	v, err := s.versions.Version(apiKey)
	if apiKey == kafkamsg.APIKeyProduce && maxProduceVersion >= 0 {
		v = min(v, maxProduceVersion)
	}
	return v, err
}

// maxProduceVersion is -max-produce-version: -1 for the negotiated one.
var maxProduceVersion int16 = -1

// topic asks for topic's id and the address of its leader.
func (s *session) topic(topic string) (runtime.UUID, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req := kafkamsg.NewMetadataRequest()
	t := kafkamsg.NewMetadataRequestTopic()
	t.Name = runtime.NewNullString(topic)
	req.Topics = append(req.Topics, *t)
	resp := kafkamsg.NewMetadataResponse()
	if err := s.do(ctx, req, resp); err != nil {
		return runtime.UUID{}, "", err
	}
	if len(resp.Topics) != 1 || resp.Topics[0].ErrorCode != 0 || len(resp.Topics[0].Partitions) == 0 {
		return runtime.UUID{}, "", fmt.Errorf("metadata of %s: %+v", topic, resp.Topics)
	}
	leader := resp.Topics[0].Partitions[0].LeaderID
	for _, b := range resp.Brokers {
		if b.NodeID == leader {
			return resp.Topics[0].TopicID, net.JoinHostPort(b.Host, strconv.Itoa(int(b.Port))), nil
		}
	}
	return runtime.UUID{}, "", fmt.Errorf("metadata of %s: leader %d is not among the brokers", topic, leader)
}

// produceRequest is a Produce of one batch to partition 0 of topic, named
// by its name up to v12 and by its id from v13 (Kafka 4.1), as Fetch from
// v13.
func produceRequest(topic string, id runtime.UUID, batch []byte) *kafkamsg.ProduceRequest {
	req := kafkamsg.NewProduceRequest()
	req.Acks, req.TimeoutMs = -1, 10000
	td := kafkamsg.NewProduceRequestTopicProduceData()
	td.Name, td.TopicID = topic, id
	pd := kafkamsg.NewProduceRequestPartitionProduceData()
	pd.Records = batch
	td.PartitionData = append(td.PartitionData, *pd)
	req.TopicData = append(req.TopicData, *td)
	return req
}

// fetchRequest reads partition 0 of the topic from offset 0.
func fetchRequest(topic string, id runtime.UUID) *kafkamsg.FetchRequest {
	req := kafkamsg.NewFetchRequest()
	req.MaxWaitMs, req.MinBytes, req.MaxBytes = 0, 1, fetchBytes+(64<<10)
	ft := kafkamsg.NewFetchRequestFetchTopic()
	ft.Topic, ft.TopicID = topic, id
	fp := kafkamsg.NewFetchRequestFetchPartition()
	fp.PartitionMaxBytes = fetchBytes + (64 << 10)
	ft.Partitions = append(ft.Partitions, *fp)
	req.Topics = append(req.Topics, *ft)
	return req
}

// preload writes about fetchBytes of the load's batches to topic.
func preload(s *session, topic string, l load) error {
	batch := l.batch()
	id, _, err := s.topic(topic)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for written := 0; written < fetchBytes-len(batch)/2; written += len(batch) {
		resp := kafkamsg.NewProduceResponse()
		if err := s.do(ctx, produceRequest(topic, id, batch), resp); err != nil {
			return err
		}
		if code := resp.Responses[0].PartitionResponses[0].ErrorCode; code != 0 {
			return fmt.Errorf("preloading %s: %w", topic, kerrors.ErrorCode(code))
		}
	}
	return nil
}

// traffic is what one run measured.
type traffic struct {
	bytes              int64
	latencies          []time.Duration
	failures           int
	firstErr           error
	syscalls, switches int64 // of the relaying process, with -perf
	version            int16 // of the load's requests
}

// drive sends the load's requests through s for d at its rate, after
// warmup requests that are not counted, and calls mark when the counted
// part starts and ends.
func drive(s *session, l load, req runtime.APIMessage, newResp func() runtime.APIMessage, warmup int, d time.Duration, mark func()) traffic {
	var mu sync.Mutex
	var t traffic
	var wg sync.WaitGroup
	sem := make(chan struct{}, l.inFlight)
	send := func(counted bool) {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			start := time.Now()
			resp := newResp()
			err := s.do(ctx, req, resp)
			took := time.Since(start)
			if err == nil {
				err = answerError(resp)
			}
			if !counted {
				return
			}
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				t.failures++
				if t.firstErr == nil {
					t.firstErr = err
				}
				return
			}
			t.latencies = append(t.latencies, took)
		}()
	}
	for range warmup {
		send(false)
	}
	wg.Wait()
	mark()
	before := s.conn.written.Load() + s.conn.read.Load()
	interval := time.Duration(float64(time.Second) / l.rate)
	start := time.Now()
	for next := start; time.Since(start) < d; next = next.Add(interval) {
		time.Sleep(time.Until(next))
		send(true)
	}
	wg.Wait()
	t.bytes = s.conn.written.Load() + s.conn.read.Load() - before
	mark()
	return t
}

// answerError is the first error code of a Produce or Fetch answer: a run
// whose requests were refused (a topic id the broker does not know, an
// authorization) measures nothing.
func answerError(resp runtime.APIMessage) error {
	switch r := resp.(type) {
	case *kafkamsg.ProduceResponse:
		for _, t := range r.Responses {
			for _, p := range t.PartitionResponses {
				if p.ErrorCode != 0 {
					return fmt.Errorf("Produce answered %w", kerrors.ErrorCode(p.ErrorCode))
				}
			}
		}
	case *kafkamsg.FetchResponse:
		if r.ErrorCode != 0 {
			return fmt.Errorf("Fetch answered %w", kerrors.ErrorCode(r.ErrorCode))
		}
		for _, t := range r.Responses {
			for _, p := range t.Partitions {
				if p.ErrorCode != 0 {
					return fmt.Errorf("Fetch answered %w", kerrors.ErrorCode(p.ErrorCode))
				}
			}
		}
	}
	return nil
}
