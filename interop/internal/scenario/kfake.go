package scenario

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
)

// RunAgainstKfake runs steps against kfake, franz-go's fake Kafka, started
// for the test on 127.0.0.1, and fails the test for every step that fails:
// it checks a client's scenarios against a Kafka written by others, apart
// from the example broker. Steps named in skip are left out, each with the
// reason kfake cannot serve it; opts configure kfake.
func RunAgainstKfake(t *testing.T, steps func(broker string, n int) []Step, skip map[string]string, opts ...kfake.Opt) {
	t.Helper()
	cluster, err := kfake.NewCluster(append([]kfake.Opt{kfake.NumBrokers(1)}, opts...)...)
	if err != nil {
		t.Fatalf("kfake: %v", err)
	}
	defer cluster.Close()
	var run []Step
	for _, s := range steps(cluster.ListenAddrs()[0], 10) {
		if reason, ok := skip[s.Name]; ok {
			t.Logf("not against kfake: %s (%s)", s.Name, reason)
			continue
		}
		run = append(run, s)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var out bytes.Buffer
	failed := RunSteps(ctx, &out, "client", run)
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if strings.HasPrefix(line, "FAIL ") {
			t.Error(line)
		} else {
			t.Log(line)
		}
	}
	if failed == 0 && len(run) == 0 {
		t.Fatal("no step ran")
	}
}
