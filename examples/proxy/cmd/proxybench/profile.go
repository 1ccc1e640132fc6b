package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// -profile MODE: where the relaying process of MODE spends its processor
// time, from perf record (sampled stacks) over the counted part of its
// runs, by function when the benchmark ends. Sampling costs the process
// time too: a run with -profile is for the profile, not for the table.

// profileMode is -profile; profileDir holds the recordings.
var profileMode, profileDir string

// recording is perf record sampling a process.
type recording struct {
	cmd  *exec.Cmd
	out  string
	logs bytes.Buffer
}

// record starts perf record on the process, into a file of profileDir
// named after the load.
func (c *child) record(loadName string) (*recording, error) {
	out := filepath.Join(profileDir, strings.ReplaceAll(loadName, " ", "-")+"-"+strconv.Itoa(c.cmd.Process.Pid)+".data")
	r := &recording{out: out}
	r.cmd = exec.Command("perf", "record", "-q", "-F", "999", "-g", "-o", out, "-p", strconv.Itoa(c.cmd.Process.Pid))
	r.cmd.Stderr = &r.logs
	if err := r.cmd.Start(); err != nil {
		return nil, fmt.Errorf("perf record: %w", err)
	}
	time.Sleep(100 * time.Millisecond) // perf attaches
	return r, nil
}

// stop ends perf record, which writes its file and exits on SIGINT (with
// status 130, hence the file is checked rather than the status).
func (r *recording) stop() error {
	_ = r.cmd.Process.Signal(syscall.SIGINT)
	err := r.cmd.Wait()
	if st, serr := os.Stat(r.out); serr != nil || st.Size() == 0 {
		return fmt.Errorf("perf record wrote no %s (%v): %s", r.out, err, r.logs.String())
	}
	return nil
}

// printProfiles writes, per load, the functions with the most samples
// (self time) over every recording of it.
func printProfiles(loads []load) error {
	fmt.Printf("\nWhere %s spends its processor time (perf record, self time by function, the top 15)\n", profileMode)
	for _, l := range loads {
		files, err := filepath.Glob(filepath.Join(profileDir, strings.ReplaceAll(l.name, " ", "-")+"-*.data"))
		if err != nil || len(files) == 0 {
			continue
		}
		// One recording, the middle round's, stands for the others.
		cmd := exec.Command("perf", "report", "--stdio", "--no-children", "-g", "none", "--percent-limit", "0.5",
			"--sort", "symbol", "-i", files[len(files)/2])
		out, err := cmd.Output()
		if err != nil {
			return fmt.Errorf("perf report %s: %w", files[len(files)/2], err)
		}
		fmt.Printf("\n%s (%s):\n\n```\n", l.name, filepath.Base(files[len(files)/2]))
		n := 0
		for _, line := range strings.Split(string(out), "\n") {
			if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
				continue
			}
			f := strings.Fields(line) // percent, [k] or [.], symbol
			if len(f) < 3 {
				continue
			}
			fmt.Printf("%8s %s %s\n", f[0], f[1], f[2])
			if n++; n == 15 {
				break
			}
		}
		fmt.Println("```")
	}
	return nil
}

// profileInto makes the directory of the recordings.
func profileInto(dir string) error {
	profileDir = filepath.Join(dir, "perf")
	return os.MkdirAll(profileDir, 0o755)
}
