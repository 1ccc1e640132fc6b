//go:build reliability

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/kafkagen/kafkagen/examples/broker/internal/brokerproc"
	"github.com/stretchr/testify/require"
)

// withFileLimit returns a script that runs binary with its open file limit
// (soft and hard) set to n: exec keeps the process id, so /proc reads the
// broker's own.
func withFileLimit(t *testing.T, binary string, n int) string {
	t.Helper()
	script := filepath.Join(t.TempDir(), fmt.Sprintf("broker-nofile-%d", n))
	text := fmt.Sprintf("#!/bin/sh\nulimit -n %d || exit 3\nexec %q \"$@\"\n", n, binary)
	require.NoError(t, os.WriteFile(script, []byte(text), 0o755))
	return script
}

// raiseFileLimit lets the test process open n files, raising the hard limit
// too when it is lower (which needs root, as CI has).
func raiseFileLimit(t *testing.T, n uint64) {
	t.Helper()
	var lim syscall.Rlimit
	require.NoError(t, syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim))
	if lim.Cur >= n {
		return
	}
	lim.Cur, lim.Max = n, max(lim.Max, n)
	require.NoError(t, syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim), "the test needs %d open files (run as root or raise ulimit -n)", n)
}

// memoryOf reads VmRSS and VmHWM (the peak RSS since the process began) of
// pid, in bytes.
var memoryOf = brokerproc.Memory

// rssSampler tracks the largest RSS of a process, read every 50 ms: VmHWM
// covers the whole life of the process, this only the stretch sampled.
type rssSampler struct {
	pid  int
	stop func() // ends the sampling once, and waits for it
	mu   sync.Mutex
	peak int64
}

// sampleRSS starts sampling pid until stopPeak or the end of the test; the
// sampling ends by itself after ten minutes.
func sampleRSS(t *testing.T, pid int) *rssSampler {
	quit, done := make(chan struct{}), make(chan struct{})
	s := &rssSampler{pid: pid, stop: sync.OnceFunc(func() { close(quit); <-done })}
	t.Cleanup(s.stop)
	go func() {
		defer close(done)
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		end := time.After(10 * time.Minute)
		for {
			s.sample()
			select {
			case <-quit:
				s.sample()
				return
			case <-end:
				return
			case <-tick.C:
			}
		}
	}()
	return s
}

func (s *rssSampler) sample() {
	rss, _, err := memoryOf(s.pid)
	if err != nil {
		return // the process is gone; the row sees that itself
	}
	s.mu.Lock()
	s.peak = max(s.peak, rss)
	s.mu.Unlock()
}

// stopPeak ends the sampling and returns the largest RSS seen.
func (s *rssSampler) stopPeak() int64 {
	s.stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.peak
}
