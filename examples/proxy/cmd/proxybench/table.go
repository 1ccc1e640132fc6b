package main

import (
	"fmt"
	"io"
	"slices"
	"time"
)

// summary adds up the runs of one load through one mode.
type summary struct {
	bytes     int64
	cpu       time.Duration
	latencies []time.Duration
	rounds    []float64 // CPU s/GiB of each round
	version   int16     // of the requests (the last run's)
}

func (s *summary) add(t traffic, cpu time.Duration) {
	s.version = t.version
	s.bytes += t.bytes
	s.cpu += cpu
	s.latencies = append(s.latencies, t.latencies...)
	s.rounds = append(s.rounds, cpu.Seconds()/(float64(t.bytes)/(1<<30)))
}

// roundRatios are the ratios, round by round, of this mode's CPU per GiB
// to the relay's in the same round, sorted: on a shared machine the same
// work costs a process up to 1.7 times more processor time from one minute
// to the next, so runs are compared with their neighbours.
func (s *summary) roundRatios(base *summary) []float64 {
	var r []float64
	for i := range min(len(s.rounds), len(base.rounds)) {
		r = append(r, s.rounds[i]/base.rounds[i])
	}
	slices.Sort(r)
	return r
}

// quantile is the q-quantile of sorted values (nearest rank).
func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[min(len(sorted)-1, int(q*float64(len(sorted))))]
}

// cpuPerGiB is processor seconds per GiB relayed.
func (s *summary) cpuPerGiB() float64 {
	return s.cpu.Seconds() / (float64(s.bytes) / (1 << 30))
}

// percentile is the p-th percentile latency in milliseconds.
func (s *summary) percentile(p float64) float64 {
	l := slices.Clone(s.latencies)
	slices.Sort(l)
	if len(l) == 0 {
		return 0
	}
	return float64(l[min(len(l)-1, int(p/100*float64(len(l))))]) / float64(time.Millisecond)
}

// printTable writes one row per load and mode, each with its ratios to the
// floor's row of the same load.
func printTable(w io.Writer, loads []load, results map[string]*summary, rounds int, d time.Duration) {
	fmt.Fprintf(w, "%d rounds of %v per load and mode; requests at a fixed rate, the same for every mode\n\n", rounds, d)
	fmt.Fprintf(w, "CPU x %s: the median of the per-round ratios [their quartiles], then the ratio of the totals\n\n", floor)
	fmt.Fprintf(w, "| load | mode | version | GiB | requests | CPU s/GiB | CPU x %[1]s, median [p25-p75] | CPU x %[1]s, totals | p50 ms | p90 ms | p99 ms | p90 x %[1]s |\n", floor)
	fmt.Fprintf(w, "|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, l := range loads {
		base := results[l.name+"/"+floor]
		for _, m := range modes {
			s := results[l.name+"/"+m.name]
			if s == nil || base == nil {
				continue
			}
			r := s.roundRatios(base)
			fmt.Fprintf(w, "| %s | %s | v%d | %.2f | %d | %.3f | %.2f [%.2f-%.2f] | %.2f | %.3f | %.3f | %.3f | %.2f |\n",
				l.name, m.name, s.version, float64(s.bytes)/(1<<30), len(s.latencies), s.cpuPerGiB(), quantile(r, 0.5), quantile(r, 0.25), quantile(r, 0.75),
				s.cpuPerGiB()/base.cpuPerGiB(), s.percentile(50), s.percentile(90), s.percentile(99), s.percentile(90)/base.percentile(90))
		}
	}
}
