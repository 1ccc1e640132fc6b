package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// clientSpec is one client of the suite and the command that runs its
// scenarios against a broker.
type clientSpec struct {
	// Name is the client's name, the prefix of every client id it uses
	// ("<name>-<step>") and its folder under testdata/captures.
	Name string
	// Command returns the program and arguments for a broker and a record
	// count; dir is the interop folder, goclient the built Go client.
	Command func(dir, goclient, broker string, n int) []string
}

// goClient runs the scenarios of a client that goclient drives.
func goClient(name string) clientSpec {
	return clientSpec{Name: name, Command: func(_, goclient, broker string, n int) []string {
		return []string{goclient, "-client", name, "-broker", broker, "-n", strconv.Itoa(n)}
	}}
}

// clientSpecs are the six clients, in the order their results are printed.
var clientSpecs = []clientSpec{
	goClient("kcat"),
	{Name: "kafka-python", Command: func(dir, _, broker string, n int) []string {
		// Debian's interpreter: python3 on PATH may be another one without
		// python3-kafka.
		return []string{"/usr/bin/python3", filepath.Join(dir, "python", "kafka_python_client.py"),
			"--broker", broker, "--n", strconv.Itoa(n)}
	}},
	{Name: "kafkajs", Command: func(dir, _, broker string, n int) []string {
		return []string{"node", filepath.Join(dir, "node", "kafkajs_client.js"), "--broker", broker, "--n", strconv.Itoa(n)}
	}},
	goClient("franz-go"),
	goClient("sarama"),
	goClient("kafka-go"),
}

// clientResult is what one client run printed and how it ended.
type clientResult struct {
	Name   string
	OK     []string // the "ok" lines
	Failed []string // the "FAIL" lines, and the reason a run itself failed
	Output string   // everything the client printed, for failure reports
	Took   time.Duration
}

// Passed reports whether every scenario passed and there was at least one.
func (r *clientResult) Passed() bool { return len(r.Failed) == 0 && len(r.OK) > 0 }

// runClient runs one client process under timeout and sorts its lines.
func runClient(ctx context.Context, spec clientSpec, dir, goclient, broker string, n int, timeout time.Duration) *clientResult {
	res := &clientResult{Name: spec.Name}
	args := spec.Command(dir, goclient, broker, n)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir = dir
	// The client runs in a process group of its own, killed whole when it
	// times out: goclient's kcat runs and node's workers go with it instead
	// of living on, orphaned, after the suite.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	res.Took = time.Since(start)
	res.Output = out.String()
	lines := bufio.NewScanner(strings.NewReader(res.Output))
	for lines.Scan() {
		line := lines.Text()
		switch {
		case strings.HasPrefix(line, "ok "+spec.Name+" "):
			res.OK = append(res.OK, line)
		case strings.HasPrefix(line, "FAIL "+spec.Name+" "):
			res.Failed = append(res.Failed, line)
		}
	}
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		res.Failed = append(res.Failed, fmt.Sprintf("FAIL %s: timed out after %v", spec.Name, timeout))
	case err != nil && len(res.Failed) == 0:
		res.Failed = append(res.Failed, fmt.Sprintf("FAIL %s: %s: %v", spec.Name, strings.Join(args, " "), err))
	}
	return res
}

// report prints a PASS line for each result that passed (followed by its
// "ok" lines when withOK is set), and for each other a FAIL line with its
// failed scenarios and its output. It returns how many passed and a
// problem for each that failed.
func report(w io.Writer, results []*clientResult, withOK bool) (passed int, problems []string) {
	for _, r := range results {
		took := r.Took.Round(100 * time.Millisecond)
		if r.Passed() {
			passed++
			fmt.Fprintf(w, "PASS %s: %d scenarios in %v\n", r.Name, len(r.OK), took)
			if withOK {
				fmt.Fprintln(w, "  "+strings.Join(r.OK, "\n  "))
			}
			continue
		}
		problems = append(problems, "client "+r.Name+" failed")
		fmt.Fprintf(w, "FAIL %s: %d of %d scenarios failed in %v\n", r.Name, len(r.Failed), len(r.OK)+len(r.Failed), took)
		for _, line := range r.Failed {
			fmt.Fprintln(w, "  "+line)
		}
		fmt.Fprintln(w, "  output:\n    "+strings.ReplaceAll(strings.TrimSpace(r.Output), "\n", "\n    "))
	}
	return passed, problems
}

// runClients runs the clients, at most parallel at a time, and returns their
// results in the order of specs.
func runClients(ctx context.Context, specs []clientSpec, parallel int, run func(context.Context, clientSpec) *clientResult) []*clientResult {
	results := make([]*clientResult, len(specs))
	slots := make(chan struct{}, max(parallel, 1))
	var wg sync.WaitGroup
	for i, spec := range specs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			results[i] = run(ctx, spec)
		}()
	}
	wg.Wait()
	return results
}

// clientOf returns the client a client id belongs to: the longest client
// name that, followed by '-', starts the id; "" when none does.
func clientOf(clientID string, specs []clientSpec) string {
	best := ""
	for _, s := range specs {
		if strings.HasPrefix(clientID, s.Name+"-") && len(s.Name) > len(best) {
			best = s.Name
		}
	}
	return best
}
