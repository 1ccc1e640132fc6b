// Command kafkago047 runs segmentio/kafka-go v0.4.47, the last release
// that creates topics with CreateTopics v0 and joins groups with JoinGroup
// v1 (its issues 1360 and 1378: both removed in Kafka 4.0), against a
// broker: create a topic, write records, read them back in a consumer
// group and commit. A module of its own: the interop module pins a newer
// kafka-go. It prints "ok kafka-go-0.4.47 <step>: ..." or "FAIL ..." lines
// and exits 1 on a failure, 2 on misuse.
//
//	kafkago047 -broker 127.0.0.1:9092 [-n 20] [-timeout 40s]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/segmentio/kafka-go"
)

const name = "kafka-go-0.4.47"

func main() { os.Exit(run(os.Args[1:])) }

func run(args []string) int {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	broker := fs.String("broker", "", "broker address, host:port")
	n := fs.Int("n", 20, "records")
	timeout := fs.Duration("timeout", 40*time.Second, "bound on the whole run")
	if err := fs.Parse(args); err != nil || *broker == "" || *n < 1 {
		fmt.Fprintln(os.Stderr, "kafkago047: need -broker and -n >= 1")
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	start := time.Now()
	detail, err := groupRoundTrip(ctx, *broker, *n)
	if err != nil {
		fmt.Printf("FAIL %s group: %v (after %v)\n", name, err, time.Since(start).Round(time.Millisecond))
		return 1
	}
	fmt.Printf("ok %s group: %s (%v)\n", name, detail, time.Since(start).Round(time.Millisecond))
	return 0
}

// timestampBase is the CreateTime of record 0, in milliseconds since the
// epoch (scenario.TimestampBase); record i has timestampBase+i.
const timestampBase = 1_600_000_000_000

// value is record i of topic, as the interop scenarios derive them.
func value(topic string, i int) []byte {
	return []byte(topic + " value " + strconv.Itoa(i) + " " + strings.Repeat("kafkagen ", i%9))
}

// groupRoundTrip creates a topic (CreateTopics v0), writes n records, and
// reads them back in a group (JoinGroup v1) that commits.
func groupRoundTrip(ctx context.Context, broker string, n int) (string, error) {
	topic := name + "-group"
	conn, err := kafka.DialContext(ctx, "tcp", broker)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	err = conn.CreateTopics(kafka.TopicConfig{Topic: topic, NumPartitions: 1, ReplicationFactor: 1})
	if err != nil && !errors.Is(err, kafka.TopicAlreadyExists) {
		return "", fmt.Errorf("create topic %s: %w", topic, err)
	}
	w := &kafka.Writer{Addr: kafka.TCP(broker), Topic: topic, Balancer: &kafka.LeastBytes{}, BatchTimeout: 20 * time.Millisecond,
		RequiredAcks: kafka.RequireOne, Transport: &kafka.Transport{Dial: (&net.Dialer{Timeout: 5 * time.Second}).DialContext}}
	defer w.Close()
	var msgs []kafka.Message
	for i := range n {
		msgs = append(msgs, kafka.Message{Key: []byte("key-" + strconv.Itoa(i)), Value: value(topic, i), Time: time.UnixMilli(timestampBase + int64(i))})
	}
	if err := w.WriteMessages(ctx, msgs...); err != nil {
		return "", fmt.Errorf("write: %w", err)
	}
	r := kafka.NewReader(kafka.ReaderConfig{Brokers: []string{broker}, GroupID: name + "-group", Topic: topic,
		MaxWait: 200 * time.Millisecond, StartOffset: kafka.FirstOffset, CommitInterval: 0})
	defer r.Close()
	for i := range n {
		m, err := r.FetchMessage(ctx)
		if err != nil {
			return "", fmt.Errorf("record %d: %w", i, err)
		}
		if m.Offset != int64(i) || string(m.Key) != "key-"+strconv.Itoa(i) || string(m.Value) != string(value(topic, i)) ||
			m.Time.UnixMilli() != timestampBase+int64(i) {
			return "", fmt.Errorf("record %d: offset %d key %q value %q timestamp %d", i, m.Offset, m.Key, m.Value, m.Time.UnixMilli())
		}
		if err := r.CommitMessages(ctx, m); err != nil {
			return "", fmt.Errorf("commit %d: %w", i, err)
		}
	}
	return fmt.Sprintf("created %s (CreateTopics v0), wrote %d records, read them back in group %s (JoinGroup v1) and committed", topic, n, name+"-group"), nil
}
