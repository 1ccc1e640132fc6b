//go:build reliability

package main

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The reliability suite (issue 18): every attack of the table, and
// malformed input, each on a fresh broker process, with a normal client
// served during and after it and the process's RSS read from /proc.
//
//	go generate && go test -count=1 -tags reliability -run Reliability -v
//
// Each row logs one line:
//
//	reliability: <row> peak-rss-over-baseline=NN MiB after=NN MiB served=K/K closed=...

// rssBound is the target: RSS within 256 MiB over the baseline,
// at the peak and after the attack.
const rssBound = 256 << 20

// row is one attack.
type row struct {
	name   string
	args   []string // the broker's flags
	nofile int      // the broker's open file limit; 0 keeps the test's
	// setup runs before the baseline is read (a log to fetch).
	setup func(t *testing.T, b *rowBroker)
	// attack runs until the attack holds what it holds; the normal client
	// is served meanwhile and after it returns.
	attack func(t *testing.T, b *rowBroker) attackResult
	// check runs once the attack is released.
	check func(t *testing.T, b *rowBroker)
}

// attackResult is what an attack leaves to the runner.
type attackResult struct {
	release func() // closes the attack's connections; nil: nothing is open
	closed  string // what the broker closed, for the log line
	note    string // more numbers for the log line
}

// rowBroker is one row's broker process.
type rowBroker struct {
	*brokerProcess
	pid      int
	baseline int64
}

// overBaseline is RSS above the baseline, in MiB.
func (b *rowBroker) overBaseline(rss int64) float64 { return float64(rss-b.baseline) / (1 << 20) }

// rss reads the process's RSS, failing the test if it is gone.
func (b *rowBroker) rss(t *testing.T) int64 {
	t.Helper()
	rss, _, err := memoryOf(b.pid)
	require.NoError(t, err, "the broker process is gone")
	return rss
}

// settledRSS reads the RSS once it is within 16 MiB of the baseline, or
// after 5 s (the broker gives freed memory back a second after a burst).
func (b *rowBroker) settledRSS(t *testing.T) int64 {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		rss := b.rss(t)
		if rss <= b.baseline+16<<20 || time.Now().After(deadline) {
			return rss
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// brokerMemoryLimit is the GOMEMLIMIT the broker processes run with, as a
// Go service is deployed (Kafka runs with -Xmx): the broker bounds the
// bytes it holds (queued requests and responses, answers, decompression),
// and the limit makes the collector return garbage before the heap doubles
// over them. Without it the rows of 100 MiB frames and 64 MiB answers
// peak at 300-400 MiB over the baseline though what is live stays bounded.
const brokerMemoryLimit = "224MiB"

func TestReliability(t *testing.T) {
	binary := buildBroker(t, t.TempDir())
	t.Setenv("GOMEMLIMIT", brokerMemoryLimit) // read by the broker processes started below
	var rows []row
	rows = append(rows, connectionRows()...)
	rows = append(rows, frameRows(t)...)
	rows = append(rows, fetchRows()...)
	rows = append(rows, batchRows(t)...)
	rows = append(rows, malformedRows()...)
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) { runRow(t, binary, r) })
	}
	t.Run("kill -9 under load with -data-dir, restart", func(t *testing.T) { killRow(t, binary) })
}

// runRow starts a fresh broker, runs the attack with the normal client
// served during and after it, and checks the row's bounds.
func runRow(t *testing.T, binary string, r row) {
	if r.nofile > 0 {
		binary = withFileLimit(t, binary, r.nofile)
	}
	p := startBrokerProcess(t, binary, filepath.Join(t.TempDir(), "broker.log"), r.args...)
	b := &rowBroker{brokerProcess: p, pid: p.Cmd.Process.Pid}
	normal := newNormalClient(p.addr)
	during := normal.dial(t, "normal-during")
	createTopic(t, during, normalTopic, 1)
	require.NoError(t, normal.roundTrip(during), "before the attack")
	if r.setup != nil {
		r.setup(t, b)
	}
	b.baseline = b.rss(t)
	sampler := sampleRSS(t, b.pid)
	stopLoop := normal.loop(t, during)
	res := r.attack(t, b)
	for i := 0; i < 3; i++ {
		normal.count(during)
	}
	stopLoop()
	if res.release != nil {
		res.release()
	}
	after := normal.dial(t, "normal-after")
	for i := 0; i < 3; i++ {
		normal.count(after)
	}
	settled := b.settledRSS(t)
	peak := sampler.stopPeak()
	select {
	case <-p.Done:
		t.Fatalf("the broker exited during the attack")
	default:
	}
	normal.checkLog(t, normal.dial(t, "normal-check")) // after has idled
	if r.check != nil {
		r.check(t, b)
	}
	_, hwm, err := memoryOf(b.pid)
	require.NoError(t, err)
	bound := int64(rssBound)
	t.Logf("reliability: %s peak-rss-over-baseline=%.0f MiB after=%.0f MiB served=%s closed=%s (bound %s, baseline %.0f MiB, VmHWM %.0f MiB%s)",
		r.name, b.overBaseline(peak), b.overBaseline(settled), normal.tally(), res.closed,
		mib(bound), float64(b.baseline)/(1<<20), float64(hwm)/(1<<20), res.note)
	assert.Equal(t, normal.tries.Load(), normal.served.Load(), "the normal client is served during and after (first failure: %v)", normal.firstFailure())
	assert.Less(t, peak-b.baseline, bound, "peak RSS over the baseline")
	assert.Less(t, settled-b.baseline, bound, "RSS over the baseline after the attack")
}

// mib formats bytes as MiB for notes.
func mib(n int64) string { return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20)) }
