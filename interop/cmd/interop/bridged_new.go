package main

import (
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kafkagen/kafkagen/interop/internal/kcatclient"
	"github.com/kafkagen/kafkagen/interop/internal/saramaclient"
	"github.com/kafkagen/kafkagen/interop/internal/scenario"
)

// newForOld are the topics franz-go writes straight to the Kafka 4 broker
// for old clients to read through the bridge, by codec (every codec a
// message set has: zstd has none, and Kafka answered it
// UNSUPPORTED_COMPRESSION_TYPE).
var newForOld = map[string]kgo.CompressionCodec{
	"none":   kgo.NoCompression(),
	"gzip":   kgo.GzipCompression(),
	"snappy": kgo.SnappyCompression(),
	"lz4":    kgo.Lz4Compression(),
}

// newForOldTopic is the topic franz-go writes with codec.
func newForOldTopic(codec string) string { return "franz-go-for-old-" + codec }

// oldReader is an old client reading franz-go's topics through the bridge.
type oldReader struct {
	name       string
	codecs     []string // the codecs it has, so the topics it reads
	timestamps bool     // it reads message sets of magic 1, which carry them
	// read returns what it read of topic; a reader that checks for itself
	// (kafka-python, in its own process) returns want when it passed.
	read func(ctx context.Context, topic string, want []scenario.Record) ([]scenario.Record, error)
}

// oldReaders are the old clients that read what franz-go wrote: kcat at
// the 0.9 protocol (Fetch v1, magic 0), sarama at Versions 0.8.2 (Fetch
// v0, magic 0) and 0.10.2 (Fetch v3, magic 1), and kafka-python at
// api_version (0, 10, 1) (Fetch v3, magic 1).
func oldReaders(dir, bridge string, n int) []oldReader {
	codecs := []string{"none", "gzip", "snappy", "lz4"}
	sarama := func(label string) func(context.Context, string, []scenario.Record) ([]scenario.Record, error) {
		return func(ctx context.Context, topic string, want []scenario.Record) ([]scenario.Record, error) {
			step := label + "-reads-" + strings.TrimPrefix(topic, "franz-go-for-old-")
			return saramaclient.ConsumeOld(ctx, bridge, label, step, topic, len(want))
		}
	}
	return []oldReader{
		{"kcat-0.9", codecs, false, func(ctx context.Context, topic string, _ []scenario.Record) ([]scenario.Record, error) {
			return kcatclient.ConsumeOld(ctx, bridge, "v0.9-reads-"+strings.TrimPrefix(topic, "franz-go-for-old-"), topic)
		}},
		{"sarama-0.8.2", codecs[:3], false, sarama("v0.8.2")},
		{"sarama-0.10.2", codecs, true, sarama("v0.10.2")},
		{"kafka-python-0.10.1", codecs, true, func(ctx context.Context, topic string, _ []scenario.Record) ([]scenario.Record, error) {
			spec := clientSpec{Name: "kafka-python", Command: func(dir, _, broker string, n int) []string {
				return []string{"/usr/bin/python3", filepath.Join(dir, "python", "kafka_python_client.py"),
					"--broker", broker, "--n", strconv.Itoa(n), "--read-topic", topic}
			}}
			r := runClient(ctx, spec, dir, "", bridge, n, time.Minute)
			if !r.Passed() {
				return nil, fmt.Errorf("%s", strings.Join(r.Failed, "; "))
			}
			return parsePrintedRecords(r.Output)
		}},
	}
}

// checkOldReadNew has franz-go write records with headers and timestamps
// to the broker (v2 batches), and each old reader read them through the
// bridge: the same keys and values at the same offsets, the headers
// dropped, the timestamps as written for readers of magic 1 and none for
// readers of magic 0.
func (out *bridgedOutcome) checkOldReadNew(ctx context.Context, w io.Writer, dir, broker, bridge string, n int) {
	ctx, cancel := context.WithTimeout(ctx, 4*time.Minute)
	defer cancel()
	written := map[string]bool{}
	for _, codec := range slices.Sorted(maps.Keys(newForOld)) {
		topic := newForOldTopic(codec)
		if err := produceNew(ctx, broker, topic, newForOld[codec], n); err != nil {
			out.Problems = append(out.Problems, "bridge: franz-go writing "+topic+": "+err.Error())
			fmt.Fprintf(w, "FAIL bridge: franz-go writing %s: %v\n", topic, err)
			continue
		}
		written[codec] = true
	}
	for _, r := range oldReaders(dir, bridge, n) {
		for _, codec := range r.codecs {
			topic := newForOldTopic(codec)
			out.NewForOld++
			if !written[codec] {
				continue
			}
			want := scenario.Records(topic, n, false)
			got, err := r.read(ctx, topic, want)
			if err == nil {
				err = scenario.Check(got, want, 0)
			}
			if err != nil {
				out.Problems = append(out.Problems, "bridge: "+r.name+" reading "+topic+": "+err.Error())
				fmt.Fprintf(w, "FAIL bridge: %s reading %s (written by franz-go) through the bridge: %v\n", r.name, topic, err)
				continue
			}
			out.OldReadNew++
			if !r.timestamps {
				want = scenario.WithoutTimestamps(want)
			}
			out.checkStamps(w, r.name+" reading "+topic+" through the bridge", got, want)
		}
	}
}

// produceNew writes the scenario's records, headers and timestamps
// included, to topic.
func produceNew(ctx context.Context, broker, topic string, codec kgo.CompressionCodec, n int) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(broker), kgo.ClientID("franz-go-for-old"), kgo.ProducerBatchCompression(codec),
		kgo.AllowAutoTopicCreation(), kgo.DefaultProduceTopic(topic), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		return err
	}
	defer cl.Close()
	var rs []*kgo.Record
	for _, r := range scenario.Records(topic, n, true) {
		rec := &kgo.Record{Key: r.Key, Value: r.Value, Partition: 0, Timestamp: time.UnixMilli(r.Timestamp)}
		for _, h := range r.Headers {
			rec.Headers = append(rec.Headers, kgo.RecordHeader{Key: h.Key, Value: h.Value})
		}
		rs = append(rs, rec)
	}
	return cl.ProduceSync(ctx, rs...).FirstErr()
}

// parsePrintedRecords reads the records kafka_python_client.py --read-topic
// prints, one a line: "record <offset> <timestamp> <key hex> <value hex>".
// Other lines are left alone.
func parsePrintedRecords(output string) ([]scenario.Record, error) {
	var out []scenario.Record
	for i, line := range strings.Split(output, "\n") {
		rest, ok := strings.CutPrefix(line, "record ")
		if !ok {
			continue
		}
		fields := strings.Split(rest, " ")
		if len(fields) != 4 {
			return nil, fmt.Errorf("line %d %q: want record <offset> <timestamp> <key hex> <value hex>", i+1, line)
		}
		var r scenario.Record
		var err error
		if r.Offset, err = strconv.ParseInt(fields[0], 10, 64); err == nil {
			if r.Timestamp, err = strconv.ParseInt(fields[1], 10, 64); err == nil {
				if r.Key, err = hex.DecodeString(fields[2]); err == nil {
					r.Value, err = hex.DecodeString(fields[3])
				}
			}
		}
		if err != nil {
			return nil, fmt.Errorf("line %d %q: %w", i+1, line, err)
		}
		out = append(out, r)
	}
	return out, nil
}
