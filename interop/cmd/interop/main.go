// Command interop is the interop suite: it builds the example broker
// (examples/broker) and runs six real Kafka clients against it (kcat,
// kafka-python, kafkajs, franz-go, sarama, kafka-go), then each of them
// again against brokers secured with TLS, SASL or both (clients_secure.go),
// then through kafkaproxy (examples/proxy) to the example broker and,
// franz-go, to a three-node kfake, each plainly and with -topic-prefix
// (proxied.go), then through kafkaproxy as a multi-tenant gateway with a
// quota held beside a tenant at full speed and
// attacks (gateway.go, its "gateway: ..." line before the last), then runs
// kafkagen's own client against kfake, franz-go's
// fake Kafka, for the reverse direction. It prints one line per client run,
// the api/version pairs each client used, and ends with
//
//	interop: clients=6 secured=6 proxied=14/14 requests=N api-versions=N reencode-diffs=0 proxy-diffs=0
//
// exiting 1 when a client failed, the broker re-encoded a request to other
// bytes than it received, the broker misbehaved, or a cluster behind the
// prefixing proxy holds other records than the same run left without it. Run it from interop/
// after install.sh:
//
//	go run ./cmd/interop [-n 20] [-parallel 3] [-clients kcat,sarama] [-update-captures] [-bridge-only] [-gateway-only]
//
// With -update-captures the first request frame of every (client id, api,
// version) the broker saw replaces testdata/captures/<client>/<step>/, the
// golden frames that conformance/captures_test.go replays.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/kafkagen/kafkagen/interop/internal/reverse"
)

// config is the command line.
type config struct {
	root           string
	n              int
	parallel       int
	clientTimeout  time.Duration
	timeout        time.Duration
	only           string
	updateCaptures bool
	bridgeOnly     bool
	gatewayOnly    bool
}

func main() {
	var cfg config
	flag.StringVar(&cfg.root, "root", "..", "the kafkagen repository (holding examples/broker and testdata)")
	flag.IntVar(&cfg.n, "n", 20, "records per scenario")
	flag.IntVar(&cfg.parallel, "parallel", 3, "clients running at once")
	flag.DurationVar(&cfg.clientTimeout, "client-timeout", 4*time.Minute, "bound on one client's run")
	flag.DurationVar(&cfg.timeout, "timeout", 9*time.Minute, "bound on the whole suite")
	flag.StringVar(&cfg.only, "clients", "", "comma-separated clients to run (default all)")
	flag.BoolVar(&cfg.updateCaptures, "update-captures", false, "replace testdata/captures with this run's frames")
	flag.BoolVar(&cfg.bridgeOnly, "bridge-only", false, "run only the old clients through kafkaproxy -bridge (bridged.go)")
	flag.BoolVar(&cfg.gatewayOnly, "gateway-only", false, "run only the clients and attacks through kafkaproxy as a gateway (gateway.go)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, cfg.timeout)
	defer cancel()
	if err := run(ctx, cfg); err != nil {
		fmt.Fprintf(os.Stderr, "interop: %v\n", err)
		os.Exit(1)
	}
}

// run is the whole suite; its error is the reason it failed.
func run(ctx context.Context, cfg config) error {
	dir, err := os.Getwd()
	if err != nil {
		return err
	}
	root, err := filepath.Abs(cfg.root)
	if err != nil {
		return err
	}
	specs, err := selectClients(cfg.only)
	if err != nil {
		return err
	}
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return err
	}
	goclient := filepath.Join(bin, "goclient")
	if msg, err := exec.CommandContext(ctx, "go", "build", "-o", goclient, "./cmd/goclient").CombinedOutput(); err != nil {
		return fmt.Errorf("go build ./cmd/goclient: %w\n%s", err, msg)
	}
	brokerBin, err := buildBroker(ctx, filepath.Join(root, "examples", "broker"), bin)
	if err != nil {
		return err
	}
	if cfg.bridgeOnly {
		if bridged := runBridged(ctx, os.Stdout, cfg, dir, goclient, brokerBin, bin, root); len(bridged.Problems) > 0 {
			return fmt.Errorf("%s", strings.Join(bridged.Problems, "; "))
		}
		return nil
	}
	if cfg.gatewayOnly {
		g := runGateway(ctx, os.Stdout, cfg, specs, root, dir, goclient, brokerBin, bin)
		fmt.Println(g.Line())
		if len(g.Problems) > 0 {
			return fmt.Errorf("%s", strings.Join(g.Problems, "; "))
		}
		return nil
	}
	captureDir, err := os.MkdirTemp("", "interop-captures-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(captureDir)

	b, err := startBroker(ctx, brokerBin, bin, "broker", captureDir)
	if err != nil {
		return err
	}
	fmt.Printf("broker: listening on %s (log: %s)\n", b.addr, b.logPath)
	results := runClients(ctx, specs, cfg.parallel, func(ctx context.Context, s clientSpec) *clientResult {
		return runClient(ctx, s, dir, goclient, b.addr, cfg.n, cfg.clientTimeout)
	})
	brokerErr := b.stop()
	var problems []string
	if brokerErr != nil {
		problems = append(problems, brokerErr.Error())
	}
	passed, failures := report(os.Stdout, results, false)
	problems = append(problems, failures...)
	if passed < len(results) {
		fmt.Println("broker log tail:\n    " + strings.ReplaceAll(b.logTail(30), "\n", "\n    "))
	}
	secured := runSecured(ctx, os.Stdout, cfg, specs, dir, goclient, brokerBin, bin)
	problems = append(problems, secured.Problems...)
	proxied := runProxied(ctx, os.Stdout, cfg, specs, root, dir, goclient, brokerBin, bin)
	problems = append(problems, proxied.Problems...)
	bridged := runBridged(ctx, os.Stdout, cfg, dir, goclient, brokerBin, bin, root)
	problems = append(problems, bridged.Problems...)
	gateway := runGateway(ctx, os.Stdout, cfg, specs, root, dir, goclient, brokerBin, bin)
	problems = append(problems, gateway.Problems...)

	reverseCtx, cancelReverse := context.WithTimeout(ctx, time.Minute)
	detail, err := reverse.Run(reverseCtx, cfg.n)
	cancelReverse()
	if err != nil {
		problems = append(problems, "reverse direction failed")
		fmt.Printf("FAIL kafkagen->kfake: %v\n", err)
	} else {
		fmt.Printf("PASS kafkagen->kfake: %s\n", detail)
	}

	st, err := b.readStats()
	if err != nil {
		return fmt.Errorf("%v (and: %s)", err, strings.Join(problems, "; "))
	}
	st.add(secured.Stats)
	st.add(proxied.Stats)
	printPairs(os.Stdout, pairsByClient(st, specs), specs)
	if st.ReencodeDiffs != 0 {
		problems = append(problems, fmt.Sprintf("the broker re-encoded %d requests to other bytes (see %s)", st.ReencodeDiffs, b.logPath))
	}
	if cfg.updateCaptures {
		if len(problems) > 0 {
			problems = append(problems, "captures not updated: the run failed")
		} else {
			dest := filepath.Join(root, "testdata", "captures")
			frames, note, err := updateCaptures(captureDir, dest, specs)
			if err != nil {
				return err
			}
			fmt.Printf("captures: %d frames written to %s\n", frames, dest)
			if note != "" {
				fmt.Println("captures: " + note)
			}
		}
	}
	fmt.Println(gateway.Line())
	fmt.Printf("interop: clients=%d secured=%d proxied=%d/%d requests=%d api-versions=%d reencode-diffs=%d proxy-diffs=%d\n",
		passed, secured.Passed, proxied.Passed, proxied.Runs, st.Requests, distinctPairs(st), st.ReencodeDiffs, proxied.Diffs)
	if len(problems) > 0 {
		return fmt.Errorf("%s", strings.Join(problems, "; "))
	}
	return nil
}

// selectClients returns the clients named in only (comma-separated), or all.
func selectClients(only string) ([]clientSpec, error) {
	if only == "" {
		return clientSpecs, nil
	}
	var out []clientSpec
	for _, name := range strings.Split(only, ",") {
		i := slices.IndexFunc(clientSpecs, func(s clientSpec) bool { return s.Name == name })
		if i < 0 {
			return nil, fmt.Errorf("no client %q (have kcat, kafka-python, kafkajs, franz-go, sarama, kafka-go)", name)
		}
		out = append(out, clientSpecs[i])
	}
	return out, nil
}
