package main

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/wire"
	"github.com/kafkagen/kafkagen/wire/frames"
)

func TestAnswerBudgetLimit(t *testing.T) {
	tests := []struct {
		name   string
		limits wire.Limits
		want   int64
	}{
		{"defaults", wire.Limits{}, frames.DefaultMaxFrameSize},
		{"the largest response", wire.Limits{MaxResponseSize: 8 << 20}, 8 << 20},
		{"the queued response bytes", wire.Limits{MaxResponseSize: 8 << 20, QueuedMaxResponseBytes: 32 << 20}, 32 << 20},
		{"no limit", wire.Limits{QueuedMaxResponseBytes: -1}, math.MaxInt64},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, newAnswerBudget(tt.limits).limit, tt.name)
	}
}

// An answer waits while larger ones hold the budget, and goes once they
// are given back; small answers and an answer alone never wait.
func TestAnswerBudgetWaits(t *testing.T) {
	budget := newAnswerBudget(wire.Limits{QueuedMaxResponseBytes: 100 << 20})
	first := answerHold{budget: budget}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, first.take(ctx, 150<<20), "an answer over the limit goes alone")
	require.NoError(t, first.take(ctx, smallAnswer), "a small answer never waits")

	second := answerHold{budget: budget}
	short, cancelShort := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancelShort()
	require.ErrorIs(t, second.take(short, 1<<20), context.DeadlineExceeded, "a large answer waits while the budget is full")
	assert.Zero(t, second.held)

	taken := make(chan error, 1)
	go func() { taken <- second.take(ctx, 1<<20) }()
	assert.Equal(t, int64(150<<20+smallAnswer), first.giveBack())
	require.NoError(t, <-taken, "given back: the waiting answer goes")
	assert.Equal(t, int64(1<<20), second.giveBack())
	assert.Zero(t, budget.used)
}
