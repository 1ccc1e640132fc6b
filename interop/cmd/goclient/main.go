// Command goclient runs the interop scenarios of one Go-driven client
// (franz-go, sarama, kafka-go, or kcat through its command line) against a
// broker and prints one "ok" or "FAIL" line per scenario. It exits 1 when a
// scenario failed, 2 on misuse.
//
//	goclient -client franz-go -broker 127.0.0.1:9092 [-n 20] [-timeout 3m]
//
// Against a secured broker, -security-protocol (SSL, SASL_PLAINTEXT or
// SASL_SSL) with -ca-file and -sasl-mechanism, -sasl-user, -sasl-password
// run the client's secured scenarios instead (SecureSteps).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/kafkagen/kafkagen/interop/internal/kafkagoclient"
	"github.com/kafkagen/kafkagen/interop/internal/kcatclient"
	"github.com/kafkagen/kafkagen/interop/internal/kgoclient"
	"github.com/kafkagen/kafkagen/interop/internal/saramaclient"
	"github.com/kafkagen/kafkagen/interop/internal/scenario"
)

// clients maps a client name to its scenarios.
var clients = map[string]func(broker string, n int) []scenario.Step{
	kgoclient.Name:     kgoclient.Steps,
	saramaclient.Name:  saramaclient.Steps,
	kafkagoclient.Name: kafkagoclient.Steps,
	kcatclient.Name:    kcatclient.Steps,
	// The old protocols alone, for the runs through kafkaproxy -bridge.
	kcatclient.OldName:   kcatclient.OldSteps,
	saramaclient.OldName: saramaclient.OldSteps,
}

// secureClients maps a client name to its scenarios against a secured broker.
var secureClients = map[string]func(broker string, n int, sec scenario.Security) []scenario.Step{
	kgoclient.Name:     kgoclient.SecureSteps,
	saramaclient.Name:  saramaclient.SecureSteps,
	kafkagoclient.Name: kafkagoclient.SecureSteps,
	kcatclient.Name:    kcatclient.SecureSteps,
}

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	fs := flag.NewFlagSet("goclient", flag.ContinueOnError)
	name := fs.String("client", "", "client to run: franz-go, sarama, kafka-go or kcat")
	broker := fs.String("broker", "", "broker address, host:port")
	n := fs.Int("n", 20, "records per scenario")
	only := fs.String("step", "", "run only the scenario of this name")
	timeout := fs.Duration("timeout", 3*time.Minute, "bound on the whole run")
	sec := scenario.SecurityFlags(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	stepsOf, ok := clients[*name]
	if !ok || *broker == "" || *n < 2 {
		fmt.Fprintf(os.Stderr, "goclient: need -client (one of franz-go, sarama, kafka-go, kcat), -broker and -n >= 2\n")
		return 2
	}
	if err := sec.Check(); err != nil {
		fmt.Fprintf(os.Stderr, "goclient: %v\n", err)
		return 2
	}
	steps := stepsOf(*broker, *n)
	if sec.Secured() {
		steps = secureClients[*name](*broker, *n, *sec)
	}
	if *only != "" {
		steps = slices.DeleteFunc(steps, func(s scenario.Step) bool { return s.Name != *only })
		if len(steps) == 0 {
			fmt.Fprintf(os.Stderr, "goclient: %s has no scenario %q\n", *name, *only)
			return 2
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	if scenario.RunSteps(ctx, os.Stdout, *name, steps) > 0 {
		return 1
	}
	return 0
}
