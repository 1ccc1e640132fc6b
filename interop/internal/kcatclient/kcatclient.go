// Package kcatclient runs the interop scenarios with kcat, librdkafka's
// command-line client: produce with every codec and read back, a balanced
// consumer group whose commit a second member of the group proves, the
// idempotent producer, a transactional producer, and a metadata listing.
//
// kcat sets the same headers on every record it produces (-H), so its
// records carry the fixed headers of kcatHeaders instead of per-record ones.
package kcatclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"

	"github.com/kafkagen/kafkagen/interop/internal/scenario"
)

// Name is the client's name in the harness, the captures and the client ids.
const Name = "kcat"

// client runs the steps against one broker.
type client struct {
	broker string
	n      int
	sec    scenario.Security // plaintext unless SecureSteps set it
}

// Steps returns the scenarios, n records each, against broker (host:port).
func Steps(broker string, n int) []scenario.Step {
	c := client{broker: broker, n: n}
	steps := scenario.CodecSteps(func(ctx context.Context, codec string) (string, error) {
		return c.produceConsume(ctx, codec, "-X", "compression.codec="+codec, "-X", "acks=1")
	})
	return append(steps,
		scenario.Step{Name: "idempotent", Run: func(ctx context.Context) (string, error) {
			return c.produceConsume(ctx, "idempotent", "-X", "enable.idempotence=true")
		}},
		scenario.Step{Name: "txn", Run: c.transactional},
		scenario.Step{Name: "group", Run: c.group},
		scenario.Step{Name: "metadata", Run: c.metadata},
	)
}

// kcatHeaders are the headers kcat puts on every record of topic.
func kcatHeaders(topic string) []scenario.Header {
	return []scenario.Header{{Key: "client", Value: []byte("kcat")}, {Key: "topic", Value: []byte(topic)}}
}

// records are the records kcat produces to topic.
func records(topic string, n int) []scenario.Record {
	rs := scenario.Records(topic, n, false)
	for i := range rs {
		rs[i].Headers = kcatHeaders(topic)
	}
	return rs
}

// run executes kcat with the step's client id, feeding it stdin.
func (c client) run(ctx context.Context, step string, stdin []byte, args ...string) ([]byte, error) {
	full := append([]string{"-b", c.broker, "-X", "client.id=" + scenario.ClientID(Name, step), "-m", "10", "-q"}, securityArgs(c.sec)...)
	full = append(full, args...)
	cmd := exec.CommandContext(ctx, "kcat", full...)
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("kcat %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), nil
}

// produce writes the records as "key<TAB>value" lines to partition 0; the
// broker creates the topic when kcat first asks for its metadata.
func (c client) produce(ctx context.Context, step, topic string, rs []scenario.Record, args ...string) error {
	var in bytes.Buffer
	for _, r := range rs {
		fmt.Fprintf(&in, "%s\t%s\n", r.Key, r.Value)
	}
	full := []string{"-P", "-t", topic, "-p", "0", "-K", "\t", "-X", "linger.ms=50"}
	for _, h := range kcatHeaders(topic) {
		full = append(full, "-H", h.Key+"="+string(h.Value))
	}
	_, err := c.run(ctx, step, in.Bytes(), append(full, args...)...)
	return err
}

// message is one line of kcat -J output.
type message struct {
	Topic     string   `json:"topic"`
	Partition int32    `json:"partition"`
	Offset    int64    `json:"offset"`
	TsType    string   `json:"tstype"` // "create" or "logappend"; absent, with ts, where the format has no timestamp (magic 0)
	Ts        int64    `json:"ts"`
	Headers   []string `json:"headers"` // name, value, name, value...
	Key       *string  `json:"key"`
	Payload   *string  `json:"payload"`
}

// parse reads kcat -J lines into records.
func parse(out []byte) ([]scenario.Record, error) {
	var rs []scenario.Record
	for i, line := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var m message
		if err := json.Unmarshal(line, &m); err != nil {
			return nil, fmt.Errorf("kcat output line %d %q: %w", i+1, line, err)
		}
		if len(m.Headers)%2 != 0 {
			return nil, fmt.Errorf("kcat output line %d: odd header list %q", i+1, m.Headers)
		}
		r := scenario.Record{Offset: m.Offset, Timestamp: m.Ts}
		if m.TsType == "" {
			r.Timestamp = scenario.NoTimestamp
		}
		if m.Key != nil {
			r.Key = []byte(*m.Key)
		}
		if m.Payload != nil {
			r.Value = []byte(*m.Payload)
		}
		for j := 0; j < len(m.Headers); j += 2 {
			r.Headers = append(r.Headers, scenario.Header{Key: m.Headers[j], Value: []byte(m.Headers[j+1])})
		}
		rs = append(rs, r)
	}
	return rs, nil
}

// consume reads partition 0 from the beginning until its end.
func (c client) consume(ctx context.Context, step, topic string, args ...string) ([]scenario.Record, error) {
	full := append([]string{"-C", "-t", topic, "-p", "0", "-o", "beginning", "-e", "-J"}, args...)
	out, err := c.run(ctx, step, nil, full...)
	if err != nil {
		return nil, err
	}
	return parse(out)
}

func (c client) produceConsume(ctx context.Context, step string, args ...string) (string, error) {
	topic := scenario.ClientID(Name, step)
	want := records(topic, c.n)
	if err := c.produce(ctx, step, topic, want, args...); err != nil {
		return "", err
	}
	got, err := c.consume(ctx, step+"-consumer", topic)
	if err != nil {
		return "", err
	}
	if err := scenario.Check(got, want, 0); err != nil {
		return "", err
	}
	return fmt.Sprintf("%d records produced (%s) and read back from %s", len(want), strings.Join(args, " "), topic), nil
}
