package scenario

import (
	"context"
	"fmt"
	"io"
	"time"
)

// Step is one scenario of a client: produce with a codec, a consumer group,
// an idempotent producer... Run returns a short description of what it
// checked, printed after "ok".
type Step struct {
	Name string
	Run  func(ctx context.Context) (string, error)
}

// StepTimeout bounds one step; the harness bounds the whole client process
// as well.
const StepTimeout = 60 * time.Second

// RunSteps runs every step in order, each under StepTimeout, and writes one
// line per step to out: "ok <client> <step>: <detail>" or
// "FAIL <client> <step>: <error>". A failed step does not stop the next ones,
// so one run shows every failure. It returns the number of failed steps.
func RunSteps(ctx context.Context, out io.Writer, client string, steps []Step) int {
	failed := 0
	for _, s := range steps {
		start := time.Now()
		stepCtx, cancel := context.WithTimeout(ctx, StepTimeout)
		detail, err := s.Run(stepCtx)
		cancel()
		took := time.Since(start).Round(time.Millisecond)
		if err != nil {
			failed++
			fmt.Fprintf(out, "FAIL %s %s: %v (after %v)\n", client, s.Name, err, took)
			continue
		}
		fmt.Fprintf(out, "ok %s %s: %s (%v)\n", client, s.Name, detail, took)
	}
	return failed
}

// CodecSteps returns one step per codec of Codecs, named after the codec,
// each calling run with it: the produce-and-consume-back steps every client
// starts with.
func CodecSteps(run func(ctx context.Context, codec string) (string, error)) []Step {
	steps := make([]Step, len(Codecs))
	for i, codec := range Codecs {
		steps[i] = Step{Name: codec, Run: func(ctx context.Context) (string, error) { return run(ctx, codec) }}
	}
	return steps
}

// ClientID is the client id a client uses for one step: the broker captures
// the first request of each (client id, api, version) and the harness files
// it under the client and the step, so every step gets its own id.
func ClientID(client, step string) string {
	return client + "-" + step
}
