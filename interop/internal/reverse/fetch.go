package reverse

import (
	"context"
	"fmt"

	"github.com/kafkagen/kafkagen/conformance/gen/clients"
	"github.com/kafkagen/kafkagen/interop/internal/scenario"
	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// fetch reads n records of partition 0 from offset 0, naming the topic by
// id from Fetch v13 on (as Kafka 4.0's clients do) and by name before.
func fetch(ctx context.Context, s *session, topic string, topicID runtime.UUID, n int) ([]scenario.Record, error) {
	var (
		got  []scenario.Record
		r    records.Reader
		rr   records.RecordReader
		dec  records.Decompressor
		rec  records.Record
		resp clients.FetchResponse
	)
	req := clients.NewFetchRequest()
	req.ReplicaID, req.MaxWaitMs, req.MinBytes, req.MaxBytes = -1, 500, 1, 1<<20
	for attempt := 0; len(got) < n; attempt++ {
		if attempt == 20 {
			return got, fmt.Errorf("Fetch: %d of %d records after %d fetches", len(got), n, attempt)
		}
		req.Topics = []clients.FetchRequestFetchTopic{{
			Topic:   topic,
			TopicID: topicID,
			Partitions: []clients.FetchRequestFetchPartition{{
				Partition: 0, CurrentLeaderEpoch: -1, FetchOffset: int64(len(got)), LastFetchedEpoch: -1,
				LogStartOffset: -1, PartitionMaxBytes: 1 << 20,
			}},
		}}
		if err := s.do(ctx, req, &resp); err != nil {
			return got, err
		}
		if err := kerrors.ErrorCode(resp.ErrorCode); err != nil {
			return got, fmt.Errorf("Fetch v%d: %w", s.version(req), err)
		}
		if len(resp.Responses) != 1 || len(resp.Responses[0].Partitions) != 1 {
			return got, fmt.Errorf("Fetch v%d: answer for %d topics, want 1 partition", s.version(req), len(resp.Responses))
		}
		p := resp.Responses[0].Partitions[0]
		if err := kerrors.ErrorCode(p.ErrorCode); err != nil {
			return got, fmt.Errorf("Fetch v%d: %w", s.version(req), err)
		}
		r.Reset(p.Records)
		for r.Next() {
			if err := rr.Reset(r.Batch(), &dec); err != nil {
				return got, fmt.Errorf("Fetch v%d: %w", s.version(req), err)
			}
			for rr.Next(&rec) {
				if rec.Offset < int64(len(got)) {
					continue // a batch that starts before the offset asked for
				}
				got = append(got, copyRecord(&rec))
			}
			if err := rr.Err(); err != nil {
				return got, fmt.Errorf("Fetch v%d: %w", s.version(req), err)
			}
		}
		if err := r.Err(); err != nil {
			return got, fmt.Errorf("Fetch v%d: %w", s.version(req), err)
		}
	}
	return got, nil
}

// copyRecord copies a record out of the reader's buffers.
func copyRecord(rec *records.Record) scenario.Record {
	out := scenario.Record{
		Offset: rec.Offset,
		Key:    append([]byte(nil), rec.Key...),
		Value:  append([]byte(nil), rec.Value...),
	}
	for _, h := range rec.Headers {
		out.Headers = append(out.Headers, scenario.Header{Key: string(h.Key), Value: append([]byte{}, h.Value...)})
	}
	return out
}
