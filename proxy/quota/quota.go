// Package quota holds principals to the produce and fetch byte rates and
// the request time their quotas give, as Kafka's brokers do (KIP-219): an
// answer over the quota carries throttle_time_ms, and the proxy stops
// reading that client's connection for that long. Each principal has its
// own budget, and a throttled connection is the only one that waits, so one
// principal's throttling never slows another's.
package quota

import (
	"fmt"
	"math"
	"strings"
	"sync"
	"time"
)

// Limits are one principal's quotas; 0 is no limit.
type Limits struct {
	ProduceBytesPerSecond float64
	FetchBytesPerSecond   float64
	// RequestPercentage is the share of one second per second that the
	// principal's requests may take from request to answer (Kafka's
	// request_percentage, measured here on the round trips the proxy
	// sees, Produce and Fetch).
	RequestPercentage float64
}

// Check reports the first quota out of range.
func (l Limits) Check() error {
	for _, q := range []struct {
		name string
		v    float64
	}{{"produceBytesPerSecond", l.ProduceBytesPerSecond}, {"fetchBytesPerSecond", l.FetchBytesPerSecond}, {"requestPercentage", l.RequestPercentage}} {
		if q.v < 0 || math.IsNaN(q.v) || math.IsInf(q.v, 0) {
			return fmt.Errorf("%s is %v; give a positive number, or 0 for no limit", q.name, q.v)
		}
	}
	return nil
}

// MaxThrottle bounds one throttle, as a client waits for no longer than a
// request timeout.
const MaxThrottle = 30 * time.Second

// Quotas keeps the budgets of the principals; Reload replaces the limits
// and keeps what each principal has used.
type Quotas struct {
	mu      sync.Mutex
	limits  map[string]Limits
	buckets map[string]*principalBuckets
	now     func() time.Time
}

// principalBuckets are one principal's three budgets.
type principalBuckets struct {
	produce, fetch, time bucket
}

// New holds the principals named in limits to them; others are not limited.
func New(limits map[string]Limits) (*Quotas, error) {
	q := &Quotas{buckets: map[string]*principalBuckets{}, now: time.Now}
	if err := q.Reload(limits); err != nil {
		return nil, err
	}
	return q, nil
}

// Reload replaces the limits, or keeps the old ones and returns why the new
// are wrong.
func (q *Quotas) Reload(limits map[string]Limits) error {
	checked := make(map[string]Limits, len(limits))
	for p, l := range limits {
		if err := l.Check(); err != nil {
			return fmt.Errorf("quota of %q: %w", p, err)
		}
		checked[strings.TrimPrefix(p, "User:")] = l
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	q.limits = checked
	return nil
}

// Kind is what a use counts against.
type Kind int8

// The three quotas.
const (
	ProduceBytes Kind = iota
	FetchBytes
	RequestTime // in nanoseconds
)

// Record counts amount (bytes, or nanoseconds for RequestTime) against the
// principal's quota of kind, and returns how long its connection must wait
// for the principal to be back within it (0: it is).
func (q *Quotas) Record(principal string, kind Kind, amount float64) time.Duration {
	principal = strings.TrimPrefix(principal, "User:")
	q.mu.Lock()
	defer q.mu.Unlock()
	l, ok := q.limits[principal]
	if !ok {
		return 0
	}
	rate := l.ProduceBytesPerSecond
	switch kind {
	case FetchBytes:
		rate = l.FetchBytesPerSecond
	case RequestTime:
		rate = l.RequestPercentage / 100 * float64(time.Second)
	}
	if rate == 0 {
		return 0
	}
	b := q.buckets[principal]
	if b == nil {
		b = &principalBuckets{}
		q.buckets[principal] = b
	}
	bk := &b.produce
	switch kind {
	case FetchBytes:
		bk = &b.fetch
	case RequestTime:
		bk = &b.time
	}
	return bk.take(q.now(), rate, amount)
}

// bucket is a token bucket: it fills at the quota's rate up to one second's
// worth (the burst a client may send at once), and a use takes from it; a
// bucket in debt has its principal wait until the debt is paid.
type bucket struct {
	tokens float64
	at     time.Time
}

func (b *bucket) take(now time.Time, rate, amount float64) time.Duration {
	if b.at.IsZero() {
		b.tokens = rate
	} else {
		b.tokens = min(rate, b.tokens+now.Sub(b.at).Seconds()*rate)
	}
	b.at = now
	b.tokens -= amount
	if b.tokens >= 0 {
		return 0
	}
	wait := time.Duration(-b.tokens / rate * float64(time.Second))
	return min(wait, MaxThrottle)
}
