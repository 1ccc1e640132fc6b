package main

import (
	"context"
	"math"
	"sync"

	"github.com/kafkagen/kafkagen/wire"
	"github.com/kafkagen/kafkagen/wire/frames"
)

// smallAnswer is the size up to which an answer never waits for the
// answer budget (but counts): the heartbeats, metadata and small fetches
// that keep clients alive pass while large answers wait, as wire lets
// small frames pass its queued bytes.
const smallAnswer = 64 << 10

// answerBudget bounds the bytes of Fetch records the broker has copied
// into answers that wire has not yet written, over every connection, as
// wire's queued response bytes bound the answers being written. A
// connection whose peer does not read holds its answer until wire's write
// timeout; without the bound, every other connection asking for a large
// answer copied its own and held it while waiting to be written (issue 18:
// 20 connections fetching a 64 MiB log held 1.5 GiB).
type answerBudget struct {
	limit int64

	mu    sync.Mutex
	used  int64
	freed chan struct{} // closed and replaced when bytes are given back
}

// newAnswerBudget bounds answers as wire bounds the responses of a
// listener with limits: QueuedMaxResponseBytes, by default
// MaxResponseSize, by default frames.DefaultMaxFrameSize; negative: no limit.
func newAnswerBudget(l wire.Limits) *answerBudget {
	limit := l.QueuedMaxResponseBytes
	switch {
	case limit < 0:
		limit = math.MaxInt64
	case limit == 0 && l.MaxResponseSize > 0:
		limit = int64(l.MaxResponseSize)
	case limit == 0:
		limit = frames.DefaultMaxFrameSize
	}
	return &answerBudget{limit: limit, freed: make(chan struct{})}
}

// acquire takes n bytes once they fit, waiting until ctx ends. A small
// answer, or any answer when nothing else is held (one larger than the
// limit passes alone), is taken at once.
func (a *answerBudget) acquire(ctx context.Context, n int64) error {
	for {
		a.mu.Lock()
		if n <= smallAnswer || a.used == 0 || a.used+n <= a.limit {
			a.used += n
			a.mu.Unlock()
			return nil
		}
		freed := a.freed
		a.mu.Unlock()
		select {
		case <-freed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// answerHold is what one connection's answer took from the budget.
type answerHold struct {
	budget *answerBudget
	held   int64
}

// take takes n bytes for the answer being built.
func (h *answerHold) take(ctx context.Context, n int64) error {
	if err := h.budget.acquire(ctx, n); err != nil {
		return err
	}
	h.held += n
	return nil
}

// giveBack gives back what the answer took, once it is written or will not
// be, and returns how much that was.
func (h *answerHold) giveBack() int64 {
	n := h.held
	h.budget.release(n)
	h.held = 0
	return n
}

// release gives back n bytes taken by acquire.
func (a *answerBudget) release(n int64) {
	if n == 0 {
		return
	}
	a.mu.Lock()
	a.used -= n
	close(a.freed)
	a.freed = make(chan struct{})
	a.mu.Unlock()
}
