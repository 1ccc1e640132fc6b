package main

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"

	"github.com/kafkagen/kafkagen/interop/internal/scenario"
)

// The quota run: tenantThrottled has a produce quota of quotaLimit, and it
// and tenantFullSpeed, which has none, produce flat out at the same time
// through the gateway, each to a topic of its own cluster, for quotaWindow
// (at most quotaMaxBatches batches each). kafkaproxy enforces quotas as
// Kafka does (KIP-219): the answer that puts a principal in debt carries
// throttle_time_ms, and the proxy reads nothing more from that connection
// for that long. The harness's client ignores throttle_time_ms, as a
// client that misbehaves would: what holds it is the proxy not reading.
// The throttled tenant's rate must stay near its limit, and the other's be
// far above it with a throttle of 0 in every answer: one tenant's quota
// does not slow another.

const (
	// quotaLimit is tenantThrottled's produce quota in bytes per second:
	// far below what the machine does, so that the other tenant's rate
	// can show it was not slowed.
	quotaLimit = 256 << 10
	// quotaWindow is how long both produce.
	quotaWindow = 4 * time.Second
	// A batch of quotaBatchRecords records of quotaValueBytes bytes each,
	// about 16 KiB; each tenant sends at most quotaMaxBatches (about 250
	// MiB): the bound keeps the broker's memory in check and is above what
	// the other tenant writes in the window on an idle machine (about 50
	// MiB/s), so that it produces for the whole of it.
	quotaBatchRecords = 16
	quotaValueBytes   = 1000
	quotaMaxBatches   = 16384
	// The throttled tenant's rate must be within [quotaHeldMin,
	// quotaHeldMax] times the limit, over at least quotaMinMeasured; the
	// other's at least quotaOtherMin times the limit, a margin a loaded
	// two-core machine keeps (the other runs at many MiB/s when idle).
	quotaHeldMin     = 0.5
	quotaHeldMax     = 1.5
	quotaMinMeasured = 2 * time.Second
	quotaOtherMin    = 4
	// quotaTopic is each tenant's topic, deleted after the run.
	quotaTopic = "flat-out"
)

// produced is one answered Produce: when (since the run's start), the
// record bytes it carried, and the answer's throttle_time_ms.
type produced struct {
	At         time.Duration
	Bytes      int
	ThrottleMs int32
}

// producerRun is what one tenant's producer did.
type producerRun struct {
	Acks []produced
	End  time.Duration // when it stopped, since the run's start
	Err  error
}

// heldRate is the rate from the first throttled answer to the end: the
// bucket's burst (one second's worth) is spent by then and the principal
// in debt, so from there on the quota alone sets the pace. ok is false
// when no answer was throttled.
func (r producerRun) heldRate() (rate float64, from time.Duration, ok bool) {
	bytes := 0
	for _, a := range r.Acks {
		switch {
		case ok:
			bytes += a.Bytes
		case a.ThrottleMs > 0:
			from, ok = a.At, true
		}
	}
	if !ok || r.End <= from {
		return 0, from, false
	}
	return float64(bytes) / (r.End - from).Seconds(), from, true
}

// rate is the bytes of every answer over the whole run.
func (r producerRun) rate() float64 {
	if r.End <= 0 {
		return 0
	}
	bytes := 0
	for _, a := range r.Acks {
		bytes += a.Bytes
	}
	return float64(bytes) / r.End.Seconds()
}

// throttled counts the answers with a throttle, and gives the longest.
func (r producerRun) throttled() (n int, longest int32) {
	for _, a := range r.Acks {
		if a.ThrottleMs > 0 {
			n++
			longest = max(longest, a.ThrottleMs)
		}
	}
	return n, longest
}

// quotaOutcome is the quota run's numbers for the gateway line, in bytes
// per second, and what failed.
type quotaOutcome struct {
	Held, Limit, Other float64
	Problems           []string
}

func (q quotaOutcome) String() string {
	return fmt.Sprintf("quota: held=%s limit=%s other=%s", formatRate(q.Held), formatRate(q.Limit), formatRate(q.Other))
}

// formatRate writes bytes per second in KiB/s below a MiB/s, else in MiB/s.
func formatRate(bps float64) string {
	switch {
	case bps >= 1<<20:
		return fmt.Sprintf("%.1fMiB/s", bps/(1<<20))
	case bps >= 1<<10:
		return fmt.Sprintf("%.0fKiB/s", bps/(1<<10))
	}
	return fmt.Sprintf("%.0fB/s", bps)
}

// judgeQuota computes the rates of the two runs and checks them: the
// throttled tenant throttled, held within its bounds of limit over at
// least quotaMinMeasured; the other never throttled and at least
// quotaOtherMin times the limit.
func judgeQuota(held, other producerRun, limit float64) quotaOutcome {
	q := quotaOutcome{Limit: limit, Other: other.rate()}
	problem := func(format string, args ...any) {
		q.Problems = append(q.Problems, "quota: "+fmt.Sprintf(format, args...))
	}
	for _, r := range []struct {
		who string
		run producerRun
	}{{tenantThrottled, held}, {tenantFullSpeed, other}} {
		if r.run.Err != nil {
			problem("%s's producer: %v", r.who, r.run.Err)
		}
	}
	rate, from, ok := held.heldRate()
	q.Held = rate
	switch {
	case !ok:
		problem("%s was never throttled in %d answers (%s over the run)", tenantThrottled, len(held.Acks), formatRate(held.rate()))
	case held.End-from < quotaMinMeasured:
		problem("%s was first throttled at %v of %v: too little left to measure", tenantThrottled, from, held.End)
	case rate > quotaHeldMax*limit || rate < quotaHeldMin*limit:
		problem("%s wrote %s after its first throttle, want %.1f to %.1f times its limit %s", tenantThrottled, formatRate(rate), quotaHeldMin, quotaHeldMax, formatRate(limit))
	}
	if n, longest := other.throttled(); n > 0 {
		problem("%s, which has no quota, was throttled in %d answers (up to %d ms)", tenantFullSpeed, n, longest)
	}
	if q.Other < quotaOtherMin*limit {
		problem("%s wrote %s, want at least %d times %s's limit %s: slowed by it", tenantFullSpeed, formatRate(q.Other), quotaOtherMin, tenantThrottled, formatRate(limit))
	}
	return q
}

// quotaBatch is the record batch both tenants send again and again: the
// broker gives each copy its own offsets.
func quotaBatch() ([]byte, error) {
	bb := records.NewBatchBuilder()
	now := time.Now().UnixMilli()
	value := make([]byte, quotaValueBytes)
	for i := range value {
		value[i] = 'a' + byte(i%26)
	}
	for i := range quotaBatchRecords {
		bb.Append(now, fmt.Appendf(nil, "key-%d", i), value)
	}
	return bb.AppendTo(nil)
}

// runQuota logs both tenants in, each creates quotaTopic in its cluster,
// both produce flat out from the same instant, then each deletes its
// topic (the broker must not hold it at the end), and the rates are
// judged and printed.
func runQuota(ctx context.Context, w io.Writer, d gatewayDialer, held, other gatewayTenant) quotaOutcome {
	ctx, cancel := context.WithTimeout(ctx, quotaWindow+time.Minute)
	defer cancel()
	fail := func(err error) quotaOutcome {
		return quotaOutcome{Limit: held.ProduceQuota, Problems: []string{"quota: " + err.Error()}}
	}
	batch, err := quotaBatch()
	if err != nil {
		return fail(err)
	}
	tenants := []gatewayTenant{held, other}
	conns := make([]*wire.Conn, len(tenants))
	for i, t := range tenants {
		c, err := d.dial(ctx, t.Name, t.Password, scenario.ScramSHA512, "gateway-quota-"+t.Name)
		if err != nil {
			return fail(fmt.Errorf("%s cannot log in: %w", t.Name, err))
		}
		defer c.Close()
		if code, err := createTopic(ctx, c, quotaTopic); err != nil || code != 0 {
			return fail(fmt.Errorf("%s creates %s: code %d, %v", t.Name, quotaTopic, code, err))
		}
		conns[i] = c
	}
	runs := make([]producerRun, len(tenants))
	start := make(chan struct{})
	var t0 time.Time
	var wg sync.WaitGroup
	for i, c := range conns {
		wg.Go(func() {
			<-start
			runs[i] = produceFlatOut(ctx, c, batch, t0, t0.Add(quotaWindow))
		})
	}
	t0 = time.Now()
	close(start)
	wg.Wait()

	q := judgeQuota(runs[0], runs[1], held.ProduceQuota)
	for i, t := range tenants {
		n, longest := runs[i].throttled()
		fmt.Fprintf(w, "gateway: quota: %s wrote %d batches of %d bytes in %v (%s), %d answers throttled (up to %d ms)\n",
			t.Name, len(runs[i].Acks), len(batch), runs[i].End.Round(10*time.Millisecond), formatRate(runs[i].rate()), n, longest)
		if code, err := deleteTopic(ctx, conns[i], quotaTopic, runtime.UUID{}); err != nil || code != 0 {
			q.Problems = append(q.Problems, fmt.Sprintf("quota: %s deletes %s: code %d, %v", t.Name, quotaTopic, code, err))
		}
	}
	fmt.Fprintf(w, "gateway: %s (held: from %s's first throttled answer to the end)\n", q, tenantThrottled)
	return q
}

// produceFlatOut sends batch to quotaTopic, one Produce after the other's
// answer, until deadline or quotaMaxBatches, ignoring throttle_time_ms.
func produceFlatOut(ctx context.Context, c *wire.Conn, batch []byte, t0, deadline time.Time) producerRun {
	var r producerRun
	for range quotaMaxBatches {
		if !time.Now().Before(deadline) {
			break
		}
		code, throttleMs, err := produceBatch(ctx, c, quotaTopic, batch)
		if err == nil && code != 0 {
			err = fmt.Errorf("Produce v9: error code %d", code)
		}
		if err != nil {
			r.Err = err
			break
		}
		r.Acks = append(r.Acks, produced{At: time.Since(t0), Bytes: len(batch), ThrottleMs: throttleMs})
	}
	r.End = time.Since(t0)
	return r
}
