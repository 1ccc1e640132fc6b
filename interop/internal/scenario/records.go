// Package scenario holds what every Go client of the interop suite shares:
// the records a client produces, the check of what it consumed back, and the
// "ok"/"FAIL" lines the harness reads.
//
// The Python and Node clients (interop/python, interop/node) derive the same
// records with the same rules, so any client's output can be checked by any
// other.
package scenario

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Header is one record header.
type Header struct {
	Key   string
	Value []byte
}

// Record is one record as produced, or as consumed with its offset.
type Record struct {
	Offset    int64
	Timestamp int64 // milliseconds since the epoch; NoTimestamp where the format has none
	Key       []byte
	Value     []byte
	Headers   []Header
}

// TimestampBase is the CreateTime of record 0 of every scenario (2020-09-13
// 12:26:40 UTC, in milliseconds since the epoch); record i has
// TimestampBase+i. A fixed time, so a reader can check a timestamp without
// talking to the writer.
const TimestampBase int64 = 1_600_000_000_000

// NoTimestamp is what a reader reports for a record whose format carries no
// timestamp (message sets of magic 0), as Kafka's clients report it: -1.
const NoTimestamp int64 = -1

// Codecs are the compression codecs a client may support, in the order the
// scenarios run them; "none" is the uncompressed run.
var Codecs = []string{"none", "gzip", "snappy", "lz4", "zstd"}

// Records returns the n records a client produces to topic. Keys, values,
// timestamps (TimestampBase+i) and headers depend only on the topic and the
// index, so a consumer checks what it
// read without talking to the producer. Values repeat a word a varying number
// of times so that every codec has something to compress and batches hold
// records of different lengths. withHeaders false gives records without
// headers, for message sets v0/v1, which cannot carry them.
func Records(topic string, n int, withHeaders bool) []Record {
	out := make([]Record, n)
	for i := range out {
		r := Record{
			Timestamp: TimestampBase + int64(i),
			Key:       []byte("key-" + strconv.Itoa(i)),
			Value:     []byte(topic + " value " + strconv.Itoa(i) + " " + strings.Repeat("kafkagen ", i%9)),
		}
		if withHeaders {
			r.Headers = []Header{
				{Key: "index", Value: []byte(strconv.Itoa(i))},
				{Key: "topic", Value: []byte(topic)},
			}
			if i%2 == 1 {
				r.Headers = append(r.Headers, Header{Key: "empty", Value: []byte{}})
			}
		}
		out[i] = r
	}
	return out
}

// Check reports the first difference between the records consumed and the
// ones produced, whose offsets are expected to run from firstOffset on.
func Check(got, want []Record, firstOffset int64) error {
	if len(got) != len(want) {
		return fmt.Errorf("consumed %d records, produced %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		switch {
		case g.Offset != firstOffset+int64(i):
			return fmt.Errorf("record %d: offset %d, want %d", i, g.Offset, firstOffset+int64(i))
		case !bytes.Equal(g.Key, w.Key):
			return fmt.Errorf("record %d (offset %d): key %q, want %q", i, g.Offset, g.Key, w.Key)
		case !bytes.Equal(g.Value, w.Value):
			return fmt.Errorf("record %d (offset %d): value %q, want %q", i, g.Offset, g.Value, w.Value)
		case len(g.Headers) != len(w.Headers):
			return fmt.Errorf("record %d (offset %d): %d headers, want %d", i, g.Offset, len(g.Headers), len(w.Headers))
		}
		for j, h := range w.Headers {
			if g.Headers[j].Key != h.Key || !bytes.Equal(g.Headers[j].Value, h.Value) {
				return fmt.Errorf("record %d (offset %d): header %d is %q=%q, want %q=%q",
					i, g.Offset, j, g.Headers[j].Key, g.Headers[j].Value, h.Key, h.Value)
			}
		}
	}
	return nil
}

// WithoutTimestamps returns a copy of rs with every timestamp NoTimestamp:
// what a reader of a format without timestamps (magic 0) must see, and what
// Kafka gives records written in it when it converts them to a batch of
// magic 2 (docs/protocol.md, "Message sets v0/v1").
func WithoutTimestamps(rs []Record) []Record {
	out := slices.Clone(rs)
	for i := range out {
		out[i].Timestamp = NoTimestamp
	}
	return out
}

// CheckTimestamps reports the first record whose timestamp differs from the
// one produced; Check compares the rest.
func CheckTimestamps(got, want []Record) error {
	if len(got) != len(want) {
		return fmt.Errorf("consumed %d records, produced %d", len(got), len(want))
	}
	for i := range want {
		if got[i].Timestamp != want[i].Timestamp {
			return fmt.Errorf("record %d (offset %d): timestamp %d, want %d", i, got[i].Offset, got[i].Timestamp, want[i].Timestamp)
		}
	}
	return nil
}
