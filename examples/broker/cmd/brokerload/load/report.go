package load

import (
	"errors"
	"fmt"
	"slices"
	"time"
)

// Result is what a phase measured.
type Result struct {
	Config
	Acked              int           // records acknowledged
	Elapsed            time.Duration // from the first request to the last answer
	P50, P90, P99      time.Duration // Produce round trips, acknowledged ones
	Lost, Dup, Reorder int
	// Err joins why streams stopped early (a failed request).
	Err error
}

// Rate is the acknowledged records per second.
func (r Result) Rate() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Acked) / r.Elapsed.Seconds()
}

// Lossless reports that every acknowledged record was read back once, in
// order, where it was acknowledged.
func (r Result) Lossless() bool { return r.Lost == 0 && r.Dup == 0 && r.Reorder == 0 }

// Line is the phase's summary line; peakRSS is the broker's in MiB, or
// negative when unknown.
func (r Result) Line(peakRSS float64) string {
	rss := "n/a"
	if peakRSS >= 0 {
		rss = fmt.Sprintf("%.0f MiB", peakRSS)
	}
	return fmt.Sprintf("brokerload: acks=%d producers=%d inflight=%d records=%d rate=%.0f rec/s p50=%v p90=%v p99=%v lost=%d dup=%d reordered=%d peak-rss=%s",
		r.Acks, r.Producers, r.InFlight, r.Acked, r.Rate(), round(r.P50), round(r.P90), round(r.P99), r.Lost, r.Dup, r.Reorder, rss)
}

// round keeps a latency readable: 0.1 ms steps.
func round(d time.Duration) time.Duration { return d.Round(100 * time.Microsecond) }

// measure tallies every stream once producers and consumers are done.
func measure(cfg Config, producers []*producer, elapsed time.Duration) Result {
	r := Result{Config: cfg, Elapsed: elapsed}
	var latencies []time.Duration
	var errs []error
	for _, p := range producers {
		for _, s := range p.streams {
			acked, lost, dup, reordered := s.tally()
			r.Acked += acked
			r.Lost += lost
			r.Dup += dup
			r.Reorder += reordered
			latencies = append(latencies, s.latencies...)
			if s.err != nil {
				errs = append(errs, s.err)
			}
		}
	}
	r.Err = errors.Join(errs...)
	slices.Sort(latencies)
	r.P50, r.P90, r.P99 = percentile(latencies, 50), percentile(latencies, 90), percentile(latencies, 99)
	return r
}

// percentile is the nearest-rank percentile of sorted durations.
func percentile(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := (p*len(sorted) + 99) / 100 // ceil(p/100 * n), 1-based
	return sorted[max(rank, 1)-1]
}
