package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// child is a process of the benchmark (a broker, the relay or the proxy)
// that prints "listening on HOST:PORT" first.
type child struct {
	name string
	cmd  *exec.Cmd
	addr string
	logs bytes.Buffer // its stderr, for failures
}

// start runs path with args and waits for its "listening on" line.
func start(name, path string, args ...string) (*child, error) {
	c := &child{name: name, cmd: exec.Command(path, args...)}
	c.cmd.Stderr = &c.logs
	out, err := c.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := c.cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	lines := make(chan string, 1)
	go func() {
		r := bufio.NewReader(out)
		line, _ := r.ReadString('\n')
		lines <- line
		_, _ = io.Copy(io.Discard, r)
	}()
	select {
	case line := <-lines:
		addr, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
		if !ok {
			c.stop()
			return nil, fmt.Errorf("%s printed %q, not \"listening on HOST:PORT\"; stderr: %s", name, line, c.logs.String())
		}
		c.addr = addr
		return c, nil
	case <-time.After(20 * time.Second):
		c.stop()
		return nil, fmt.Errorf("%s did not start in 20s; stderr: %s", name, c.logs.String())
	}
}

// stop ends the process with SIGTERM (SIGKILL after 10s) and waits for it.
func (c *child) stop() {
	_ = c.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		_ = c.cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = c.cmd.Process.Kill()
		<-done
	}
}

// cpu is the processor time the process has used so far, summed over its
// threads from /proc/PID/task/*/schedstat (nanoseconds, where /proc/PID/stat
// counts 10ms ticks).
func (c *child) cpu() (time.Duration, error) {
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", c.cmd.Process.Pid))
	if err != nil || len(tasks) == 0 {
		return 0, fmt.Errorf("%s: no /proc/%d/task/*/schedstat: %v", c.name, c.cmd.Process.Pid, err)
	}
	var total time.Duration
	for _, t := range tasks {
		data, err := os.ReadFile(t)
		if errors.Is(err, os.ErrNotExist) {
			continue // a thread that just ended
		}
		if err != nil {
			return 0, err
		}
		first, _, _ := strings.Cut(string(data), " ")
		ns, err := strconv.ParseInt(first, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%s: %s: %q", c.name, t, data)
		}
		total += time.Duration(ns)
	}
	return total, nil
}

// counting is `perf stat` counting a process's system calls and context
// switches, for -perf.
type counting struct {
	cmd *exec.Cmd
	out bytes.Buffer
}

// countEvents starts perf stat on the process.
func (c *child) countEvents() (*counting, error) {
	p := &counting{}
	p.cmd = exec.Command("perf", "stat", "-x", ",", "-e", "raw_syscalls:sys_enter,context-switches", "-p", strconv.Itoa(c.cmd.Process.Pid))
	p.cmd.Stderr = &p.out
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("perf: %w", err)
	}
	time.Sleep(100 * time.Millisecond) // perf attaches
	return p, nil
}

// stop ends perf stat and returns the system calls and context switches
// it counted.
func (p *counting) stop() (syscalls, switches int64, err error) {
	_ = p.cmd.Process.Signal(syscall.SIGINT)
	_ = p.cmd.Wait()
	for _, line := range strings.Split(p.out.String(), "\n") {
		f := strings.Split(line, ",")
		if len(f) < 3 {
			continue
		}
		n, perr := strconv.ParseInt(f[0], 10, 64)
		switch {
		case perr != nil:
		case f[2] == "raw_syscalls:sys_enter":
			syscalls = n
		case f[2] == "context-switches":
			switches = n
		}
	}
	if syscalls == 0 {
		return 0, 0, fmt.Errorf("perf counted nothing: %s", p.out.String())
	}
	return syscalls, switches, nil
}
