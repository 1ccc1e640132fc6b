package main

import (
	"context"
	"path/filepath"
	"time"

	"github.com/kafkagen/kafkagen/examples/broker/internal/brokerproc"
)

// startBroker builds the broker module at dir into tmp and runs it on
// 127.0.0.1 with a free port and args, its log in tmp/broker.log.
func startBroker(ctx context.Context, dir, tmp string, args ...string) (*brokerproc.Process, error) {
	buildCtx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	binary, err := brokerproc.Build(buildCtx, dir, tmp)
	if err != nil {
		return nil, err
	}
	return brokerproc.Start(binary, filepath.Join(tmp, "broker.log"), 30*time.Second, args...)
}

// peakRSS is the broker's peak resident set size in MiB since its last
// ResetPeak (VmHWM), or -1 when /proc does not tell.
func peakRSS(p *brokerproc.Process) float64 {
	_, hwm, err := p.Memory()
	if err != nil {
		return -1
	}
	return float64(hwm) / (1 << 20)
}
