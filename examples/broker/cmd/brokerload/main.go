// Command brokerload runs the example broker under load and checks that it
// loses nothing: it builds examples/broker, starts it on 127.0.0.1, and runs
// one phase at acks=1 and one at acks=-1, each with -producers connections
// of -inflight pipelined idempotent Produce requests and -consumers
// connections fetching at the same time. Every acknowledged record must be
// read back once, in order, at its acknowledged offset. One line per phase:
//
//	brokerload: acks=-1 producers=200 inflight=8 records=… rate=… rec/s p50=… p90=… p99=… lost=0 dup=0 reordered=0 peak-rss=… MiB
//
// It exits 1 when a record is lost, duplicated or reordered, a request
// fails, or a phase's rate is below -min-rate; 2 on bad flags.
//
//	go run ./cmd/brokerload -duration 10s
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"github.com/kafkagen/kafkagen/examples/broker/cmd/brokerload/load"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// options are the command's flags.
type options struct {
	brokerDir, dataDir string
	cfg                load.Config
	minRate            float64
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	o := options{cfg: load.Config{MinRecords: 10, MaxRecords: 50}}
	fs := flag.NewFlagSet("brokerload", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.brokerDir, "broker", ".", "the examples/broker module to build and run (kafkamsg generated)")
	fs.IntVar(&o.cfg.Producers, "producers", 200, "producer connections, one idempotent producer id each")
	fs.IntVar(&o.cfg.InFlight, "inflight", 8, "Produce requests in flight per producer connection, each to another partition")
	fs.IntVar(&o.cfg.Consumers, "consumers", 20, "consumer connections fetching while the producers send")
	fs.IntVar(&o.cfg.Partitions, "partitions", 20, "partitions of each phase's topic (at least -inflight)")
	fs.IntVar(&o.cfg.ValueBytes, "value-bytes", 100, "bytes of each record's value")
	fs.DurationVar(&o.cfg.Duration, "duration", 10*time.Second, "how long producers send in each phase")
	fs.DurationVar(&o.cfg.Timeout, "timeout", 2*time.Minute, "the most a phase may take, reading back included")
	fs.Float64Var(&o.minRate, "min-rate", 100000, "fail when a phase acknowledges fewer records per second")
	fs.StringVar(&o.dataDir, "data-dir", "", "run the broker with -data-dir in a temporary folder (acks=-1 then waits for fsync): \"tmp\", or empty for memory only")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if o.dataDir != "" && o.dataDir != "tmp" {
		return o, fmt.Errorf("-data-dir %q: only \"tmp\" (a fresh temporary folder) or empty", o.dataDir)
	}
	return o, o.cfg.Check()
}

func run(args []string, stdout, stderr io.Writer) int {
	o, err := parseFlags(args, stderr)
	if err == flag.ErrHelp {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "brokerload: %v\n", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ok, err := runPhases(ctx, o, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "brokerload: %v\n", err)
		return 1
	}
	if !ok {
		return 1
	}
	return 0
}

// runPhases starts the broker and runs the acks=1 and acks=-1 phases,
// reporting false when one fails its checks.
func runPhases(ctx context.Context, o options, stdout, stderr io.Writer) (ok bool, err error) {
	tmp, err := os.MkdirTemp("", "brokerload")
	if err != nil {
		return false, err
	}
	defer func() {
		if ok {
			os.RemoveAll(tmp)
		} else { // the broker's log is kept, its data (gigabytes) is not
			os.RemoveAll(filepath.Join(tmp, "data"))
		}
	}()
	var args []string
	if o.dataDir != "" {
		args = append(args, "-data-dir", filepath.Join(tmp, "data"))
	}
	broker, err := startBroker(ctx, o.brokerDir, tmp, args...)
	if err != nil {
		return false, err
	}
	defer broker.Stop(5 * time.Second)
	ok = true
	for _, acks := range []int16{1, -1} {
		cfg := o.cfg
		cfg.Addr, cfg.Acks, cfg.Topic = broker.Addr, acks, fmt.Sprintf("brokerload-acks%d", acks)
		broker.ResetPeak() // best effort: without it the peak covers the earlier phases too
		res, err := load.Run(ctx, cfg)
		if err != nil {
			return false, fmt.Errorf("acks=%d: %w (broker log in %s)", acks, err, tmp)
		}
		fmt.Fprintln(stdout, res.Line(peakRSS(broker)))
		ok = check(res, o.minRate, stderr) && ok
	}
	if !ok {
		fmt.Fprintf(stderr, "brokerload: the broker's log is in %s\n", tmp)
	}
	return ok, nil
}

// check reports a phase's failures on stderr.
func check(res load.Result, minRate float64, stderr io.Writer) bool {
	ok := true
	if res.Err != nil {
		fmt.Fprintf(stderr, "brokerload: acks=%d: requests failed: %v\n", res.Acks, res.Err)
		ok = false
	}
	if !res.Lossless() {
		fmt.Fprintf(stderr, "brokerload: acks=%d: %d lost, %d duplicated, %d reordered\n", res.Acks, res.Lost, res.Dup, res.Reorder)
		ok = false
	}
	if res.Rate() < minRate {
		fmt.Fprintf(stderr, "brokerload: acks=%d: %.0f records/s, below -min-rate %.0f\n", res.Acks, res.Rate(), minRate)
		ok = false
	}
	return ok
}
