package wire

import (
	"context"
	"sync"
)

// byteBudget is a byte semaphore shared by a server's connections: the
// bytes of the frames they hold. Waiters are served in arrival order, so a
// large frame is not starved by a stream of smaller ones.
type byteBudget struct {
	limit int64 // 0: no limit (only counted)

	mu      sync.Mutex
	used    int64
	peak    int64
	waiters []*budgetWaiter
}

// budgetWaiter is a connection waiting for n bytes; ready is closed once
// they are its own.
type budgetWaiter struct {
	n     int64
	ready chan struct{}
}

// acquire takes n bytes, waiting while they do not fit (and while others
// wait before it) until ctx ends. A frame of up to smallFrame bytes never
// waits: it is taken at once, even past the limit.
func (b *byteBudget) acquire(ctx context.Context, n int64) error {
	b.mu.Lock()
	if n <= smallFrame || b.limit == 0 || (len(b.waiters) == 0 && b.used+n <= b.limit) {
		b.take(n)
		b.mu.Unlock()
		return nil
	}
	w := &budgetWaiter{n: n, ready: make(chan struct{})}
	b.waiters = append(b.waiters, w)
	b.mu.Unlock()

	select {
	case <-w.ready:
		return nil
	case <-ctx.Done():
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	select {
	case <-w.ready: // granted meanwhile: give it back
		b.used -= n
	default:
		for i, o := range b.waiters {
			if o == w {
				b.waiters = append(b.waiters[:i], b.waiters[i+1:]...)
				break
			}
		}
	}
	b.grant() // the ones behind may fit now
	return ctx.Err()
}

// release gives back n bytes taken by acquire.
func (b *byteBudget) release(n int64) {
	b.mu.Lock()
	b.used -= n
	b.grant()
	b.mu.Unlock()
}

// take counts n bytes as used; b.mu is held.
func (b *byteBudget) take(n int64) {
	b.used += n
	b.peak = max(b.peak, b.used)
}

// grant hands bytes to the waiters at the head of the queue while they fit;
// b.mu is held.
func (b *byteBudget) grant() {
	for len(b.waiters) > 0 && b.used+b.waiters[0].n <= b.limit {
		w := b.waiters[0]
		b.waiters[0] = nil
		b.waiters = b.waiters[1:]
		b.take(w.n)
		close(w.ready)
	}
}

// usage returns the bytes in use, the most ever in use and the number of
// connections waiting.
func (b *byteBudget) usage() (used, peak int64, waiting int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used, b.peak, len(b.waiters)
}
