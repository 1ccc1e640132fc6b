// Command client is what a new user writes on kafkagen: it connects to a
// broker, prints its API versions and the topic's metadata, produces 1,000
// zstd-compressed records to the topic, fetches them back and prints them.
// With -lag GROUP it prints a consumer group's lag instead (lag.go).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/kafkagen/kafkagen/examples/client/kafkamsg"
	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

func main() {
	broker := flag.String("broker", "127.0.0.1:9092", "the broker's host:port")
	topic := flag.String("topic", "kafkagen-example", "an existing topic; partition 0 is used")
	group := flag.String("lag", "", "instead, print this consumer group's lag per partition (lag.go)")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var err error
	if *group != "" {
		err = runLag(ctx, os.Stdout, *broker, *group)
	} else {
		err = run(ctx, os.Stdout, *broker, *topic)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "client:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, out io.Writer, broker, topic string) error {
	conn, err := wire.Dial(ctx, broker, wire.ConnConfig{ClientID: "kafkagen-example"})
	if err != nil {
		return err
	}
	defer conn.Close()
	metaV, _ := conn.Version(kafkamsg.NewMetadataRequest())
	produceV, _ := conn.Version(kafkamsg.NewProduceRequest())
	fetchV, _ := conn.Version(kafkamsg.NewFetchRequest())
	fmt.Fprintf(out, "%s serves %d APIs; Metadata v%d, Produce v%d, Fetch v%d\n",
		broker, len(conn.BrokerVersions()), metaV, produceV, fetchV)

	meta := kafkamsg.NewMetadataRequest()
	metaTopic := kafkamsg.MakeMetadataRequestTopic() // Make: the spec's defaults, which a literal lacks
	metaTopic.Name = runtime.NewNullString(topic)
	meta.Topics = append(meta.Topics, metaTopic)
	var metaResp kafkamsg.MetadataResponse
	if err := conn.Do(ctx, meta, &metaResp); err != nil {
		return err
	}
	for _, b := range metaResp.Brokers {
		fmt.Fprintf(out, "broker %d at %s:%d\n", b.NodeID, b.Host, b.Port)
	}
	t := metaResp.Topics[0]
	if err := kerrors.ErrorCode(t.ErrorCode); err != nil {
		return fmt.Errorf("topic %s: %w", topic, err)
	}
	fmt.Fprintf(out, "topic %s: %d partitions\n", topic, len(t.Partitions))

	batch := records.NewBatchBuilder()
	batch.Compression = records.CompressionZstd
	now := time.Now().UnixMilli()
	for i := range 1000 {
		batch.Append(now, fmt.Appendf(nil, "key-%d", i), fmt.Appendf(nil, "value-%d", i))
	}
	blob, err := batch.AppendTo(nil)
	if err != nil {
		return err
	}
	produce := kafkamsg.NewProduceRequest()
	produce.Acks, produce.TimeoutMs = runtime.AcksAll, 10_000
	// The name up to Produce 12, the id from 13 (KIP-516): the version
	// Conn.Do picks writes the one it has, as for Fetch below.
	produce.TopicData = []kafkamsg.ProduceRequestTopicProduceData{{Name: topic, TopicID: t.TopicID,
		PartitionData: []kafkamsg.ProduceRequestPartitionProduceData{{Index: 0, Records: blob}}}}
	var produceResp kafkamsg.ProduceResponse
	if err := conn.Do(ctx, produce, &produceResp); err != nil {
		return err
	}
	p := produceResp.Responses[0].PartitionResponses[0]
	if err := kerrors.ErrorCode(p.ErrorCode); err != nil {
		return fmt.Errorf("produce: %w", err)
	}
	fmt.Fprintf(out, "produced 1000 records (zstd) at offset %d\n", p.BaseOffset)

	fetch := kafkamsg.NewFetchRequest()
	fetch.MaxWaitMs, fetch.MinBytes, fetch.MaxBytes = 500, 1, 1<<20
	fetchTopic := kafkamsg.MakeFetchRequestFetchTopic()
	fetchTopic.Topic, fetchTopic.TopicID = topic, t.TopicID
	fetchPartition := kafkamsg.MakeFetchRequestFetchPartition() // leader epochs -1: none known
	fetchPartition.PartitionMaxBytes = 1 << 20
	var fetchResp kafkamsg.FetchResponse
	var dec records.Decompressor
	for offset, end := p.BaseOffset, p.BaseOffset+1000; offset < end; {
		fetchPartition.FetchOffset = offset
		fetchTopic.Partitions = append(fetchTopic.Partitions[:0], fetchPartition)
		fetch.Topics = append(fetch.Topics[:0], fetchTopic)
		if err := conn.Do(ctx, fetch, &fetchResp); err != nil {
			return err
		}
		fp := fetchResp.Responses[0].Partitions[0]
		if err := kerrors.ErrorCode(fp.ErrorCode); err != nil {
			return fmt.Errorf("fetch at offset %d: %w", offset, err)
		}
		err := records.Each(fp.Records, &dec, func(r *records.Record) error {
			if r.Offset >= offset && r.Offset < end {
				fmt.Fprintf(out, "%d %s=%s\n", r.Offset, r.Key, r.Value)
				offset = r.Offset + 1
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("fetch at offset %d: %w", offset, err)
		}
	}
	return nil
}
