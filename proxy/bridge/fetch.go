package bridge

import (
	"errors"
	"reflect"

	"github.com/kafkagen/kafkagen/records"
)

// fetchAdapter turns Fetch v0-3 into Fetch v4+ and the v2 batches of the
// answer into message sets of magic 0 (Fetch v0-1) or 1 (v2-3), as Kafka
// down-converted them (records.Converter.DownConvert): control batches
// skipped, headers dropped, records before the fetch offset left out of
// uncompressed batches, compressed batches re-compressed whole with their
// codec, zstd answered UNSUPPORTED_COMPRESSION_TYPE, a partial batch at the
// end left out. The converted records of a partition stay within its
// PartitionMaxBytes and, from v3, all partitions within MaxBytes, the
// first batch of the answer aside (as Kafka sends it whole so a consumer
// can progress). Aborted-transaction lists, which the old versions lack,
// are dropped: old clients read uncommitted.
type fetchAdapter struct{}

// fetchPartition is what the answer's conversion needs of one partition.
type fetchPartition struct {
	offset   int64
	maxBytes int
}

// fetchState is the request's partitions and its total limit.
type fetchState struct {
	parts    map[string]map[int32]fetchPartition
	maxBytes int // 0: none (before v3)
}

func (fetchAdapter) request(c *connBridge, req reflect.Value, from, to int16) (any, error) {
	var f fields
	st := &fetchState{parts: map[string]map[int32]fetchPartition{}}
	if from >= 3 {
		st.maxBytes = int(f.int64(req, "MaxBytes"))
	}
	f.each(req, "Topics", func(t reflect.Value) {
		name := f.str(t, "Topic")
		m := st.parts[name]
		if m == nil {
			m = map[int32]fetchPartition{}
			st.parts[name] = m
		}
		f.each(t, "Partitions", func(p reflect.Value) {
			m[int32(f.int64(p, "Partition"))] = fetchPartition{offset: f.int64(p, "FetchOffset"), maxBytes: int(f.int64(p, "PartitionMaxBytes"))}
		})
	})
	return st, f.err
}

func (fetchAdapter) response(c *connBridge, resp reflect.Value, from, to int16, state any) error {
	st, _ := state.(*fetchState)
	if st == nil {
		return errors.New("Fetch response without its request's state")
	}
	magic := records.MagicV1
	if to <= 1 {
		magic = records.MagicV0
	}
	var f fields
	c.dnBuf = trim(c.dnBuf)
	defer c.down.Trim(keepBuffer)
	type span struct {
		p          reflect.Value
		start, end int
	}
	var spans []span
	budget, first := st.maxBytes, true
	f.each(resp, "Responses", func(t reflect.Value) {
		parts := st.parts[f.str(t, "Topic")]
		f.each(t, "Partitions", func(p reflect.Value) {
			f.zero(p, "AbortedTransactions")
			f.setInt(p, "PreferredReadReplica", -1)
			blob := f.bytes(p, "Records")
			req, ok := parts[int32(f.int64(p, "PartitionIndex"))]
			if len(blob) == 0 || !ok {
				f.setBytes(p, "Records", []byte{})
				return
			}
			limit := req.maxBytes
			strict := st.maxBytes > 0 && !first // only the answer's first batch may pass the limits
			if strict {
				limit = min(limit, budget)
			}
			start := len(c.dnBuf)
			out, err := c.down.DownConvert(c.dnBuf, blob, magic, req.offset, limit)
			switch {
			case errors.Is(err, records.ErrZstdDownConvert):
				f.setInt(p, "ErrorCode", int64(codeUnsupportedCompressionTyp))
			case err != nil:
				f.setInt(p, "ErrorCode", int64(codeCorruptMessage))
			}
			if err != nil {
				f.setBytes(p, "Records", []byte{})
				return
			}
			if strict && len(out)-start > limit {
				out = out[:start]
			}
			c.dnBuf = out
			spans = append(spans, span{p, start, len(out)})
			if n := len(out) - start; n > 0 {
				first = false
				budget -= n
			}
		})
	})
	for _, s := range spans {
		f.setBytes(s.p, "Records", c.dnBuf[s.start:s.end:s.end])
	}
	return f.err
}
