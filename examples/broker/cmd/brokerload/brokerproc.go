package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// brokerProcess is a fresh examples/broker command running for the load.
type brokerProcess struct {
	cmd  *exec.Cmd
	addr string
	done chan struct{} // closed once the process has exited
}

// startBroker builds the broker module at dir into tmp and runs it on
// 127.0.0.1 with a free port and args, its log in tmp/broker.log.
func startBroker(ctx context.Context, dir, tmp string, args ...string) (*brokerProcess, error) {
	binary := filepath.Join(tmp, "broker")
	buildCtx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	build := exec.CommandContext(buildCtx, "go", "build", "-o", binary, ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build in %s: %v\n%s", dir, err, out)
	}
	logPath := filepath.Join(tmp, "broker.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(binary, append([]string{"-addr", "127.0.0.1:0"}, args...)...)
	cmd.Stderr = logFile
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		logFile.Close()
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, err
	}
	p := &brokerProcess{cmd: cmd, done: make(chan struct{})}
	go func() { cmd.Wait(); logFile.Close(); close(p.done) }()
	lines := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		lines <- line
	}()
	select {
	case line := <-lines:
		addr, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
		if !ok {
			p.stop()
			return nil, fmt.Errorf("the broker's first line is %q, not \"listening on\" (log in %s)", line, logPath)
		}
		p.addr = addr
		return p, nil
	case <-time.After(30 * time.Second):
		p.stop()
		return nil, fmt.Errorf("the broker did not start within 30 s (log in %s)", logPath)
	}
}

// stop ends the process with SIGTERM, SIGKILL after 5 s.
func (p *brokerProcess) stop() {
	p.cmd.Process.Signal(os.Interrupt)
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		p.cmd.Process.Kill()
		<-p.done
	}
}

// resetPeakRSS starts a new peak for peakRSS (clear_refs 5, Linux).
func (p *brokerProcess) resetPeakRSS() {
	os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", p.cmd.Process.Pid), []byte("5"), 0)
}

// peakRSS is the process's peak resident set size in MiB (VmHWM), or -1
// when /proc does not tell.
func (p *brokerProcess) peakRSS() float64 {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kib, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			if err != nil {
				return -1
			}
			return kib / 1024
		}
	}
	return -1
}
