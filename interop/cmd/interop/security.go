package main

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/kafkagen/kafkagen/interop/internal/certs"
	"github.com/kafkagen/kafkagen/interop/internal/scenario"
)

// saslUser is the user every SASL run authenticates as; its password is
// made per run.
const saslUser = "interop"

// securedOutcome is what the secured runs did.
type securedOutcome struct {
	Passed   int    // clients whose every secured run passed
	Stats    *stats // the secured brokers' stats, added up
	Problems []string
}

// runSecured runs the secured runs of the clients in specs, cfg.parallel
// at a time: one example broker per security protocol they need, each on
// 127.0.0.1:0 with -security-protocol, a certificate made now by a CA the
// clients trust through their CA-file options, and a users file with one
// user, all in a temporary folder removed afterwards. It prints a PASS line
// with the scenarios' "ok" lines, or a FAIL line, per run (with the broker's
// log tail on failure).
func runSecured(ctx context.Context, w io.Writer, cfg config, specs []clientSpec, dir, goclient, brokerBin, bin string) *securedOutcome {
	out := &securedOutcome{Stats: &stats{}}
	runs := securedRunsOf(specs)
	if len(runs) == 0 {
		return out
	}
	fail := func(err error) *securedOutcome {
		out.Problems = append(out.Problems, "secured runs: "+err.Error())
		fmt.Fprintf(w, "FAIL secured runs: %v\n", err)
		return out
	}
	start := time.Now()
	defer func() {
		fmt.Fprintf(w, "secured: %d runs against %d brokers in %v\n", len(runs), len(protocols(runs)), time.Since(start).Round(100*time.Millisecond))
	}()
	tmp, err := os.MkdirTemp("", "interop-security-")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(tmp)
	files, err := certs.Write(tmp)
	if err != nil {
		return fail(err)
	}
	password := rand.Text()
	usersFile := filepath.Join(tmp, "users")
	// A second user, so that the broker reads more than one line.
	users := saslUser + ":" + password + "\nsomeone-else:" + rand.Text() + "\n"
	if err := os.WriteFile(usersFile, []byte(users), 0o600); err != nil {
		return fail(err)
	}

	brokers := map[string]*broker{}
	stopAll := func() {
		for _, b := range brokers {
			b.stop()
		}
	}
	for _, p := range protocols(runs) {
		args := []string{"-security-protocol", p}
		sec := scenario.Security{Protocol: p}
		if sec.UsesTLS() {
			args = append(args, "-tls-cert", files.Cert, "-tls-key", files.Key)
		}
		if sec.UsesSASL() {
			args = append(args, "-sasl-users", usersFile)
		}
		b, err := startBroker(ctx, brokerBin, bin, "broker-"+sec.Label(), "", args...)
		if err != nil {
			stopAll()
			return fail(fmt.Errorf("%s broker: %w", p, err))
		}
		brokers[p] = b
		fmt.Fprintf(w, "broker %s: listening on %s (log: %s)\n", p, b.addr, b.logPath)
	}

	runSpecs := make([]clientSpec, len(runs))
	for i, r := range runs {
		sec := scenario.Security{Protocol: r.Protocol, Mechanism: r.Mechanism, User: saslUser, Password: password, CAFile: files.CA}
		spec := specs[slices.IndexFunc(specs, func(s clientSpec) bool { return s.Name == r.Client })]
		runSpecs[i] = securedSpec(spec, brokers[r.Protocol].addr, sec)
	}
	results := runClients(ctx, runSpecs, cfg.parallel, func(ctx context.Context, s clientSpec) *clientResult {
		return runClient(ctx, s, dir, goclient, "", cfg.n, cfg.clientTimeout)
	})
	failedProtocols := map[string]bool{}
	for i, r := range results {
		r.Name = runs[i].String()
		failedProtocols[runs[i].Protocol] = failedProtocols[runs[i].Protocol] || !r.Passed()
	}
	// The "ok" lines too: they say what each client reported for a wrong
	// password.
	_, problems := report(w, results, true)
	out.Problems = append(out.Problems, problems...)
	out.Passed = securedPassed(runs, results)

	for _, p := range protocols(runs) {
		b := brokers[p]
		if failedProtocols[p] {
			fmt.Fprintf(w, "%s broker log tail:\n    %s\n", p, strings.ReplaceAll(b.logTail(30), "\n", "\n    "))
		}
		if err := b.stop(); err != nil {
			out.Problems = append(out.Problems, fmt.Sprintf("%s broker: %v", p, err))
			continue
		}
		st, err := b.readStats()
		if err != nil {
			out.Problems = append(out.Problems, fmt.Sprintf("%s broker: %v", p, err))
			continue
		}
		out.Stats.add(st)
	}
	return out
}

// add counts o's requests in s as well.
func (s *stats) add(o *stats) {
	s.Requests += o.Requests
	s.ReencodeDiffs += o.ReencodeDiffs
	if s.Clients == nil {
		s.Clients = map[string]map[string]int64{}
	}
	for id, apis := range o.Clients {
		if s.Clients[id] == nil {
			s.Clients[id] = map[string]int64{}
		}
		for key, n := range apis {
			s.Clients[id][key] += n
		}
	}
}
