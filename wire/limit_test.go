package wire

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/wire/frames"
)

func TestLimitsDefaults(t *testing.T) {
	cases := []struct {
		name                 string
		in                   Limits
		alias                bool
		requests, responses  int64
		read, idle, write    time.Duration
		maxRequest, maxReply int
	}{
		{"zero, copying", Limits{}, false, 2 * frames.DefaultMaxFrameSize, frames.DefaultMaxFrameSize, 30 * time.Second, 10 * time.Minute, 30 * time.Second, frames.DefaultMaxFrameSize, frames.DefaultMaxFrameSize},
		{"zero, aliasing", Limits{}, true, frames.DefaultMaxFrameSize, frames.DefaultMaxFrameSize, 30 * time.Second, 10 * time.Minute, 30 * time.Second, frames.DefaultMaxFrameSize, frames.DefaultMaxFrameSize},
		{"sizes set", Limits{MaxRequestSize: 1 << 20, MaxResponseSize: 2 << 20}, true, 1 << 20, 2 << 20, 30 * time.Second, 10 * time.Minute, 30 * time.Second, 1 << 20, 2 << 20},
		{"negative turns off", Limits{QueuedMaxRequestBytes: -1, QueuedMaxResponseBytes: -1, RequestReadTimeout: -1, ConnectionsMaxIdle: -1, WriteTimeout: -1}, false, 0, 0, 0, 0, 0, frames.DefaultMaxFrameSize, frames.DefaultMaxFrameSize},
		{"set", Limits{QueuedMaxRequestBytes: 1 << 30, RequestReadTimeout: time.Second, ConnectionsMaxIdle: time.Minute, WriteTimeout: 2 * time.Second}, true, 1 << 30, frames.DefaultMaxFrameSize, time.Second, time.Minute, 2 * time.Second, frames.DefaultMaxFrameSize, frames.DefaultMaxFrameSize},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, err := c.in.resolve(c.alias)
			require.NoError(t, err)
			assert.Equal(t, c.requests, l.QueuedMaxRequestBytes)
			assert.Equal(t, c.responses, l.QueuedMaxResponseBytes)
			assert.Equal(t, c.read, l.RequestReadTimeout)
			assert.Equal(t, c.idle, l.ConnectionsMaxIdle)
			assert.Equal(t, c.write, l.WriteTimeout)
			assert.Equal(t, c.maxRequest, l.MaxRequestSize)
			assert.Equal(t, c.maxReply, l.MaxResponseSize)
		})
	}
}

// acquireAsync starts an acquire and returns the channel of its result.
func acquireAsync(b *byteBudget, ctx context.Context, n int64) chan error {
	done := make(chan error, 1)
	go func() { done <- b.acquire(ctx, n) }()
	return done
}

// waitWaiting waits until n acquires are queued.
func waitWaiting(t *testing.T, b *byteBudget, n int) {
	t.Helper()
	for i := 0; i < 500; i++ {
		if _, _, w := b.usage(); w == n {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
	_, _, w := b.usage()
	t.Fatalf("%d waiting, want %d", w, n)
}

func requirePending(t *testing.T, done chan error) {
	t.Helper()
	select {
	case err := <-done:
		t.Fatalf("acquire returned %v while it should wait", err)
	case <-time.After(20 * time.Millisecond):
	}
}

// Waiters are served in arrival order: a large one is not passed by
// smaller ones that would fit.
func TestByteBudgetOrder(t *testing.T) {
	ctx := context.Background()
	b := &byteBudget{limit: 1 << 20}
	require.NoError(t, b.acquire(ctx, 800<<10))
	large := acquireAsync(b, ctx, 900<<10)
	waitWaiting(t, b, 1)
	medium := acquireAsync(b, ctx, 100<<10) // would fit, but waits behind large
	waitWaiting(t, b, 2)
	requirePending(t, medium)

	// A small frame never waits, even past the limit.
	require.NoError(t, b.acquire(ctx, smallFrame))
	used, peak, _ := b.usage()
	assert.EqualValues(t, 800<<10+smallFrame, used)
	assert.EqualValues(t, used, peak)

	b.release(800 << 10)
	b.release(smallFrame)
	require.NoError(t, <-large)
	require.NoError(t, <-medium)
	used, peak, waiting := b.usage()
	assert.EqualValues(t, 1000<<10, used)
	assert.EqualValues(t, 1000<<10, peak)
	assert.Zero(t, waiting)
}

// A waiter whose ctx ends leaves the queue, and those behind it move up.
func TestByteBudgetCancel(t *testing.T) {
	b := &byteBudget{limit: 1 << 20}
	require.NoError(t, b.acquire(context.Background(), 1<<20))
	ctx, cancel := context.WithCancel(context.Background())
	first := acquireAsync(b, ctx, 1<<20)
	waitWaiting(t, b, 1)
	second := acquireAsync(b, context.Background(), 512<<10)
	waitWaiting(t, b, 2)
	cancel()
	assert.ErrorIs(t, <-first, context.Canceled)
	requirePending(t, second)
	b.release(1 << 20)
	require.NoError(t, <-second)
	used, _, waiting := b.usage()
	assert.EqualValues(t, 512<<10, used)
	assert.Zero(t, waiting)
}

// Without a limit everything passes and is counted.
func TestByteBudgetUnlimited(t *testing.T) {
	b := &byteBudget{}
	for range 3 {
		require.NoError(t, b.acquire(context.Background(), 1<<30))
	}
	used, peak, _ := b.usage()
	assert.EqualValues(t, 3<<30, used)
	assert.EqualValues(t, 3<<30, peak)
}
