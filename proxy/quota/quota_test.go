package quota

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeClock is a clock a test moves.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

func TestRecord(t *testing.T) {
	q, err := New(map[string]Limits{"bob": {ProduceBytesPerSecond: 1000, FetchBytesPerSecond: 2000, RequestPercentage: 10}})
	require.NoError(t, err)
	clock := &fakeClock{t: time.Unix(1000, 0)}
	q.now = clock.now
	steps := []struct {
		name      string
		principal string
		kind      Kind
		amount    float64
		advance   time.Duration
		want      time.Duration
	}{
		{"a second's burst is free", "bob", ProduceBytes, 1000, 0, 0},
		{"past it, the debt at the rate", "bob", ProduceBytes, 500, 0, 500 * time.Millisecond},
		{"half a second pays it", "bob", ProduceBytes, 0, 500 * time.Millisecond, 0},
		{"fetch has its own budget", "bob", FetchBytes, 2000, 0, 0},
		{"and its own rate", "bob", FetchBytes, 1000, 0, 500 * time.Millisecond},
		{"request time: 10% of a second per second", "bob", RequestTime, float64(150 * time.Millisecond), 0, 500 * time.Millisecond},
		{"another principal is not limited", "alice", ProduceBytes, 1e9, 0, 0},
		{"User: is the same principal", "User:bob", ProduceBytes, 1000, 0, time.Second},
		{"a long debt is cut at MaxThrottle", "bob", ProduceBytes, 1e9, 0, MaxThrottle},
	}
	for _, s := range steps {
		clock.advance(s.advance)
		assert.Equal(t, s.want, q.Record(s.principal, s.kind, s.amount), s.name)
	}
}

func TestReloadKeepsUse(t *testing.T) {
	q, err := New(map[string]Limits{"bob": {ProduceBytesPerSecond: 1000}})
	require.NoError(t, err)
	clock := &fakeClock{t: time.Unix(1000, 0)}
	q.now = clock.now
	assert.Zero(t, q.Record("bob", ProduceBytes, 1000))
	require.NoError(t, q.Reload(map[string]Limits{"bob": {ProduceBytesPerSecond: 2000}}))
	assert.Equal(t, 500*time.Millisecond, q.Record("bob", ProduceBytes, 1000), "the new rate, the old use")
	require.ErrorContains(t, q.Reload(map[string]Limits{"bob": {FetchBytesPerSecond: -1}}), `quota of "bob": fetchBytesPerSecond is -1`)
	require.NoError(t, q.Reload(nil))
	assert.Zero(t, q.Record("bob", ProduceBytes, 1e9), "no quota any more")
}
