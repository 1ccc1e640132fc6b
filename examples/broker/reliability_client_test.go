//go:build reliability

package main

import (
	"cmp"
	"context"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
)

// normalTopic is the topic the normal client of every row writes and reads.
const normalTopic = "normal"

// normalCallTimeout bounds each round trip of the normal client: the issue
// saw other clients stall 1-3 s, and one time out at 5 s.
const normalCallTimeout = 5 * time.Second

// normalClient is a well-behaved client served during and after an attack:
// each round trip is a Metadata, a small Produce at acks=-1 and a Fetch of
// what it produced. It remembers what was acknowledged, to find it in the
// log at the end.
type normalClient struct {
	addr    string
	served  atomic.Int64
	tries   atomic.Int64
	seq     atomic.Int64
	mu      sync.Mutex
	acked   map[int64]string // offset: value
	failure error            // the first round trip's error, for the message
}

func newNormalClient(addr string) *normalClient {
	return &normalClient{addr: addr, acked: map[int64]string{}}
}

// dial connects a wire client, closed when the test ends.
func (n *normalClient) dial(t *testing.T, clientID string) *wire.Client {
	t.Helper()
	conn, err := net.DialTimeout("tcp", n.addr, normalCallTimeout)
	require.NoError(t, err)
	cl := wire.NewClient(conn, wire.ClientConfig{ClientID: runtime.NewNullString(clientID), RequestTimeout: normalCallTimeout})
	t.Cleanup(func() { cl.Close() })
	return cl
}

// count runs one round trip on cl and counts it.
func (n *normalClient) count(cl *wire.Client) {
	n.tries.Add(1)
	if err := n.roundTrip(cl); err != nil {
		n.mu.Lock()
		n.failure = cmp.Or(n.failure, err)
		n.mu.Unlock()
		return
	}
	n.served.Add(1)
}

// tally is the row's "served=K/K".
func (n *normalClient) tally() string {
	return fmt.Sprintf("%d/%d", n.served.Load(), n.tries.Load())
}

// firstFailure is the first round trip's error, nil if none failed.
func (n *normalClient) firstFailure() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.failure
}

func callWithin(cl *wire.Client, req runtime.APIMessage, version int16, resp runtime.APIMessage) error {
	ctx, cancel := context.WithTimeout(context.Background(), normalCallTimeout)
	defer cancel()
	return cl.Do(ctx, req, version, resp)
}

func (n *normalClient) roundTrip(cl *wire.Client) error {
	meta := kafkamsg.NewMetadataResponse()
	if err := callWithin(cl, kafkamsg.NewMetadataRequest(), 12, meta); err != nil {
		return err
	}
	if len(meta.Brokers) != 1 {
		return fmt.Errorf("metadata lists %d brokers", len(meta.Brokers))
	}
	value := fmt.Sprintf("normal-%d", n.seq.Add(1))
	b := records.NewBatchBuilder()
	b.Append(time.Now().UnixMilli(), nil, []byte(value))
	blob, err := b.AppendTo(nil)
	if err != nil {
		return err
	}
	produced := kafkamsg.NewProduceResponse()
	if err := callWithin(cl, produceReq(normalTopic, 0, -1, blob), 9, produced); err != nil {
		return err
	}
	p := produced.Responses[0].PartitionResponses[0]
	if p.ErrorCode != codeNone {
		return fmt.Errorf("produce: error %d %v", p.ErrorCode, p.ErrorMessage)
	}
	n.mu.Lock()
	n.acked[p.BaseOffset] = value
	n.mu.Unlock()
	got, err := n.fetchFrom(cl, p.BaseOffset)
	if err != nil {
		return err
	}
	if len(got) == 0 || got[0].Value != value {
		return fmt.Errorf("fetch at %d: %v, want %q", p.BaseOffset, got, value)
	}
	return nil
}

// offsetValue is a record read back.
type offsetValue struct {
	Offset int64
	Value  string
}

// fetchFrom reads the normal topic from offset, every CRC checked.
func (n *normalClient) fetchFrom(cl *wire.Client, offset int64) ([]offsetValue, error) {
	fetched := kafkamsg.NewFetchResponse()
	if err := callWithin(cl, fetchReq(12, normalTopic, runtime.UUID{}, 0, offset), 12, fetched); err != nil {
		return nil, err
	}
	if fetched.ErrorCode != codeNone || len(fetched.Responses) != 1 || len(fetched.Responses[0].Partitions) != 1 {
		return nil, fmt.Errorf("fetch at %d: error %d, %d topics", offset, fetched.ErrorCode, len(fetched.Responses))
	}
	part := fetched.Responses[0].Partitions[0]
	if part.ErrorCode != codeNone {
		return nil, fmt.Errorf("fetch at %d: error %d", offset, part.ErrorCode)
	}
	var r records.Reader
	var rr records.RecordReader
	var dec records.Decompressor
	var out []offsetValue
	r.Reset(part.Records)
	for r.Next() {
		if err := rr.Reset(r.Batch(), &dec); err != nil {
			return nil, err
		}
		var rec records.Record
		for rr.Next(&rec) {
			out = append(out, offsetValue{rec.Offset, string(rec.Value)})
		}
		if err := rr.Err(); err != nil {
			return nil, err
		}
	}
	return out, r.Err()
}

// loop runs round trips on cl every 100 ms (at most 3,000) until the
// returned stop is called (again when the test ends, which does nothing).
func (n *normalClient) loop(t *testing.T, cl *wire.Client) (stop func()) {
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for i := 0; i < 3000; i++ {
			select {
			case <-quit:
				return
			case <-tick.C:
				n.count(cl)
			}
		}
	}()
	stop = sync.OnceFunc(func() { close(quit); <-done })
	t.Cleanup(stop)
	return stop
}

// checkLog reads the whole normal topic: every acknowledged record is at
// the offset it was acknowledged at, and offsets follow one another.
func (n *normalClient) checkLog(t *testing.T, cl *wire.Client) {
	t.Helper()
	var all []offsetValue
	for i := 0; i < 1000; i++ {
		got, err := n.fetchFrom(cl, int64(len(all)))
		require.NoError(t, err)
		if len(got) == 0 {
			break
		}
		all = append(all, got...)
	}
	for i, r := range all {
		require.Equal(t, int64(i), r.Offset, "offsets follow one another")
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	for offset, value := range n.acked {
		if assert.Less(t, offset, int64(len(all)), "acknowledged %q at %d is in the log", value, offset) {
			assert.Equal(t, value, all[offset].Value, "acknowledged record at %d", offset)
		}
	}
}
