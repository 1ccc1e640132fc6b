package kcatclient

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"strconv"

	"github.com/kafkagen/kafkagen/interop/internal/scenario"
)

// transactional produces the records in one transaction (kcat commits it
// when its input ends) and reads them read_committed.
func (c client) transactional(ctx context.Context) (string, error) {
	const step = "txn"
	topic := scenario.ClientID(Name, step)
	want := records(topic, c.n)
	if err := c.produce(ctx, step, topic, want, "-X", "transactional.id="+topic); err != nil {
		return "", err
	}
	got, err := c.consume(ctx, step+"-consumer", topic, "-X", "isolation.level=read_committed")
	if err != nil {
		return "", err
	}
	if err := scenario.Check(got, want, 0); err != nil {
		return "", err
	}
	return fmt.Sprintf("%d records in a committed transaction read back read_committed", len(want)), nil
}

// group consumes the records with a balanced consumer that commits when it
// closes, then starts a second member of the same group: it must find the
// committed offset and read nothing.
func (c client) group(ctx context.Context) (string, error) {
	const step = "group"
	topic := scenario.ClientID(Name, step)
	want := records(topic, c.n)
	if err := c.produce(ctx, step+"-producer", topic, want); err != nil {
		return "", err
	}
	return c.groupRead(ctx, step, topic, want)
}

// groupRead reads want from topic in a balanced consumer group (named
// after the topic), then checks a second member resumes at the end; proto
// are librdkafka settings for both (the protocol version).
func (c client) groupRead(ctx context.Context, step, topic string, want []scenario.Record, proto ...string) (string, error) {
	groupID := topic
	consume := func(member string, args ...string) ([]scenario.Record, error) {
		args = append(append(args, proto...), topic)
		out, err := c.run(ctx, member, nil, append([]string{"-G", groupID, "-J", "-e",
			"-X", "auto.offset.reset=earliest", "-X", "enable.partition.eof=true"}, args...)...)
		if err != nil {
			return nil, err
		}
		return parse(out)
	}
	got, err := consume(step, "-c", strconv.Itoa(len(want)))
	if err != nil {
		return "", err
	}
	if err := scenario.Check(got, want, 0); err != nil {
		return "", err
	}
	again, err := consume(step + "-again")
	if err != nil {
		return "", err
	}
	if len(again) != 0 {
		return "", fmt.Errorf("group %s: a second member read %d records from offset %d: the commit of offset %d was lost",
			groupID, len(again), again[0].Offset, len(want))
	}
	return fmt.Sprintf("group %s consumed %d records and committed; a second member resumed at the end", groupID, len(want)), nil
}

// metadataList is the part of kcat -L -J output checked here.
type metadataList struct {
	Brokers []struct {
		ID   int32  `json:"id"`
		Name string `json:"name"`
	} `json:"brokers"`
	Topics []struct {
		Topic      string            `json:"topic"`
		Partitions []json.RawMessage `json:"partitions"`
	} `json:"topics"`
}

// metadata lists the cluster: one broker, at the address dialled or,
// through kafkaproxy (which serves node N on its port + 1 + N), at that
// port for the broker's id; and the topic of the "none" step with its
// partition.
func (c client) metadata(ctx context.Context) (string, error) {
	out, err := c.run(ctx, "metadata", nil, "-L", "-J")
	if err != nil {
		return "", err
	}
	var md metadataList
	if err := json.Unmarshal(out, &md); err != nil {
		return "", fmt.Errorf("kcat -L -J output %q: %w", out, err)
	}
	if len(md.Brokers) != 1 || md.Brokers[0].Name != c.broker && md.Brokers[0].Name != proxiedNode(c.broker, md.Brokers[0].ID) {
		return "", fmt.Errorf("metadata lists brokers %+v, want one at %s", md.Brokers, c.broker)
	}
	topic := scenario.ClientID(Name, "none")
	for _, t := range md.Topics {
		if t.Topic == topic && len(t.Partitions) > 0 {
			return fmt.Sprintf("1 broker, %d topics, %s with %d partitions", len(md.Topics), topic, len(t.Partitions)), nil
		}
	}
	return "", fmt.Errorf("metadata of %d topics lacks %s", len(md.Topics), topic)
}

// proxiedNode is the address kafkaproxy serves node id on when its
// bootstrap address is bootstrap.
func proxiedNode(bootstrap string, id int32) string {
	host, port, err := net.SplitHostPort(bootstrap)
	p, perr := strconv.Atoi(port)
	if err != nil || perr != nil {
		return ""
	}
	return net.JoinHostPort(host, strconv.Itoa(p+1+int(id)))
}
