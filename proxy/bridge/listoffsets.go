package bridge

import "reflect"

// listOffsetsAdapter turns ListOffsets v0 (MaxNumOffsets, an array of
// offsets in the answer) into v1 (one offset). Exact for the latest (-1)
// and earliest (-2) offset asked with MaxNumOffsets 1, which is what
// clients ask: Kafka answered the log end or start offset. Approximate
// for the rest: Kafka 0.8-0.10 answered a timestamp with the base offsets
// of the segments older than it, and -1 with more than one offset with
// those too; the bridge answers the one offset v1 gives (the first record
// at or after the timestamp), or none when MaxNumOffsets is 0.
type listOffsetsAdapter struct{}

// listOffsetsState is each partition's MaxNumOffsets, by topic.
type listOffsetsState map[string]map[int32]int32

func (listOffsetsAdapter) request(c *connBridge, req reflect.Value, from, to int16) (any, error) {
	if from > 0 {
		return nil, nil
	}
	var f fields
	st := listOffsetsState{}
	f.each(req, "Topics", func(t reflect.Value) {
		m := map[int32]int32{}
		st[f.str(t, "Name")] = m
		f.each(t, "Partitions", func(p reflect.Value) {
			m[int32(f.int64(p, "PartitionIndex"))] = int32(f.int64(p, "MaxNumOffsets"))
			f.setInt(p, "MaxNumOffsets", 1) // v0's field: back to its default for v1
		})
	})
	return st, f.err
}

func (listOffsetsAdapter) response(c *connBridge, resp reflect.Value, from, to int16, state any) error {
	if to > 0 {
		return nil
	}
	st, _ := state.(listOffsetsState)
	var f fields
	f.each(resp, "Topics", func(t reflect.Value) {
		wanted := st[f.str(t, "Name")]
		f.each(t, "Partitions", func(p reflect.Value) {
			offset := f.int64(p, "Offset")
			offsets := f.get(p, "OldStyleOffsets")
			if !offsets.IsValid() {
				return
			}
			offsets.SetLen(0)
			if f.int64(p, "ErrorCode") == int64(codeNone) && offset >= 0 && wanted[int32(f.int64(p, "PartitionIndex"))] > 0 {
				offsets.Set(reflect.Append(offsets, reflect.ValueOf(offset)))
			}
			// v1's fields, absent from v0: back to their defaults.
			f.setInt(p, "Offset", -1)
			f.setInt(p, "Timestamp", -1)
			f.setInt(p, "LeaderEpoch", -1)
		})
	})
	return f.err
}
