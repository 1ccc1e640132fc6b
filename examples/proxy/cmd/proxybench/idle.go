package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The memory of idle connections (-gateway): each mode, on a fresh broker,
// gets n connections that each complete TLS and SASL where the mode has
// them and one Metadata request (so that the relay or proxy has its broker
// connection open), then sit idle. The relaying process's resident set
// before and after, over n, is its memory per idle connection.

// settle is how long the process is left alone before its resident set is
// read.
const settle = time.Second

// idleResult is one mode's resident set per idle connection, per round.
type idleResult struct {
	perConn  []float64 // bytes, each round's
	before   []int64   // the resident set before the n connections, bytes
	openTime []time.Duration
}

// idleMemory measures every mode in rounds, the order of the modes turning
// each round.
func idleMemory(e *env, n, rounds int) (map[string]*idleResult, error) {
	out := map[string]*idleResult{}
	for round := range rounds {
		for i := range modes {
			m := modes[(i+round)%len(modes)]
			perConn, before, took, err := idleOne(e, m, n)
			if err != nil {
				return nil, fmt.Errorf("idle round %d through %s: %w", round+1, m.name, err)
			}
			r := out[m.name]
			if r == nil {
				r = &idleResult{}
				out[m.name] = r
			}
			r.perConn, r.before, r.openTime = append(r.perConn, perConn), append(r.before, before), append(r.openTime, took)
			fmt.Fprintf(os.Stderr, "idle round %d %-21s %d connections in %v: RSS %.1f MiB before, %.0f bytes per connection\n",
				round+1, m.name, n, took.Round(time.Millisecond), float64(before)/(1<<20), perConn)
		}
	}
	return out, nil
}

// idleOne opens n idle connections through m and returns the growth of
// the relaying process's resident set per connection, the resident set
// before them, and how long opening them took.
func idleOne(e *env, m mode, n int) (float64, int64, time.Duration, error) {
	broker, err := start("broker", e.self, "broker")
	if err != nil {
		return 0, 0, 0, err
	}
	defer broker.stop()
	relay, err := startRelay(e, m, broker.addr)
	if err != nil {
		return 0, 0, 0, err
	}
	defer relay.stop()
	sec, err := e.files.security(m)
	if err != nil {
		return 0, 0, 0, err
	}
	var sessions []*session
	defer func() {
		for _, s := range sessions {
			s.cl.Close()
		}
	}()
	open := func() error {
		s, err := connect(relay.addr, sec)
		if err != nil {
			return fmt.Errorf("%w; %s stderr: %s", err, relay.name, relay.logs.String())
		}
		sessions = append(sessions, s)
		_, _, err = s.topic(benchTopic)
		return err
	}
	// One connection first, so that what every connection shares (the
	// TLS certificate parsed, the pools, the broker's ApiVersions) is
	// in the resident set before.
	if err := open(); err != nil {
		return 0, 0, 0, err
	}
	time.Sleep(settle)
	before, err := relay.rss()
	if err != nil {
		return 0, 0, 0, err
	}
	started := time.Now()
	for range n {
		if err := open(); err != nil {
			return 0, 0, 0, err
		}
	}
	took := time.Since(started)
	time.Sleep(settle)
	after, err := relay.rss()
	if err != nil {
		return 0, 0, 0, err
	}
	return float64(after-before) / float64(n), before, took, nil
}

// rss is the process's resident set (VmRSS of /proc/PID/status), in bytes.
func (c *child) rss() (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", c.cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("%s: VmRSS %q", c.name, rest)
			}
			return kb << 10, nil
		}
	}
	return 0, fmt.Errorf("%s: no VmRSS in /proc/%d/status", c.name, c.cmd.Process.Pid)
}

// printIdle writes one row per mode: the median bytes per idle connection
// over the rounds, their range, and the ratio to the floor's median.
func printIdle(w io.Writer, results map[string]*idleResult, n, rounds int) {
	fmt.Fprintf(w, "\nResident set per idle connection: %d connections, %d rounds, medians [min-max]\n\n", n, rounds)
	fmt.Fprintf(w, "| mode | RSS before, MiB | KiB per connection | x %s | time to open %d |\n|---|---|---|---|---|\n", floor, n)
	base := results[floor]
	for _, m := range modes {
		r := results[m.name]
		if r == nil || base == nil {
			continue
		}
		per, before := slices.Sorted(slices.Values(r.perConn)), slices.Sorted(slices.Values(r.before))
		opened := slices.Sorted(slices.Values(r.openTime))
		fmt.Fprintf(w, "| %s | %.1f | %.1f [%.1f-%.1f] | %.2f | %v |\n", m.name, float64(before[len(before)/2])/(1<<20),
			per[len(per)/2]/1024, per[0]/1024, per[len(per)-1]/1024, per[len(per)/2]/medianOf(base.perConn),
			opened[len(opened)/2].Round(time.Millisecond))
	}
}

func medianOf(v []float64) float64 {
	s := slices.Sorted(slices.Values(v))
	return s[len(s)/2]
}
