package main

import (
	"slices"

	"github.com/kafkagen/kafkagen/interop/internal/scenario"
)

// securedRun is one run of a client against the broker of one security
// protocol: the client's records produced and read back over it and, with
// SASL, a wrong password refused (each client's SecureSteps).
type securedRun struct {
	Client    string // a name of clientSpecs
	Protocol  string // SSL, SASL_PLAINTEXT or SASL_SSL
	Mechanism string // for the SASL protocols
}

// securedRuns are the secured runs, in the order their results are printed.
var securedRuns = []securedRun{
	{"kcat", scenario.SASLSSL, scenario.Plain}, // not SCRAM: see kcatclient.scramNonce
	{"kafka-python", scenario.SASLPlaintext, scenario.Plain},
	{"kafka-python", scenario.SSL, ""},
	{"kafkajs", scenario.SASLSSL, scenario.ScramSHA256},
	{"franz-go", scenario.SASLSSL, scenario.ScramSHA512},
	{"sarama", scenario.SASLPlaintext, scenario.ScramSHA256},
	{"kafka-go", scenario.SASLPlaintext, scenario.Plain},
}

// String names the run in PASS and FAIL lines: "kcat over SASL_SSL with
// SCRAM-SHA-512".
func (r securedRun) String() string {
	if r.Mechanism == "" {
		return r.Client + " over " + r.Protocol
	}
	return r.Client + " over " + r.Protocol + " with " + r.Mechanism
}

// securedRunsOf are the secured runs of the clients in specs.
func securedRunsOf(specs []clientSpec) []securedRun {
	var out []securedRun
	for _, r := range securedRuns {
		if slices.ContainsFunc(specs, func(s clientSpec) bool { return s.Name == r.Client }) {
			out = append(out, r)
		}
	}
	return out
}

// protocols are the security protocols runs need, one broker each, in the
// order of their first run.
func protocols(runs []securedRun) []string {
	var out []string
	for _, r := range runs {
		if !slices.Contains(out, r.Protocol) {
			out = append(out, r.Protocol)
		}
	}
	return out
}

// securityArgs are the flags every client command takes for sec (goclient,
// kafka_python_client.py and kafkajs_client.js alike).
func securityArgs(sec scenario.Security) []string {
	args := []string{"--security-protocol", sec.Protocol}
	if sec.UsesTLS() {
		args = append(args, "--ca-file", sec.CAFile)
	}
	if sec.UsesSASL() {
		args = append(args, "--sasl-mechanism", sec.Mechanism, "--sasl-user", sec.User, "--sasl-password", sec.Password)
	}
	return args
}

// securedSpec is the client of spec run against the secured broker at
// addr: its command with the security flags, whatever broker it is given.
func securedSpec(spec clientSpec, addr string, sec scenario.Security) clientSpec {
	return clientSpec{Name: spec.Name, Command: func(dir, goclient, _ string, n int) []string {
		return append(spec.Command(dir, goclient, addr, n), securityArgs(sec)...)
	}}
}

// securedPassed counts the clients with secured runs whose every secured
// run passed; results are in the order of runs.
func securedPassed(runs []securedRun, results []*clientResult) int {
	failed := map[string]bool{}
	for i, r := range runs {
		failed[r.Client] = failed[r.Client] || !results[i].Passed()
	}
	passed := 0
	for _, f := range failed {
		if !f {
			passed++
		}
	}
	return passed
}
