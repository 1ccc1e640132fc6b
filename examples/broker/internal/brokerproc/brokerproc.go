// Package brokerproc builds the example broker command and runs it in a
// process of its own, for what measures or attacks it from outside: the
// kill -9 test and the reliability suite (which need a process to kill and
// its RSS from /proc) and the brokerload command.
package brokerproc

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

// Process is a broker command started by Start.
type Process struct {
	Cmd  *exec.Cmd
	Addr string        // where it listens, from its "listening on" line
	Done chan struct{} // closed once the process has exited
}

// Build builds the broker module at dir (the folder of its main package)
// into out/broker within ctx, and returns the binary's path.
func Build(ctx context.Context, dir, out string) (string, error) {
	binary := filepath.Join(out, "broker")
	build := exec.CommandContext(ctx, "go", "build", "-o", binary, ".")
	build.Dir = dir
	if output, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build in %s: %v\n%s", dir, err, output)
	}
	return binary, nil
}

// Start runs binary on 127.0.0.1 with a free port and args, its standard
// error appended to logPath (the process's environment is this one's), and
// waits up to wait for its "listening on" line. On error the process is
// gone.
func Start(binary, logPath string, wait time.Duration, args ...string) (*Process, error) {
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(binary, append([]string{"-addr", "127.0.0.1:0"}, args...)...)
	cmd.Stderr = logFile
	stdout, err := cmd.StdoutPipe()
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		logFile.Close()
		return nil, err
	}
	p := &Process{Cmd: cmd, Done: make(chan struct{})}
	go func() { cmd.Wait(); logFile.Close(); close(p.Done) }()
	lines := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		lines <- line
	}()
	select {
	case line := <-lines:
		addr, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
		if !ok {
			p.Kill()
			return nil, fmt.Errorf("the broker's first line is %q, not \"listening on\" (log in %s)", line, logPath)
		}
		p.Addr = addr
		return p, nil
	case <-time.After(wait):
		p.Kill()
		return nil, fmt.Errorf("the broker did not start within %v (log in %s)", wait, logPath)
	}
}

// Kill sends SIGKILL and waits for the process to be gone.
func (p *Process) Kill() {
	p.Cmd.Process.Kill()
	<-p.Done
}

// Stop asks the process to end (SIGINT, as a terminal's Ctrl-C) and kills
// it after grace.
func (p *Process) Stop(grace time.Duration) {
	p.Cmd.Process.Signal(os.Interrupt)
	select {
	case <-p.Done:
	case <-time.After(grace):
		p.Kill()
	}
}

// Memory reads the process's VmRSS and VmHWM (its peak RSS since it
// began, or since ResetPeak) from /proc, in bytes.
func (p *Process) Memory() (rss, hwm int64, err error) {
	return Memory(p.Cmd.Process.Pid)
}

// ResetPeak starts a new VmHWM (clear_refs 5, Linux).
func (p *Process) ResetPeak() error {
	return os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", p.Cmd.Process.Pid), []byte("5"), 0)
}

// Memory reads VmRSS and VmHWM of pid from /proc, in bytes.
func Memory(pid int) (rss, hwm int64, err error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		name, value, ok := strings.Cut(s.Text(), ":")
		if !ok || (name != "VmRSS" && name != "VmHWM") {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(value), " kB"), 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("/proc/%d/status %s: %w", pid, name, err)
		}
		if name == "VmRSS" {
			rss = kb << 10
		} else {
			hwm = kb << 10
		}
	}
	if rss == 0 || hwm == 0 {
		return 0, 0, fmt.Errorf("/proc/%d/status: no VmRSS or VmHWM", pid)
	}
	return rss, hwm, s.Err()
}
