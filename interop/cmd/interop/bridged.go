package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/kafkagen/kafkagen/interop/internal/scenario"
)

// bridgeRelease is the Kafka release the bridge runs' broker behaves as.
const bridgeRelease = "4.0.0"

// bridgedClient is an old client of the bridge runs: its spec, the topics
// its steps write (for franz-go to read back), and the one step run
// straight to the broker, which must fail.
type bridgedClient struct {
	spec   clientSpec
	topics []writtenTopic
	direct clientSpec
}

// writtenTopic is a topic an old client wrote and what its records'
// timestamps must be as franz-go reads them from the broker.
type writtenTopic struct {
	name   string
	stamps stampRule
}

// stampRule is what a topic's timestamps must be.
type stampRule int

const (
	// stampsNone: written as message sets of magic 0, which have no
	// timestamp; converted to v2 batches they hold -1 (docs/protocol.md,
	// "Message sets v0/v1").
	stampsNone stampRule = iota
	// stampsSet: written with the scenario's timestamps (magic 1, or 2
	// from kafka-go 0.4.47, whose Produce the bridge does not convert).
	stampsSet
)

// topicsOf names the topics of steps, each with the same rule.
func topicsOf(stamps stampRule, names ...string) []writtenTopic {
	out := make([]writtenTopic, len(names))
	for i, name := range names {
		out[i] = writtenTopic{name, stamps}
	}
	return out
}

// bridgedClients are the old clients: sarama at Versions 0.8.2 and 0.10.2
// (with a group), kcat at the Kafka 0.9 protocol, kafka-python at
// api_version (0, 10, 1) (with a group), and segmentio/kafka-go v0.4.47
// (CreateTopics v0, a group joined with JoinGroup v1), built from its own
// module (kafkagoBin).
func bridgedClients(kafkagoBin string) []bridgedClient {
	pyStep := func(step string) clientSpec {
		return clientSpec{Name: "kafka-python", Command: func(dir, _, broker string, n int) []string {
			return []string{"/usr/bin/python3", filepath.Join(dir, "python", "kafka_python_client.py"),
				"--broker", broker, "--n", strconv.Itoa(n), "--step", step}
		}}
	}
	goStep := func(name, step string) clientSpec {
		return clientSpec{Name: name, Command: func(_, goclient, broker string, n int) []string {
			return []string{goclient, "-client", name, "-broker", broker, "-n", strconv.Itoa(n), "-step", step, "-timeout", "40s"}
		}}
	}
	var sarama, kcat []writtenTopic
	for _, c := range []string{"none", "gzip", "snappy"} {
		sarama = append(sarama, topicsOf(stampsNone, "sarama-v0.8.2-"+c)...)
	}
	for _, c := range []string{"none", "gzip", "snappy", "lz4"} {
		sarama = append(sarama, topicsOf(stampsSet, "sarama-v0.10.2-"+c)...)
		kcat = append(kcat, topicsOf(stampsNone, "kcat-v0.9-"+c)...)
	}
	kcat = append(kcat, topicsOf(stampsNone, "kcat-v0.9-group-gzip")...)
	kafkago := clientSpec{Name: "kafka-go-0.4.47", Command: func(_, _, broker string, n int) []string {
		return []string{kafkagoBin, "-broker", broker, "-n", strconv.Itoa(n)}
	}}
	clients := []bridgedClient{
		{spec: goClient("sarama-old"), topics: sarama, direct: goStep("sarama-old", "v0.8.2-none")},
		{spec: goClient("kcat-0.9"), topics: kcat, direct: goStep("kcat-0.9", "v0.9-none")},
		{spec: kafkago, topics: topicsOf(stampsSet, "kafka-go-0.4.47-group"), direct: kafkago},
	}
	for _, step := range []string{"v0.10.1-none", "v0.10.1-gzip", "v0.10.1-snappy", "v0.10.1-lz4", "v0.10.1-group"} {
		c := bridgedClient{spec: pyStep(step), direct: pyStep("v0.10.1-none")}
		if step != "v0.10.1-group" {
			c.topics = topicsOf(stampsSet, "kafka-python-"+step)
		}
		clients = append(clients, c)
	}
	return clients
}

// bridgedOutcome is what the bridge runs did.
type bridgedOutcome struct {
	Clients, Passed  int // client runs through the bridge, and those that passed
	Direct, Refused  int // the same clients straight to the broker, and those that failed there
	Topics, Matching int // topics franz-go read back from the broker, and those holding what was written
	NewForOld        int // reads by old clients of the topics franz-go wrote for them
	OldReadNew       int // and those that gave back exactly what franz-go wrote
	Stamped, Stamps  int // reads (both ways) whose timestamps were compared, and those that matched
	Translated       string
	Problems         []string
}

// translatedRe reads kafkaproxy -bridge's exit line.
var translatedRe = regexp.MustCompile(`bridge: translated (requests=\d+.*)`)

// runBridged runs old clients through kafkaproxy -bridge to an example
// broker behaving as Kafka 4.0.0, then franz-go reads what they wrote from
// the broker itself, then one step of each straight to the broker must
// fail. It prints one line:
//
//	bridge: clients=8/8 direct-refused=4/4 franz-go-topics=17/17 old-read-new=15/15 timestamps=32/32 mismatches=0 translated requests=N ...
func runBridged(ctx context.Context, w io.Writer, cfg config, dir, goclient, brokerBin, bin string, root string) *bridgedOutcome {
	out := &bridgedOutcome{}
	fail := func(format string, args ...any) *bridgedOutcome {
		msg := fmt.Sprintf(format, args...)
		out.Problems = append(out.Problems, "bridge: "+msg)
		fmt.Fprintf(w, "FAIL bridge: %s\n", msg)
		return out
	}
	proxyBin, err := buildExample(ctx, filepath.Join(root, "examples", "proxy"), filepath.Join(bin, "kafkaproxy"))
	if err != nil {
		return fail("%v", err)
	}
	kafkagoBin, err := buildExample(ctx, filepath.Join(dir, "kafkago047"), filepath.Join(bin, "kafkago047"))
	if err != nil {
		return fail("%v", err)
	}
	b, err := startBroker(ctx, brokerBin, bin, "broker-kafka4", "", "-kafka-release", bridgeRelease)
	if err != nil {
		return fail("%v", err)
	}
	defer b.stop()
	p, err := startBridge(ctx, proxyBin, filepath.Join(bin, "kafkaproxy-bridge.log"), b.addr)
	if err != nil {
		return fail("%v", err)
	}
	clients := bridgedClients(kafkagoBin)
	var specs, direct []clientSpec
	for _, c := range clients {
		specs = append(specs, c.spec)
		direct = append(direct, c.direct)
	}
	results := runClients(ctx, specs, cfg.parallel, func(ctx context.Context, s clientSpec) *clientResult {
		return runClient(ctx, s, dir, goclient, p.addr, cfg.n, cfg.clientTimeout)
	})
	for _, r := range results {
		r.Name += " through kafkaproxy -bridge to Kafka " + bridgeRelease
	}
	out.checkOldReadNew(ctx, w, dir, b.addr, p.addr, cfg.n)
	passed, problems := report(w, results, false)
	out.Clients, out.Passed = len(results), passed
	out.Problems = append(out.Problems, problems...)
	if err := p.stop(); err != nil {
		out.Problems = append(out.Problems, "kafkaproxy -bridge: "+err.Error())
	}
	if m := translatedRe.FindStringSubmatch(p.logTail(5)); m != nil {
		out.Translated = m[1]
	}
	if passed < len(results) {
		fmt.Fprintf(w, "kafkaproxy -bridge log tail:\n    %s\n", strings.ReplaceAll(p.logTail(30), "\n", "\n    "))
	}
	out.checkContents(ctx, w, b.addr, clients, cfg.n)
	out.checkRefused(ctx, w, direct, dir, goclient, b.addr, cfg.n)
	fmt.Fprintf(w, "bridge: clients=%d/%d direct-refused=%d/%d franz-go-topics=%d/%d old-read-new=%d/%d timestamps=%d/%d mismatches=%d translated %s\n",
		out.Passed, out.Clients, out.Refused, out.Direct, out.Matching, out.Topics, out.OldReadNew, out.NewForOld,
		out.Stamps, out.Stamped, out.Topics-out.Matching+out.NewForOld-out.OldReadNew+out.Stamped-out.Stamps, out.Translated)
	return out
}

// checkContents reads the broker with franz-go and compares each old
// client's topic with the records it wrote: offsets, keys and values byte
// for byte, no headers (message sets have none), and apart, the
// timestamps by the topic's rule.
func (out *bridgedOutcome) checkContents(ctx context.Context, w io.Writer, broker string, clients []bridgedClient, n int) {
	var topics []string
	for _, c := range clients {
		for _, t := range c.topics {
			topics = append(topics, t.name)
		}
	}
	got, err := readTopics(ctx, broker, topics)
	if err != nil {
		out.Problems = append(out.Problems, "bridge: franz-go reading the broker: "+err.Error())
		fmt.Fprintf(w, "FAIL bridge: franz-go reading the broker: %v\n", err)
		return
	}
	for _, c := range clients {
		for _, t := range c.topics {
			out.Topics++
			want := scenario.Records(t.name, n, false)
			if err := scenario.Check(got[t.name], want, 0); err != nil {
				out.Problems = append(out.Problems, "bridge: "+t.name+" as franz-go reads it: "+err.Error())
				fmt.Fprintf(w, "FAIL bridge: %s as franz-go reads it from the broker: %v\n", t.name, err)
				continue
			}
			out.Matching++
			if t.stamps == stampsNone {
				want = scenario.WithoutTimestamps(want)
			}
			out.checkStamps(w, "franz-go reading "+t.name+" from the broker", got[t.name], want)
		}
	}
}

// checkStamps compares the timestamps of what a reader got with want's,
// counting the comparison.
func (out *bridgedOutcome) checkStamps(w io.Writer, what string, got, want []scenario.Record) {
	out.Stamped++
	if err := scenario.CheckTimestamps(got, want); err != nil {
		out.Problems = append(out.Problems, "bridge: timestamps of "+what+": "+err.Error())
		fmt.Fprintf(w, "FAIL bridge: timestamps of %s: %v\n", what, err)
		return
	}
	out.Stamps++
}

// checkRefused runs one step of each old client straight to the broker:
// each must fail, as against Kafka 4.0.
func (out *bridgedOutcome) checkRefused(ctx context.Context, w io.Writer, direct []clientSpec, dir, goclient, broker string, n int) {
	seen := map[string]bool{}
	for _, s := range direct {
		if seen[s.Name] {
			continue
		}
		seen[s.Name] = true
		out.Direct++
		r := runClient(ctx, s, dir, goclient, broker, n, 90*time.Second)
		if len(r.OK) == 0 && len(r.Failed) > 0 {
			out.Refused++
			fmt.Fprintf(w, "PASS %s straight to Kafka %s fails as it does against Kafka: %s\n", s.Name, bridgeRelease, firstLine(r.Failed[0]))
			continue
		}
		out.Problems = append(out.Problems, "bridge: "+s.Name+" straight to the broker did not fail")
		fmt.Fprintf(w, "FAIL %s straight to Kafka %s did not fail:\n    %s\n", s.Name, bridgeRelease, strings.ReplaceAll(r.Output, "\n", "\n    "))
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	if len(line) > 200 {
		line = line[:200] + "..."
	}
	return line
}

// startBridge runs kafkaproxy -bridge in front of broker.
func startBridge(ctx context.Context, binary, logPath, upstreamAddr string) (*broker, error) {
	var err error
	for range 5 {
		var port int
		if port, err = freeRun(4); err != nil {
			return nil, err
		}
		args := []string{"-listen", "127.0.0.1:" + strconv.Itoa(port), "-upstream", upstreamAddr, "-bridge"}
		var p *broker
		if p, err = startListening(ctx, "kafkaproxy -bridge", binary, logPath, args); err == nil {
			return p, nil
		}
	}
	return nil, err
}
