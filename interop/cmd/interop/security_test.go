package main

import (
	"slices"
	"testing"

	"github.com/kafkagen/kafkagen/interop/internal/scenario"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSecuredRunsCoverEveryClient(t *testing.T) {
	runs := securedRunsOf(clientSpecs)
	assert.Equal(t, securedRuns, runs)
	for _, s := range clientSpecs {
		assert.True(t, slices.ContainsFunc(runs, func(r securedRun) bool { return r.Client == s.Name }), "%s has no secured run", s.Name)
	}
	assert.Equal(t, []string{scenario.SASLSSL, scenario.SASLPlaintext, scenario.SSL}, protocols(runs))
}

func TestSecuredRunsOfSomeClients(t *testing.T) {
	only, err := selectClients("sarama,kafka-python")
	require.NoError(t, err)
	runs := securedRunsOf(only)
	assert.Equal(t, []securedRun{
		{"kafka-python", scenario.SASLPlaintext, scenario.Plain},
		{"kafka-python", scenario.SSL, ""},
		{"sarama", scenario.SASLPlaintext, scenario.ScramSHA256},
	}, runs)
	assert.Equal(t, []string{scenario.SASLPlaintext, scenario.SSL}, protocols(runs))
	assert.Equal(t, "kafka-python over SSL", runs[1].String())
	assert.Equal(t, "sarama over SASL_PLAINTEXT with SCRAM-SHA-256", runs[2].String())
}

func TestSecuredSpecAddsTheSecurityFlags(t *testing.T) {
	base := clientSpec{Name: "franz-go", Command: func(_, goclient, broker string, n int) []string {
		return []string{goclient, "-broker", broker}
	}}
	for _, tc := range []struct {
		sec  scenario.Security
		want []string
	}{
		{scenario.Security{Protocol: scenario.SSL, CAFile: "/tmp/ca.pem", User: "ignored"},
			[]string{"gc", "-broker", "127.0.0.1:1", "--security-protocol", "SSL", "--ca-file", "/tmp/ca.pem"}},
		{scenario.Security{Protocol: scenario.SASLPlaintext, Mechanism: "PLAIN", User: "u", Password: "p", CAFile: "ignored"},
			[]string{"gc", "-broker", "127.0.0.1:1", "--security-protocol", "SASL_PLAINTEXT", "--sasl-mechanism", "PLAIN", "--sasl-user", "u", "--sasl-password", "p"}},
	} {
		spec := securedSpec(base, "127.0.0.1:1", tc.sec)
		assert.Equal(t, "franz-go", spec.Name)
		assert.Equal(t, tc.want, spec.Command("dir", "gc", "the plaintext broker", 5), "the secured broker, whatever broker is given")
	}
}

func TestSecuredPassedCountsClientsWhoseEveryRunPassed(t *testing.T) {
	runs := []securedRun{{Client: "kafka-python"}, {Client: "kafka-python"}, {Client: "sarama"}, {Client: "kcat"}}
	ok := &clientResult{OK: []string{"ok"}}
	bad := &clientResult{OK: []string{"ok"}, Failed: []string{"FAIL"}}
	assert.Equal(t, 3, securedPassed(runs, []*clientResult{ok, ok, ok, ok}))
	assert.Equal(t, 2, securedPassed(runs, []*clientResult{ok, bad, ok, ok}), "one failed run of two fails the client")
	assert.Equal(t, 0, securedPassed(runs, []*clientResult{bad, ok, {}, bad}), "a run with no scenario did not pass")
}

func TestStatsAdd(t *testing.T) {
	s := &stats{Requests: 3, ReencodeDiffs: 1, Clients: map[string]map[string]int64{"kcat-none": {"Produce v9": 2}}}
	s.add(&stats{Requests: 4, Clients: map[string]map[string]int64{
		"kcat-none":            {"Produce v9": 1, "Fetch v11": 1},
		"kcat-sasl-ssl-x-none": {"Metadata v12": 5},
	}})
	assert.Equal(t, &stats{Requests: 7, ReencodeDiffs: 1, Clients: map[string]map[string]int64{
		"kcat-none":            {"Produce v9": 3, "Fetch v11": 1},
		"kcat-sasl-ssl-x-none": {"Metadata v12": 5},
	}}, s)
	empty := &stats{}
	empty.add(s)
	assert.Equal(t, s, empty)
}
