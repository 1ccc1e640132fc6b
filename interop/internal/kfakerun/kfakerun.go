// Package kfakerun runs a Go client's interop scenarios against kfake,
// franz-go's fake Kafka, in process on 127.0.0.1: it checks the scenarios
// against a Kafka written by others, apart from the example broker. The
// clients' tests use it; it is a package of its own so that kfake stays out
// of the goclient binary.
package kfakerun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/kafkagen/kafkagen/interop/internal/scenario"
	"github.com/twmb/franz-go/pkg/kfake"
)

// records is how many records each step produces against kfake.
const records = 10

// timeout bounds all the steps of one run.
const timeout = 3 * time.Minute

// Run starts a one-broker kfake configured by opts, runs steps against it
// (each with its own timeout, all within three minutes) and stops it. Steps
// named in skip are left out, each logged with the reason kfake cannot serve
// it; every step's "ok" line is logged too. The error lists every step that
// failed, or says that no step ran.
func Run(logf func(format string, args ...any), steps func(broker string, n int) []scenario.Step, skip map[string]string, opts ...kfake.Opt) error {
	cluster, err := kfake.NewCluster(append([]kfake.Opt{kfake.NumBrokers(1)}, opts...)...)
	if err != nil {
		return fmt.Errorf("kfake: %w", err)
	}
	defer cluster.Close()
	var run []scenario.Step
	for _, s := range steps(cluster.ListenAddrs()[0], records) {
		if reason, ok := skip[s.Name]; ok {
			logf("not against kfake: %s (%s)", s.Name, reason)
			continue
		}
		run = append(run, s)
	}
	if len(run) == 0 {
		return errors.New("kfake: no step to run")
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var out bytes.Buffer
	scenario.RunSteps(ctx, &out, "client", run)
	var failed []string
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if strings.HasPrefix(line, "FAIL ") {
			failed = append(failed, line)
		} else {
			logf("%s", line)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("against kfake, %d of %d steps failed:\n%s", len(failed), len(run), strings.Join(failed, "\n"))
	}
	return nil
}
