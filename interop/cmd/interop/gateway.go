package main

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kafkagen/kafkagen/interop/internal/certs"
	"github.com/kafkagen/kafkagen/interop/internal/scenario"
)

// gatewayOutcome is what the run through kafkaproxy as a gateway did; its
// fields are the summary line's.
type gatewayOutcome struct {
	Runs, Passed     int // client runs, and those that passed
	Clusters         int // virtual clusters of the proxy
	CrossTenant      int // tenant B's attempts on tenant A's topic
	CrossTenantHeld  int // of them, refused or kept in B's own cluster
	Leaks            int // attempts that read, changed or reached what they must not
	ACLRefusals      int // TOPIC_AUTHORIZATION_FAILED answers to the no-ACL principal
	ACLAttempts      int
	AuthRefusals     int // unauthenticated attempts refused or cut
	AuthAttempts     int
	Mismatches       int // differences between the broker's topics and the tenants'
	Quota            quotaOutcome
	Problems         []string
	upstreamPassword string
}

// Line is the summary line.
func (o *gatewayOutcome) Line() string {
	return fmt.Sprintf("gateway: clients=%d/%d virtual-clusters=%d cross-tenant=%d/%d held leaks=%d acl-refusals=%d/%d auth-refusals=%d/%d mismatches=%d %s",
		o.Passed, o.Runs, o.Clusters, o.CrossTenantHeld, o.CrossTenant, o.Leaks, o.ACLRefusals, o.ACLAttempts, o.AuthRefusals, o.AuthAttempts, o.Mismatches, o.Quota)
}

// gatewayRunsOf are the gateway runs of the clients in specs.
func gatewayRunsOf(specs []clientSpec) []securedRun {
	var out []securedRun
	for _, r := range gatewayRuns {
		if slices.ContainsFunc(specs, func(s clientSpec) bool { return s.Name == r.Client }) {
			out = append(out, r)
		}
	}
	return out
}

// runGateway runs real clients through kafkaproxy as a multi-tenant
// gateway: the example broker with SASL_PLAINTEXT and one user, the
// proxy's; kafkaproxy with a -config file written here (TLS and SASL toward
// clients, its own login to the broker, a virtual cluster per tenant,
// ACLs, a quota, OAUTHBEARER); each client run over SASL_SSL as its own
// tenant; the quota run (gateway_quota.go); then the attacks
// (gateway_attacks.go, gateway_auth.go, gateway_oauth.go) and a login with
// a valid token; then the broker read directly, as the proxy's user: every
// tenant's topics under its prefix with exactly its records, and nothing
// else.
func runGateway(ctx context.Context, w io.Writer, cfg config, specs []clientSpec, root, dir, goclient, brokerBin, bin string) *gatewayOutcome {
	out := &gatewayOutcome{}
	runs := gatewayRunsOf(specs)
	start := time.Now()
	defer func() {
		fmt.Fprintf(w, "gateway: %d client runs and %d attacks through kafkaproxy in %v\n", out.Runs,
			out.CrossTenant+out.ACLAttempts+out.AuthAttempts, time.Since(start).Round(100*time.Millisecond))
	}()
	fail := func(err error) *gatewayOutcome {
		out.Problems = append(out.Problems, "gateway: "+err.Error())
		fmt.Fprintf(w, "FAIL gateway: %v\n", err)
		return out
	}
	proxyBin, err := buildExample(ctx, filepath.Join(root, "examples", "proxy"), filepath.Join(bin, "kafkaproxy"))
	if err != nil {
		return fail(err)
	}
	tmp, err := os.MkdirTemp("", "interop-gateway-")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(tmp)
	files, err := certs.Write(tmp)
	if err != nil {
		return fail(err)
	}
	out.upstreamPassword = rand.Text()
	usersFile := filepath.Join(tmp, "broker-users")
	if err := os.WriteFile(usersFile, []byte(gatewayUpstreamUser+":"+out.upstreamPassword+"\n"), 0o600); err != nil {
		return fail(err)
	}
	tokens, err := newTokenSigner(filepath.Join(tmp, "oauth-keys.pem"))
	if err != nil {
		return fail(err)
	}
	b, err := startBroker(ctx, brokerBin, bin, "broker-gateway", "", "-security-protocol", scenario.SASLPlaintext, "-sasl-users", usersFile)
	if err != nil {
		return fail(err)
	}
	defer b.stop()
	tenants := gatewayTenants(runs)
	out.Clusters = len(tenants)
	p, metrics, err := startGatewayProxy(ctx, proxyBin, filepath.Join(bin, "kafkaproxy-gateway.log"), filepath.Join(tmp, "kafkaproxy.yaml"), b.addr,
		gatewayFiles{Cert: files.Cert, Key: files.Key, UpstreamPassword: out.upstreamPassword, OAuthKeys: tokens.file}, tenants)
	if err != nil {
		return fail(err)
	}
	defer p.stop()
	fmt.Fprintf(w, "gateway: kafkaproxy on %s (log: %s) with %d virtual clusters, to the broker on %s with SASL_PLAINTEXT\n", p.addr, p.logPath, len(tenants), b.addr)

	want := map[string]expectedTopic{}
	results := gatewayClients(ctx, cfg, specs, dir, goclient, p.addr, files.CA, tenants)
	for i, t := range tenants[:len(runs)] {
		results[i].Name = t.Run.String() + " through the gateway as " + t.Name
		for topic, e := range clientTopics(t, cfg.n) {
			want[topic] = e
		}
	}
	passed, problems := report(w, results, true)
	out.Runs, out.Passed = len(results), passed
	out.Problems = append(out.Problems, problems...)
	if passed < len(results) {
		fmt.Fprintf(w, "kafkaproxy log tail:\n    %s\n", strings.ReplaceAll(p.logTail(30), "\n", "\n    "))
	}

	d := gatewayDialer{addr: p.addr, caFile: files.CA}
	byName := map[string]gatewayTenant{}
	for _, t := range tenants {
		byName[t.Name] = t
	}
	out.Quota = runQuota(ctx, w, d, byName[tenantThrottled], byName[tenantFullSpeed])
	out.Problems = append(out.Problems, out.Quota.Problems...)
	var other *gatewayTenant // a client's tenant: no super user
	if len(runs) > 0 {
		other = &tenants[0]
	}
	attacks := crossTenant(ctx, d, byName[tenantA], byName[tenantB], other)
	out.Problems = append(out.Problems, attacks.Problems...)
	for topic, e := range attacks.Topics {
		want[topic] = e
	}
	acl, problems := aclRefusals(ctx, d, byName[tenantNobody])
	out.Problems = append(out.Problems, problems...)
	if topics, line, err := oauthControl(ctx, d, tokens, byName[tenantOAuth]); err != nil {
		out.Problems = append(out.Problems, "gateway: OAUTHBEARER control: "+err.Error())
		fmt.Fprintf(w, "FAIL gateway: OAUTHBEARER control: %v\n", err)
	} else {
		maps.Copy(want, topics)
		fmt.Fprintf(w, "gateway: OAUTHBEARER control: %s\n", line)
	}
	before, err := steadyRequests(ctx, b)
	if err != nil {
		return fail(err)
	}
	failuresBefore, err := scrapeAuthFailures(ctx, metrics)
	if err != nil {
		return fail(err)
	}
	preAuth := preAuthAttacks(ctx, d, byName[tenantA], tokens, tenantOAuth)
	after, err := steadyRequests(ctx, b)
	if err != nil {
		return fail(err)
	}
	failuresAfter, err := scrapeAuthFailures(ctx, metrics)
	if err != nil {
		return fail(err)
	}
	out.tally(w, attacks.Attempts, acl, preAuth)
	out.checkAuthFailures(w, counted(failuresBefore, failuresAfter), preAuth)
	if after != before {
		out.Leaks++
		out.Problems = append(out.Problems, fmt.Sprintf("the broker got %d requests while only unauthenticated clients spoke to the proxy", after-before))
	}
	fmt.Fprintf(w, "gateway: the broker's request count stayed at %d during the unauthenticated attempts (it moved by %d)\n", before, after-before)
	if err := p.stop(); err != nil {
		out.Problems = append(out.Problems, "kafkaproxy: "+err.Error())
	}
	out.checkBroker(ctx, w, b, want, attacks.SecretID, slices.Concat(attacks.Attempts, acl))
	return out
}

// gatewayClients runs each client run as its tenant, cfg.parallel at a
// time; results are in the order of tenants.
func gatewayClients(ctx context.Context, cfg config, specs []clientSpec, dir, goclient, proxy, caFile string, tenants []gatewayTenant) []*clientResult {
	var runSpecs []clientSpec
	for _, t := range tenants {
		if t.Run == nil {
			continue
		}
		sec := scenario.Security{Protocol: t.Run.Protocol, Mechanism: t.Run.Mechanism, User: t.Name, Password: t.Password, CAFile: caFile}
		spec := securedSpec(specs[slices.IndexFunc(specs, func(s clientSpec) bool { return s.Name == t.Run.Client })], proxy, sec)
		if t.Run.Client == "kcat" {
			// The gateway accepts librdkafka's repeated SCRAM nonce: kcat's
			// nonce step expects it to (kcatclient.scramNonceAccepted).
			plain := spec
			spec.Command = func(dir, goclient, broker string, n int) []string {
				return append(plain.Command(dir, goclient, broker, n), "--scram-repeated-nonce-accepted")
			}
		}
		runSpecs = append(runSpecs, spec)
	}
	return runClients(ctx, runSpecs, cfg.parallel, func(ctx context.Context, s clientSpec) *clientResult {
		return runClient(ctx, s, dir, goclient, "", cfg.n, cfg.clientTimeout)
	})
}

// checkAuthFailures compares what the proxy's authentication failures
// counter moved by, per mechanism, with the unauthenticated attempts: each
// one failure under the mechanism it tried.
func (o *gatewayOutcome) checkAuthFailures(w io.Writer, moved map[string]int, preAuth []attempt) {
	want := map[string]int{}
	for _, a := range preAuth {
		want[a.Mechanism]++
	}
	fmt.Fprintf(w, "gateway: %s moved by %v during the unauthenticated attempts (want %v)\n", authFailuresMetric, moved, want)
	if !maps.Equal(moved, want) {
		o.Problems = append(o.Problems, fmt.Sprintf("gateway: %s moved by %v, want %v", authFailuresMetric, moved, want))
	}
}

// tally prints every attempt and counts them.
func (o *gatewayOutcome) tally(w io.Writer, crossTenant, acl, preAuth []attempt) {
	groups := []struct {
		attempts     []attempt
		total, held  *int
		what, wanted string
	}{
		{crossTenant, &o.CrossTenant, &o.CrossTenantHeld, "cross-tenant", "refused or kept in the attacker's cluster"},
		{acl, &o.ACLAttempts, &o.ACLRefusals, "acl", "TOPIC_AUTHORIZATION_FAILED"},
		{preAuth, &o.AuthAttempts, &o.AuthRefusals, "auth", "refused or cut before authentication"},
	}
	for _, g := range groups {
		for _, a := range g.attempts {
			*g.total++
			verdict := "held"
			if a.Held {
				*g.held++
			} else {
				verdict = "NOT held"
				o.Problems = append(o.Problems, fmt.Sprintf("%s: %s was not %s (%s)", g.what, a.Name, g.wanted, a.Detail))
			}
			if a.Leaked {
				o.Leaks++
				o.Problems = append(o.Problems, fmt.Sprintf("%s: %s leaked (%s)", g.what, a.Name, a.Detail))
			}
			fmt.Fprintf(w, "  %s %s: %s: %s\n", g.what, verdict, a.Name, a.Detail)
		}
	}
}

// checkBroker reads the broker directly, as the proxy's user: every topic
// of want there with its records and no other, A's topic with the id A was
// shown, and no request of an attempt answered at the proxy in the
// broker's stats (read after it stops).
func (o *gatewayOutcome) checkBroker(ctx context.Context, w io.Writer, b *broker, want map[string]expectedTopic, secretID [16]byte, atProxy []attempt) {
	got, _, err := readContents(ctx, []string{b.addr}, brokerLogin(o.upstreamPassword))
	if err != nil {
		o.Problems = append(o.Problems, "gateway: reading the broker: "+err.Error())
		return
	}
	diffs := diffTenantContents(got, want)
	secret := tenantA + "." + secretTopic
	id, err := brokerTopicID(ctx, b.addr, o.upstreamPassword, secret)
	switch {
	case err != nil:
		diffs = append(diffs, fmt.Sprintf("the id of %s: %v", secret, err))
	case id != secretID:
		o.Leaks++
		diffs = append(diffs, fmt.Sprintf("%s has id %x at the broker, tenant A was shown %x", secret, id, secretID))
	}
	for _, d := range diffs {
		if strings.HasPrefix(d, "topic "+secret+" ") || strings.HasPrefix(d, "topic "+secret+":") {
			o.Leaks++ // tenant A's topic changed: an attack got through
		}
	}
	o.Mismatches = len(diffs)
	records := 0
	for _, rs := range got {
		records += len(rs)
	}
	fmt.Fprintf(w, "gateway: the broker holds %d topics, %d records; %d expected: %d differences\n", len(got), records, len(want), len(diffs))
	for _, d := range diffs {
		fmt.Fprintln(w, "  "+d)
		o.Problems = append(o.Problems, "gateway: "+d)
	}
	if err := b.stop(); err != nil {
		o.Problems = append(o.Problems, "gateway broker: "+err.Error())
		return
	}
	st, err := b.readStats()
	if err != nil {
		o.Problems = append(o.Problems, "gateway broker: "+err.Error())
		return
	}
	for _, r := range reachedBroker(st, atProxy) {
		o.Leaks++
		o.Problems = append(o.Problems, "gateway: "+r)
		fmt.Fprintln(w, "  "+r)
	}
}

// startGatewayProxy writes the configuration file for a port of 127.0.0.1
// with free ports above it (node 0's is the next) and another for
// /metrics, and runs kafkaproxy -config with it, trying other ports when
// one is taken meanwhile. It returns the proxy and its metrics address.
func startGatewayProxy(ctx context.Context, binary, logPath, configPath, upstream string, files gatewayFiles, tenants []gatewayTenant) (*broker, string, error) {
	var err error
	for range 5 {
		var port, metricsPort int
		if port, err = freeRun(4); err != nil {
			return nil, "", err
		}
		if metricsPort, err = freePort(); err != nil {
			return nil, "", err
		}
		metrics := "127.0.0.1:" + strconv.Itoa(metricsPort)
		var data []byte
		if data, err = gatewayConfig("127.0.0.1:"+strconv.Itoa(port), metrics, upstream, files, tenants); err != nil {
			return nil, "", err
		}
		if err = os.WriteFile(configPath, data, 0o600); err != nil {
			return nil, "", err
		}
		var p *broker
		if p, err = startListening(ctx, "kafkaproxy", binary, logPath, []string{"-config", configPath}); err == nil {
			return p, metrics, nil
		}
	}
	return nil, "", err
}
