// Package recordsdiff is a differential test of the records package
// against franz-go (kmsg.RecordBatch and kmsg.Record, compressed with
// kgo's DefaultCompressor as franz-go's producer does) and sarama
// (RecordBatch and MessageSet through its own encoder and its Fetch
// response decoder): random batches of every codec, written by one side and
// read by the other, in both directions, and legacy message sets against
// sarama.
//
// It lives in the conformance/diff module so that neither library enters
// the main module's go.mod; `make recordsdiff` runs it, and the test ends
// by printing one summary line with the counts.
package recordsdiff
