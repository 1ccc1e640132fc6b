package bridge

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/kafkagen/kafkagen/records"
)

// produceAdapter turns Produce v0-2 (message sets of magic 0 or 1) into
// Produce v3+ (one v2 batch per partition), as Kafka converted message sets
// on append. A partition whose message set fails to convert is not
// forwarded: its answer is made here with the code Kafka gave
// (CORRUPT_MESSAGE for a bad CRC, a lying size or undecompressible data,
// INVALID_RECORD otherwise). With acks 0 there is no answer to carry it,
// and Kafka closed the connection: so does the bridge.
type produceAdapter struct{}

// producePartition is where a refused partition's answer goes.
type producePartition struct {
	topic     string
	partition int32
	code      int16
}

// produceState is what the response needs: the refused partitions.
type produceState struct{ refused []producePartition }

func (produceAdapter) request(c *connBridge, req reflect.Value, from, to int16) (any, error) {
	var f fields
	acks := f.int64(req, "Acks")
	c.upBuf = trim(c.upBuf)
	defer c.conv.Trim(keepBuffer)
	type span struct {
		p          reflect.Value
		start, end int
	}
	var spans []span
	st := &produceState{}
	f.each(req, "TopicData", func(t reflect.Value) {
		name := f.str(t, "Name")
		parts := f.get(t, "PartitionData")
		kept := 0
		for i := 0; parts.IsValid() && i < parts.Len(); i++ {
			p := parts.Index(i)
			start := len(c.upBuf)
			out, err := c.conv.UpConvert(c.upBuf, f.bytes(p, "Records"))
			if err != nil {
				st.refused = append(st.refused, producePartition{topic: name, partition: int32(f.int64(p, "Index")), code: produceErrorCode(err)})
				continue
			}
			c.upBuf = out
			if kept != i {
				parts.Index(kept).Set(p)
			}
			spans = append(spans, span{parts.Index(kept), start, len(out)})
			kept++
		}
		if parts.IsValid() {
			parts.SetLen(kept)
		}
	})
	if f.err != nil {
		return nil, f.err
	}
	if acks == 0 && len(st.refused) > 0 {
		r := st.refused[0]
		return nil, fmt.Errorf("acks 0 Produce to %s[%d] refused (error code %d), which Kafka answers by closing the connection", r.topic, r.partition, r.code)
	}
	// The batches are set once all are converted: upBuf may have moved.
	for _, s := range spans {
		f.setBytes(s.p, "Records", c.upBuf[s.start:s.end:s.end])
	}
	return st, f.err
}

// produceErrorCode is Kafka's answer to a message set that fails to
// convert.
func produceErrorCode(err error) int16 {
	for _, corrupt := range []error{records.ErrChecksum, records.ErrTruncated, records.ErrCorrupt, records.ErrTooLarge, records.ErrInvalidLength, records.ErrMagic} {
		if errors.Is(err, corrupt) {
			return codeCorruptMessage
		}
	}
	return codeInvalidRecord
}

func (produceAdapter) response(c *connBridge, resp reflect.Value, from, to int16, state any) error {
	st, _ := state.(*produceState)
	if st == nil || len(st.refused) == 0 {
		return nil
	}
	var f fields
	topics := f.get(resp, "Responses")
	if f.err != nil {
		return f.err
	}
	for _, r := range st.refused {
		t := findTopic(&f, topics, "Name", r.topic)
		parts := f.get(t, "PartitionResponses")
		if f.err != nil {
			return f.err
		}
		p := newElem(parts.Type())
		f.setInt(p, "Index", int64(r.partition))
		f.setInt(p, "ErrorCode", int64(r.code))
		f.setInt(p, "BaseOffset", -1)
		f.setInt(p, "LogAppendTimeMs", -1)
		f.setInt(p, "LogStartOffset", -1)
		parts.Set(reflect.Append(parts, p))
	}
	return f.err
}

// findTopic returns the element of topics whose nameField is name,
// appending one when there is none.
func findTopic(f *fields, topics reflect.Value, nameField, name string) reflect.Value {
	for i := 0; i < topics.Len(); i++ {
		if f.str(topics.Index(i), nameField) == name {
			return topics.Index(i)
		}
	}
	t := newElem(topics.Type())
	if fv := f.get(t, nameField); fv.IsValid() {
		fv.SetString(name)
	}
	topics.Set(reflect.Append(topics, t))
	return topics.Index(topics.Len() - 1)
}
