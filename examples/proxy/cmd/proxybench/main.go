// Command proxybench measures kafkaproxy against the floor, a plain TCP relay
// (io.Copy both ways, which splices on Linux), on the same load: Produce and
// Fetch of 1 KiB and 100 KiB records, pipelined, over 127.0.0.1, at the same
// fixed request rate for every relay, each run on a fresh one-node kfake in a
// process of its own, rounds interleaved. It prints the relaying process's
// processor time per GiB relayed (from /proc/PID/task/*/schedstat) and the
// p50/p90/p99 request latency, each beside its ratio to the relay's.
//
//	cd examples/proxy && go generate && go run ./cmd/proxybench
//
// The modes: relay (the floor), proxy (kafkaproxy with no filter:
// -rewrite-addresses=false) and proxy+rewrite+prefix (address rewriting and
// -topic-prefix, the client following the rewritten address of the leader).
//
// With -gateway (gateway.go): tls-relay (the floor: TLS toward the client,
// bytes copied), gateway (kafkaproxy with TLS, SCRAM-SHA-512 and a virtual
// cluster's prefix), gateway+acl (the same from a -config file with ACLs),
// relay and proxy for context; then the resident set per idle authenticated
// connection (idle.go). -profile MODE prints where MODE's process spends
// its time (profile.go).
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/kafkagen/kafkagen/examples/proxy/internal/ports"
	"github.com/kafkagen/kafkagen/examples/proxy/kafkamsg"
	"github.com/kafkagen/kafkagen/runtime"
)

const (
	benchTopic   = "bench"
	tenantPrefix = "t1."
)

// mode is what relays the load.
type mode struct {
	name   string
	relay  bool     // the floor, not kafkaproxy
	args   []string // kafkaproxy's flags
	follow bool     // the client connects to the leader's address from Metadata
	prefix string   // what the broker calls the topic, before its name
	tls    bool     // the client speaks TLS to it (gateway.go)
	sasl   bool     // the client authenticates at it with SCRAM-SHA-512
	config string   // kafkaproxy's -config file, when it has one
}

// countSyscalls is -perf.
var countSyscalls bool

// floor is the mode the others are compared with: relay, or with -gateway
// tls-relay.
var floor = "relay"

var modes = []mode{
	{name: "relay", relay: true},
	{name: "proxy", args: []string{"-rewrite-addresses=false"}},
	{name: "proxy+rewrite+prefix", args: []string{"-topic-prefix", tenantPrefix}, follow: true, prefix: tenantPrefix},
}

func main() {
	if len(os.Args) > 1 && !strings.HasPrefix(os.Args[1], "-") {
		if err := subcommand(os.Args[1], os.Args[2:]); err != nil {
			fmt.Fprintf(os.Stderr, "proxybench %s: %v\n", os.Args[1], err)
			os.Exit(1)
		}
		return
	}
	rounds := flag.Int("rounds", 10, "rounds; each runs every load through every mode once")
	duration := flag.Duration("duration", 2*time.Second, "how long each run sends its load")
	scale := flag.Float64("rate", 1, "scale of the request rates (Produce of 1 KiB records 300/s, of 100 KiB records 150/s, Fetch of 1 MiB 40/s)")
	onlyLoads := flag.String("loads", "", "run only these loads (comma-separated names, such as \"produce 1KiB\")")
	onlyModes := flag.String("modes", "", "run only these modes besides the relay (comma-separated: proxy, proxy+rewrite+prefix)")
	prebuilt := flag.String("kafkaproxy", "", "a kafkaproxy binary to measure instead of building this module's")
	flag.BoolVar(&countSyscalls, "perf", false, "also count the relaying process's system calls and context switches (perf stat)")
	asGateway := flag.Bool("gateway", false, "kafkaproxy as a gateway (TLS, SASL, a virtual cluster, ACLs) against a TLS-terminating relay, with the plain relay and proxy for context")
	idle := flag.Int("idle", 500, "with -gateway: idle authenticated connections opened to measure memory per connection (0: none)")
	maxProduce := flag.Int("max-produce-version", -1, "send Produce at most at this version (12: by name, as before Kafka 4.1's v13 by id); -1: the negotiated one")
	flag.StringVar(&profileMode, "profile", "", "record where this mode's process spends its time (perf record) and print it by function; its CPU numbers are then not for comparison")
	idleRounds := flag.Int("idle-rounds", 3, "with -gateway: rounds of the idle-connection measurement")
	flag.Parse()
	if *asGateway {
		modes, floor = gatewayModes, "tls-relay"
	}
	if *maxProduce < -1 || *maxProduce > 1000 {
		fmt.Fprintln(os.Stderr, "proxybench: -max-produce-version: -1, or a version")
		os.Exit(2)
	}
	maxProduceVersion = int16(*maxProduce)
	if *idle < 0 || *idle > 2000 {
		fmt.Fprintln(os.Stderr, "proxybench: -idle: between 0 and 2000")
		os.Exit(2)
	}
	loads := []load{
		{name: "produce 1KiB", produce: true, recordSize: 1 << 10, recordsPerBatch: 16, rate: 300 * *scale, inFlight: 5},
		{name: "produce 100KiB", produce: true, recordSize: 100 << 10, recordsPerBatch: 1, rate: 150 * *scale, inFlight: 5},
		{name: "fetch 1KiB", recordSize: 1 << 10, recordsPerBatch: 16, rate: 40 * *scale, inFlight: 2},
		{name: "fetch 100KiB", recordSize: 100 << 10, recordsPerBatch: 1, rate: 40 * *scale, inFlight: 2},
	}
	if *onlyLoads != "" {
		loads = slices.DeleteFunc(loads, func(l load) bool { return !listed(*onlyLoads, l.name) })
	}
	if *onlyModes != "" {
		modes = slices.DeleteFunc(modes, func(m mode) bool { return m.name != floor && !listed(*onlyModes, m.name) })
	}
	if !*asGateway {
		*idle = 0
	}
	if err := bench(loads, *rounds, *duration, *prebuilt, *idle, *idleRounds); err != nil {
		fmt.Fprintf(os.Stderr, "proxybench: %v\n", err)
		os.Exit(1)
	}
}

// subcommand runs one of the benchmark's own processes.
func subcommand(name string, args []string) error {
	switch name {
	case "relay":
		fs := flag.NewFlagSet("relay", flag.ContinueOnError)
		listen := fs.String("listen", "127.0.0.1:0", "")
		upstream := fs.String("upstream", "", "")
		certFile := fs.String("tls-cert", "", "")
		keyFile := fs.String("tls-key", "", "")
		if err := fs.Parse(args); err != nil {
			return err
		}
		return relayMain(*listen, *upstream, *certFile, *keyFile)
	case "broker":
		return brokerMain()
	}
	return fmt.Errorf("unknown subcommand (relay, broker)")
}

// listed reports whether name is in the comma-separated list.
func listed(list, name string) bool {
	return slices.Contains(strings.Split(list, ","), name)
}

// env is what every run uses: this program (for its broker and relay),
// the kafkaproxy binary and the files of the gateway modes.
type env struct {
	self, kafkaproxy string
	files            *files
}

// bench runs the rounds and prints the table, then, when idle > 0, the
// memory of idle connections.
func bench(loads []load, rounds int, d time.Duration, kafkaproxy string, idle, idleRounds int) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "proxybench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	f, err := newFiles(dir)
	if err != nil {
		return err
	}
	if profileMode != "" {
		if err := profileInto(dir); err != nil {
			return err
		}
	}
	if kafkaproxy == "" {
		kafkaproxy = filepath.Join(dir, "kafkaproxy")
		build := exec.Command("go", "build", "-o", kafkaproxy, "github.com/kafkagen/kafkagen/examples/proxy")
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("building kafkaproxy (run proxybench in examples/proxy): %w", err)
		}
	}
	e := &env{self: self, kafkaproxy: kafkaproxy, files: f}
	results := map[string]*summary{}
	for round := range rounds {
		for _, l := range loads {
			for i := range modes {
				m := modes[(i+round)%len(modes)] // the order moves each round
				t, cpu, err := runOne(e, l, m, d)
				if err != nil {
					return fmt.Errorf("round %d, %s through %s: %w", round+1, l.name, m.name, err)
				}
				s := results[l.name+"/"+m.name]
				if s == nil {
					s = &summary{}
					results[l.name+"/"+m.name] = s
				}
				s.add(t, cpu)
				fmt.Fprintf(os.Stderr, "round %d %-15s %-21s v%-2d %6.1f MiB %6.3f s CPU %5d requests %d failed",
					round+1, l.name, m.name, t.version, float64(t.bytes)/(1<<20), cpu.Seconds(), len(t.latencies), t.failures)
				if countSyscalls {
					fmt.Fprintf(os.Stderr, " %5.1f syscalls %5.1f switches per request", float64(t.syscalls)/float64(len(t.latencies)), float64(t.switches)/float64(len(t.latencies)))
				}
				fmt.Fprintln(os.Stderr)
			}
		}
	}
	printTable(os.Stdout, loads, results, rounds, d)
	if profileMode != "" {
		if err := printProfiles(loads); err != nil {
			return err
		}
	}
	if idle > 0 {
		perConn, err := idleMemory(e, idle, idleRounds)
		if err != nil {
			return err
		}
		printIdle(os.Stdout, perConn, idle, idleRounds)
	}
	return nil
}

// runOne runs one load through one mode on a fresh broker and returns what
// the client saw and the processor time the relaying process used.
func runOne(e *env, l load, m mode, d time.Duration) (traffic, time.Duration, error) {
	broker, err := start("broker", e.self, "broker")
	if err != nil {
		return traffic{}, 0, err
	}
	defer broker.stop()
	topic := m.prefix + benchTopic
	if !l.produce {
		s, err := connect(broker.addr, security{})
		if err != nil {
			return traffic{}, 0, err
		}
		err = preload(s, topic, l)
		s.cl.Close()
		if err != nil {
			return traffic{}, 0, err
		}
	}
	relay, err := startRelay(e, m, broker.addr)
	if err != nil {
		return traffic{}, 0, err
	}
	defer relay.stop()
	sec, err := e.files.security(m)
	if err != nil {
		return traffic{}, 0, err
	}
	s, err := connect(relay.addr, sec)
	if err != nil {
		return traffic{}, 0, fmt.Errorf("%w; %s stderr: %s", err, relay.name, relay.logs.String())
	}
	id, leader, err := s.topic(benchTopic)
	if err == nil && m.follow {
		s.cl.Close()
		s, err = connect(leader, sec)
	}
	if err != nil {
		return traffic{}, 0, fmt.Errorf("%w; %s stderr: %s", err, relay.name, relay.logs.String())
	}
	defer s.cl.Close()
	var req runtime.APIMessage
	var newResp func() runtime.APIMessage
	if l.produce {
		req, newResp = produceRequest(benchTopic, id, l.batch()), func() runtime.APIMessage { return kafkamsg.NewProduceResponse() }
	} else {
		req, newResp = fetchRequest(benchTopic, id), func() runtime.APIMessage { return kafkamsg.NewFetchResponse() }
	}
	var marks []time.Duration
	var markErr error
	var perf *counting
	var rec *recording
	var syscalls, switches int64
	t := drive(s, l, req, newResp, 50, d, func() {
		c, err := relay.cpu()
		if err != nil && markErr == nil {
			markErr = err
		}
		marks = append(marks, c)
		if m.name == profileMode {
			if rec == nil {
				rec, err = relay.record(l.name)
			} else {
				err = rec.stop()
			}
			if err != nil && markErr == nil {
				markErr = err
			}
		}
		switch {
		case !countSyscalls:
		case perf == nil:
			perf, err = relay.countEvents()
		default:
			syscalls, switches, err = perf.stop()
		}
		if err != nil && markErr == nil {
			markErr = err
		}
	})
	t.syscalls, t.switches = syscalls, switches
	t.version, _ = s.version(req.APIKey())
	if markErr != nil {
		return t, 0, markErr
	}
	if t.failures > 0 {
		return t, 0, fmt.Errorf("%d requests failed, the first: %w; %s stderr: %s", t.failures, t.firstErr, relay.name, relay.logs.String())
	}
	return t, marks[1] - marks[0], nil
}

// startRelay starts what relays mode m's traffic to the broker at upstream:
// this program's relay, or kafkaproxy with the mode's flags or file.
func startRelay(e *env, m mode, upstream string) (*child, error) {
	if m.relay {
		args := []string{"relay", "-upstream", upstream}
		if m.tls {
			args = append(args, "-tls-cert", e.files.cert, "-tls-key", e.files.key)
		}
		return start(m.name, e.self, args...)
	}
	port, err := ports.Free(2)
	if err != nil {
		return nil, err
	}
	listen := fmt.Sprintf("127.0.0.1:%d", port)
	if m.config != "" {
		path, err := e.files.configFile(m, listen, upstream)
		if err != nil {
			return nil, err
		}
		return start("kafkaproxy", e.kafkaproxy, "-config", path)
	}
	args := []string{"-listen", listen, "-upstream", upstream}
	for _, a := range m.args {
		args = append(args, e.files.expand(a, listen, upstream))
	}
	return start("kafkaproxy", e.kafkaproxy, args...)
}
