package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// stats is the broker's -stats file.
type stats struct {
	Requests      int64                       `json:"requests"`
	ReencodeDiffs int64                       `json:"reencode_diffs"`
	Clients       map[string]map[string]int64 `json:"clients"` // client id -> "<ApiName> v<ver>" -> count
}

// broker is the example broker running as a child process (or kafkaproxy,
// which starts and stops alike and has no stats).
type broker struct {
	cmd       *exec.Cmd
	addr      string
	statsPath string
	logPath   string
	exited    chan error
}

// buildBroker generates the broker's protocol package (go generate, as a
// user of kafkagen would) and builds its binary into bin.
func buildBroker(ctx context.Context, brokerDir, bin string) (string, error) {
	return buildExample(ctx, brokerDir, filepath.Join(bin, "broker"))
}

// buildExample runs go generate, then go build -o out, in the folder of an
// example command (examples/broker, examples/proxy).
func buildExample(ctx context.Context, dir, out string) (string, error) {
	for _, args := range [][]string{{"generate", "."}, {"build", "-o", out, "."}} {
		cmd := exec.CommandContext(ctx, "go", args...)
		cmd.Dir = dir
		if msg, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("go %s in %s: %w\n%s", strings.Join(args, " "), dir, err, msg)
		}
	}
	return out, nil
}

// startBroker starts the binary on a free port of 127.0.0.1, with extra
// flags, and waits for the "listening on" line that names it. The broker's
// other output goes to bin/<name>.log, its stats to bin/<name>-stats.json.
func startBroker(ctx context.Context, binary, bin, name, captureDir string, extra ...string) (*broker, error) {
	statsPath := filepath.Join(bin, name+"-stats.json")
	os.Remove(statsPath)
	args := []string{"-addr", "127.0.0.1:0", "-stats", statsPath}
	if captureDir != "" {
		args = append(args, "-capture", captureDir)
	}
	b, err := startListening(ctx, "broker", binary, filepath.Join(bin, name+".log"), append(args, extra...))
	if err != nil {
		return nil, err
	}
	b.statsPath = statsPath
	return b, nil
}

// startListening starts a process (the broker, or kafkaproxy) whose first
// line on stdout is "listening on 127.0.0.1:PORT", and waits for that line;
// the rest of its output goes to logPath.
func startListening(ctx context.Context, what, binary, logPath string, args []string) (*broker, error) {
	b := &broker{logPath: logPath, exited: make(chan error, 1)}
	logFile, err := os.Create(b.logPath)
	if err != nil {
		return nil, err
	}
	b.cmd = exec.Command(binary, args...)
	b.cmd.Stderr = logFile
	stdout, err := b.cmd.StdoutPipe()
	if err != nil {
		logFile.Close()
		return nil, err
	}
	if err := b.cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("start %s: %w", what, err)
	}
	first := make(chan string, 1)
	go func() {
		lines := bufio.NewReader(stdout)
		line, _ := lines.ReadString('\n')
		first <- line
		io.Copy(logFile, lines)
		b.exited <- b.cmd.Wait()
		logFile.Close()
	}()
	select {
	case line := <-first:
		addr, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
		if !ok || !strings.HasPrefix(addr, "127.0.0.1:") {
			b.stop()
			return nil, fmt.Errorf("%s's first line is %q, want \"listening on 127.0.0.1:PORT\" (log: %s)", what, line, b.logPath)
		}
		b.addr = addr
		return b, nil
	case <-time.After(20 * time.Second):
		b.stop()
		return nil, fmt.Errorf("%s printed no address within 20s (log: %s)", what, b.logPath)
	case <-ctx.Done():
		b.stop()
		return nil, ctx.Err()
	}
}

// alive reports whether the broker process is still running.
func (b *broker) alive() error {
	select {
	case err := <-b.exited:
		b.exited <- err
		return fmt.Errorf("broker exited early (%v); log: %s", err, b.logPath)
	default:
		return nil
	}
}

// stop sends SIGTERM, on which the broker writes its stats and exits, and
// kills it if it has not exited 10 seconds later.
func (b *broker) stop() error {
	if err := b.alive(); err != nil {
		return err
	}
	b.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-b.exited:
		b.exited <- err
		if err != nil { // a non-zero exit status: the broker failed to stop cleanly
			return fmt.Errorf("broker exit on SIGTERM: %w (log: %s)", err, b.logPath)
		}
		return nil
	case <-time.After(10 * time.Second):
		b.cmd.Process.Kill()
		err := <-b.exited
		b.exited <- err
		return fmt.Errorf("broker ignored SIGTERM for 10s and was killed (log: %s)", b.logPath)
	}
}

// readStats reads the stats file the broker wrote as it stopped.
func (b *broker) readStats() (*stats, error) {
	data, err := os.ReadFile(b.statsPath)
	if err != nil {
		return nil, fmt.Errorf("broker stats: %w", err)
	}
	var s stats
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("broker stats %s: %w", b.statsPath, err)
	}
	return &s, nil
}

// logTail is the end of the broker's log, for failure reports.
func (b *broker) logTail(lines int) string {
	data, err := os.ReadFile(b.logPath)
	if err != nil {
		return ""
	}
	all := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(all) > lines {
		all = all[len(all)-lines:]
	}
	return strings.Join(all, "\n")
}
