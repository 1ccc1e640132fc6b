package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kafkagen/kafkagen/internal/freeports"
	"github.com/twmb/franz-go/pkg/kfake"
)

// tenantPrefix is the -topic-prefix of the prefixed runs.
const tenantPrefix = "tenant1."

// upstream is what the proxied runs go through kafkaproxy to: a fresh one
// per run.
type upstream struct {
	name    string
	nodes   int      // how many; the topics must be led by all of them
	clients []string // the clients that run through it
	// start starts a fresh one and returns its addresses and how to stop
	// it, with the stats of an example broker (nil for kfake).
	start func(ctx context.Context, run string) (seeds []string, stop func() (*stats, error), err error)
}

// proxiedOutcome is what the proxied runs did.
type proxiedOutcome struct {
	Runs, Passed int // client runs, and those that passed
	Diffs        int // differences between the prefixed and the plain runs' clusters
	Stats        *stats
	Problems     []string
}

// runProxied runs clients through kafkaproxy (examples/proxy, built here):
// the six clients to the example broker, franz-go to a three-node kfake
// whose topics are led by different nodes (so that the proxy's ports per
// node and its address rewriting carry the traffic). Each runs twice, on a
// fresh upstream each time: plainly, then with -topic-prefix; after each
// run the cluster is read directly, and the prefixed run's must hold
// exactly the plain run's records under the prefixed names, and nothing
// else.
func runProxied(ctx context.Context, w io.Writer, cfg config, specs []clientSpec, root, dir, goclient, brokerBin, bin string) *proxiedOutcome {
	out := &proxiedOutcome{Stats: &stats{}}
	start := time.Now()
	defer func() {
		fmt.Fprintf(w, "proxied: %d client runs through kafkaproxy in %v\n", out.Runs, time.Since(start).Round(100*time.Millisecond))
	}()
	proxyBin, err := buildExample(ctx, filepath.Join(root, "examples", "proxy"), filepath.Join(bin, "kafkaproxy"))
	if err != nil {
		out.Problems = append(out.Problems, "proxied runs: "+err.Error())
		fmt.Fprintf(w, "FAIL proxied runs: %v\n", err)
		return out
	}
	upstreams := []upstream{
		{name: "the example broker", nodes: 1, clients: names(specs), start: func(ctx context.Context, run string) ([]string, func() (*stats, error), error) {
			b, err := startBroker(ctx, brokerBin, bin, "broker-"+run, "")
			if err != nil {
				return nil, nil, err
			}
			return []string{b.addr}, func() (*stats, error) {
				if err := b.stop(); err != nil {
					return nil, err
				}
				return b.readStats()
			}, nil
		}},
		{name: "a three-node kfake", nodes: 3, clients: []string{"franz-go"}, start: func(context.Context, string) ([]string, func() (*stats, error), error) {
			c, err := kfake.NewCluster(kfake.NumBrokers(3), kfake.AllowAutoTopicCreation())
			if err != nil {
				return nil, nil, err
			}
			return c.ListenAddrs(), func() (*stats, error) { c.Close(); return nil, nil }, nil
		}},
	}
	for _, up := range upstreams {
		var runSpecs []clientSpec
		for _, s := range specs {
			if slices.Contains(up.clients, s.Name) {
				runSpecs = append(runSpecs, s)
			}
		}
		if len(runSpecs) == 0 {
			continue
		}
		// kfake places each partition's leader on a node picked at random,
		// so a run can leave a node without topics (3·(2/3)^15, about 1 in
		// 150, for fifteen one-partition topics on three nodes): the run is
		// repeated on a fresh cluster then, at most twice, since it is the
		// test's coverage that falls short, not the proxy.
		var plain contents
		var leaders int
		var ok bool
		for attempt := 1; ; attempt++ {
			plain, leaders, ok = proxiedRun(ctx, w, cfg, out, up, runSpecs, "", dir, goclient, proxyBin, bin)
			if !ok || leaders >= up.nodes || attempt == 3 {
				break
			}
			fmt.Fprintf(w, "proxied to %s: its %d topics are led by %d nodes of %d (placed at random); again on a fresh cluster\n", up.name, len(plain), leaders, up.nodes)
		}
		if !ok {
			continue
		}
		prefixed, _, ok := proxiedRun(ctx, w, cfg, out, up, runSpecs, tenantPrefix, dir, goclient, proxyBin, bin)
		if !ok {
			continue
		}
		if leaders < up.nodes {
			out.Problems = append(out.Problems, fmt.Sprintf("the topics of %s are led by %d nodes of %d: the proxy's ports per node were not all used", up.name, leaders, up.nodes))
		}
		diffs := diffContents(plain, prefixed, tenantPrefix)
		out.Diffs += len(diffs)
		records := 0
		for _, rs := range plain {
			records += len(rs)
		}
		fmt.Fprintf(w, "proxied to %s: %d topics led by %d nodes, %d records; with -topic-prefix %s the cluster holds them as %s<topic>: %d differences\n",
			up.name, len(plain), leaders, records, tenantPrefix, tenantPrefix, len(diffs))
		for _, d := range diffs {
			fmt.Fprintln(w, "  "+d)
		}
		if len(diffs) > 0 {
			out.Problems = append(out.Problems, fmt.Sprintf("%d differences through the prefixing proxy to %s", len(diffs), up.name))
		}
	}
	return out
}

// proxiedRun runs specs through a kafkaproxy with prefix (none when empty)
// to a fresh up, and returns what the cluster holds after and how many of
// its nodes lead its topics; ok is false when the run failed (and out says
// why).
func proxiedRun(ctx context.Context, w io.Writer, cfg config, out *proxiedOutcome, up upstream, specs []clientSpec, prefix, dir, goclient, proxyBin, bin string) (c contents, leaders int, ok bool) {
	run := "proxied-" + strings.Fields(up.name)[len(strings.Fields(up.name))-1]
	label := "through kafkaproxy to " + up.name
	if prefix != "" {
		run += "-prefix"
		label += " with -topic-prefix " + prefix
	}
	fail := func(err error) (contents, int, bool) {
		out.Problems = append(out.Problems, label+": "+err.Error())
		fmt.Fprintf(w, "FAIL %s: %v\n", label, err)
		return nil, 0, false
	}
	seeds, stopUpstream, err := up.start(ctx, run)
	if err != nil {
		return fail(err)
	}
	defer func() {
		if stopUpstream != nil {
			stopUpstream()
		}
	}()
	p, err := startKafkaproxy(ctx, proxyBin, filepath.Join(bin, "kafkaproxy-"+run+".log"), seeds, prefix)
	if err != nil {
		return fail(err)
	}
	results := runClients(ctx, specs, cfg.parallel, func(ctx context.Context, s clientSpec) *clientResult {
		return runClient(ctx, s, dir, goclient, p.addr, cfg.n, cfg.clientTimeout)
	})
	for _, r := range results {
		r.Name += " " + label
	}
	passed, problems := report(w, results, false)
	out.Runs += len(results)
	out.Passed += passed
	out.Problems = append(out.Problems, problems...)
	if err := p.stop(); err != nil {
		out.Problems = append(out.Problems, "kafkaproxy: "+err.Error())
	}
	if passed < len(results) {
		fmt.Fprintf(w, "kafkaproxy log tail:\n    %s\n", strings.ReplaceAll(p.logTail(30), "\n", "\n    "))
	}
	c, leaders, err = readContents(ctx, seeds)
	if err != nil {
		return fail(fmt.Errorf("reading the cluster: %w", err))
	}
	st, err := stopUpstream()
	stopUpstream = nil
	if err != nil {
		return fail(err)
	}
	if st != nil {
		out.Stats.add(st)
	}
	return c, leaders, passed == len(results)
}

// startKafkaproxy runs kafkaproxy in front of seeds, on a port of 127.0.0.1
// with free ports above it for nodes 0 to 2, trying another port when one
// is taken in the meantime.
func startKafkaproxy(ctx context.Context, binary, logPath string, seeds []string, prefix string) (*broker, error) {
	var err error
	for range 5 {
		var port int
		if port, err = freeRun(4); err != nil {
			return nil, err
		}
		args := []string{"-listen", "127.0.0.1:" + strconv.Itoa(port), "-upstream", strings.Join(seeds, ",")}
		if prefix != "" {
			args = append(args, "-topic-prefix", prefix)
		}
		var p *broker
		if p, err = startListening(ctx, "kafkaproxy", binary, logPath, args); err == nil {
			return p, nil
		}
	}
	return nil, err
}

// freeRun finds n free ports in a row on 127.0.0.1 and returns the first;
// they are free again when it returns.
func freeRun(n int) (int, error) { return freeports.Run(n) }

// names are the names of specs.
func names(specs []clientSpec) []string {
	var out []string
	for _, s := range specs {
		out = append(out, s.Name)
	}
	return out
}
