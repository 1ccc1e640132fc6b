package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kafkagen/kafkagen/interop/internal/kcatclient"
	"github.com/kafkagen/kafkagen/interop/internal/scenario"
)

// newForOld are the topics franz-go writes straight to the Kafka 4 broker
// for old clients to read through the bridge, by codec (every codec a
// message set has: zstd has none, and Kafka answered it
// UNSUPPORTED_COMPRESSION_TYPE).
var newForOld = map[string]kgo.CompressionCodec{
	"franz-go-for-old-none":   kgo.NoCompression(),
	"franz-go-for-old-gzip":   kgo.GzipCompression(),
	"franz-go-for-old-snappy": kgo.SnappyCompression(),
	"franz-go-for-old-lz4":    kgo.Lz4Compression(),
}

// checkOldReadNew has franz-go write records with headers to the broker
// (v2 batches), and kcat at the 0.9 protocol read them through the bridge:
// the same keys and values at the same offsets, the headers dropped.
func (out *bridgedOutcome) checkOldReadNew(ctx context.Context, w io.Writer, broker, bridge string, n int) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	for topic, codec := range newForOld {
		out.NewForOld++
		if err := produceNew(ctx, broker, topic, codec, n); err != nil {
			out.Problems = append(out.Problems, "bridge: franz-go writing "+topic+": "+err.Error())
			fmt.Fprintf(w, "FAIL bridge: franz-go writing %s: %v\n", topic, err)
			continue
		}
		got, err := kcatclient.ConsumeOld(ctx, bridge, "v0.9-reads-"+strings.TrimPrefix(topic, "franz-go-for-old-"), topic)
		if err == nil {
			err = scenario.Check(got, scenario.Records(topic, n, false), 0)
		}
		if err != nil {
			out.Problems = append(out.Problems, "bridge: kcat-0.9 reading "+topic+": "+err.Error())
			fmt.Fprintf(w, "FAIL bridge: kcat at the 0.9 protocol reading %s (written by franz-go): %v\n", topic, err)
			continue
		}
		out.OldReadNew++
	}
}

// produceNew writes the scenario's records, headers included, to topic.
func produceNew(ctx context.Context, broker, topic string, codec kgo.CompressionCodec, n int) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(broker), kgo.ClientID("franz-go-for-old"), kgo.ProducerBatchCompression(codec),
		kgo.AllowAutoTopicCreation(), kgo.DefaultProduceTopic(topic), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		return err
	}
	defer cl.Close()
	var rs []*kgo.Record
	for _, r := range scenario.Records(topic, n, true) {
		rec := &kgo.Record{Key: r.Key, Value: r.Value, Partition: 0}
		for _, h := range r.Headers {
			rec.Headers = append(rec.Headers, kgo.RecordHeader{Key: h.Key, Value: h.Value})
		}
		rs = append(rs, rec)
	}
	return cl.ProduceSync(ctx, rs...).FirstErr()
}
