package main

import (
	"context"
	"sync"
)

// smallAnswer is the size up to which an answer never waits for the
// answer budget (but counts): the heartbeats, metadata and small fetches
// that keep clients alive pass while large answers wait, as wire lets
// small frames pass its queued bytes.
const smallAnswer = 64 << 10

// answerBudget bounds the bytes of Fetch records the broker has copied
// into answers that wire has not yet written, over every connection. A
// connection whose peer does not read holds its answer until wire's write
// timeout; without the bound, every other connection asking for a large
// answer copied its own and held it while waiting to be written (issue 18:
// 20 connections fetching a 64 MiB log held 4 GiB).
type answerBudget struct {
	limit int64

	mu    sync.Mutex
	used  int64
	freed chan struct{} // closed and replaced when bytes are given back
}

func newAnswerBudget(limit int64) *answerBudget {
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
