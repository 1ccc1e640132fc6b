package main

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/records"
)

func TestFormatRate(t *testing.T) {
	tests := []struct {
		bps  float64
		want string
	}{
		{0, "0B/s"},
		{1000, "1000B/s"},
		{1 << 10, "1KiB/s"},
		{256 << 10, "256KiB/s"},
		{262.4 * (1 << 10), "262KiB/s"},
		{1<<20 - 1, "1024KiB/s"},
		{1 << 20, "1.0MiB/s"},
		{9.1 * (1 << 20), "9.1MiB/s"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, formatRate(tt.bps), "%v", tt.bps)
	}
}

// acks are n answers of size bytes, one every step from step on, the
// answers from throttledFrom on (1-based; 0: none) throttled 50 ms.
func acks(n, size int, step time.Duration, throttledFrom int) []produced {
	var out []produced
	for i := 1; i <= n; i++ {
		a := produced{At: time.Duration(i) * step, Bytes: size}
		if throttledFrom > 0 && i >= throttledFrom {
			a.ThrottleMs = 50
		}
		out = append(out, a)
	}
	return out
}

func TestProducerRunRates(t *testing.T) {
	tests := []struct {
		name       string
		run        producerRun
		rate, held float64
		from       time.Duration
		ok         bool
		throttled  int
		longestMs  int32
	}{
		{"never throttled", producerRun{Acks: acks(10, 1000, 100*time.Millisecond, 0), End: time.Second},
			10000, 0, 0, false, 0, 0},
		// The burst (answers 1 to 4) and the first throttled answer (5,
		// at 0.5 s) are left out: 5 answers after it, over 0.5 s.
		{"throttled from the fifth", producerRun{Acks: acks(10, 1000, 100*time.Millisecond, 5), End: time.Second},
			10000, 10000, 500 * time.Millisecond, true, 6, 50},
		{"throttled at the very end", producerRun{Acks: acks(4, 1000, 250*time.Millisecond, 4), End: time.Second},
			4000, 0, time.Second, false, 1, 50},
		{"nothing", producerRun{}, 0, 0, 0, false, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.InDelta(t, tt.rate, tt.run.rate(), 0.001)
			held, from, ok := tt.run.heldRate()
			assert.InDelta(t, tt.held, held, 0.001)
			assert.Equal(t, tt.from, from)
			assert.Equal(t, tt.ok, ok)
			n, longest := tt.run.throttled()
			assert.Equal(t, tt.throttled, n)
			assert.Equal(t, tt.longestMs, longest)
		})
	}
}

// judgeQuota makes a problem of each way the quota run can fail.
func TestJudgeQuota(t *testing.T) {
	const limit = 1000.0
	// held: throttled from 0.1 s on, then 1000 B every second: the limit.
	held := producerRun{Acks: append(acks(1, 1000, 100*time.Millisecond, 1), produced{At: 1100 * time.Millisecond, Bytes: 1000, ThrottleMs: 900},
		produced{At: 2100 * time.Millisecond, Bytes: 1000, ThrottleMs: 900}, produced{At: 3100 * time.Millisecond, Bytes: 1000, ThrottleMs: 900}), End: 3100 * time.Millisecond}
	fast := producerRun{Acks: acks(40, 1000, 100*time.Millisecond, 0), End: 4 * time.Second} // 10000 B/s
	tooFast := held
	tooFast.Acks = append(acks(1, 1000, 100*time.Millisecond, 1), acks(30, 1000, 100*time.Millisecond, 1)[1:]...)
	tooFast.End = 3 * time.Second
	throttledOther := fast
	throttledOther.Acks = acks(40, 1000, 100*time.Millisecond, 39)
	tests := []struct {
		name        string
		held, other producerRun
		want        []string
	}{
		{"held at its limit, the other fast and never throttled", held, fast, nil},
		{"held never throttled", fast, fast, []string{"quota: quota-held was never throttled in 40 answers (10KiB/s over the run)"}},
		{"held above its limit", tooFast, fast, []string{"quota: quota-held wrote 10KiB/s after its first throttle, want 0.5 to 1.5 times its limit 1000B/s"}},
		{"held below its limit", producerRun{Acks: []produced{{At: 0, Bytes: 10, ThrottleMs: 5}, {At: 2 * time.Second, Bytes: 10}}, End: 3 * time.Second}, fast,
			[]string{"quota: quota-held wrote 3B/s after its first throttle, want 0.5 to 1.5 times its limit 1000B/s"}},
		{"held throttled too late to measure", producerRun{Acks: acks(30, 1000, 100*time.Millisecond, 25), End: 3 * time.Second}, fast,
			[]string{"quota: quota-held was first throttled at 2.5s of 3s: too little left to measure"}},
		{"the other throttled", held, throttledOther, []string{"quota: full-speed, which has no quota, was throttled in 2 answers (up to 50 ms)"}},
		{"the other slowed", held, producerRun{Acks: acks(3, 1000, time.Second, 0), End: 3 * time.Second},
			[]string{"quota: full-speed wrote 1000B/s, want at least 4 times quota-held's limit 1000B/s: slowed by it"}},
		{"a producer failed", held, producerRun{Acks: fast.Acks, End: fast.End, Err: errors.New("Produce v9: error code 29")},
			[]string{"quota: full-speed's producer: Produce v9: error code 29"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := judgeQuota(tt.held, tt.other, limit)
			assert.Equal(t, tt.want, q.Problems)
			assert.Equal(t, limit, q.Limit)
		})
	}
	q := judgeQuota(held, fast, limit)
	assert.InDelta(t, 1000, q.Held, 0.001)
	assert.InDelta(t, 10000, q.Other, 0.001)
}

func TestQuotaLine(t *testing.T) {
	q := quotaOutcome{Held: 262 << 10, Limit: quotaLimit, Other: 9.1 * (1 << 20)}
	assert.Equal(t, "quota: held=262KiB/s limit=256KiB/s other=9.1MiB/s", q.String())
}

// The batch both tenants send is a valid v2 batch of quotaBatchRecords
// records, about 16 KiB.
func TestQuotaBatch(t *testing.T) {
	batch, err := quotaBatch()
	require.NoError(t, err)
	assert.InDelta(t, quotaBatchRecords*quotaValueBytes, len(batch), 400)
	var b records.Batch
	require.NoError(t, records.ReadBatch(&b, batch, 0))
	assert.Equal(t, int32(quotaBatchRecords), b.NumRecords)
}
