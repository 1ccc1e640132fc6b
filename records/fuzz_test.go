package records

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/kafkagen/kafkagen/internal/corpus"
)

var sentinels = []error{ErrTruncated, ErrInvalidLength, ErrChecksum, ErrRecordCount, ErrMagic,
	ErrMalformedVarint, ErrCompression, ErrCorrupt, ErrTooLarge, ErrInvalidRecord}

// builtSeeds are record sets of every magic and codec written here, so the
// fuzzer has a seed of each even without the Java vectors.
func builtSeeds(f *testing.F) [][]byte {
	var seeds [][]byte
	for _, c := range append([]Compression{CompressionNone}, allCodecs...) {
		bb := NewBatchBuilder()
		bb.Compression = c
		bb.ProducerID, bb.BaseSequence = 3, 0
		bb.Append(1, []byte("k"), []byte("v"), Header{Key: []byte("h"), Value: nil})
		bb.Append(2, nil, []byte("value two"))
		blob, err := bb.AppendTo(nil)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, blob)
		for _, magic := range []int8{MagicV0, MagicV1} {
			if c == CompressionZstd {
				continue
			}
			if c == CompressionNone {
				b, _ := AppendMessage(nil, magic, 5, 6, 0, []byte("k"), []byte("v"))
				seeds = append(seeds, b)
				continue
			}
			m := NewMessageSetBuilder(magic, c)
			m.Reset()
			_ = m.Append(0, 1, nil, []byte("a"))
			_ = m.Append(1, 2, []byte("k"), []byte("b"))
			b, err := m.AppendTo(nil)
			if err != nil {
				f.Fatal(err)
			}
			seeds = append(seeds, b)
		}
	}
	seeds = append(seeds, AppendEndTxnMarker(nil, EndTxnMarker{ProducerID: 1, Commit: true, CoordinatorEpoch: 2}))
	return seeds
}

// FuzzRead reads arbitrary bytes as a records blob, records included. It
// must never panic; every error must be an *Error wrapping a sentinel; and
// without an error, the batches and the tail account for every byte.
func FuzzRead(f *testing.F) {
	for _, s := range builtSeeds(f) {
		f.Add(s)
	}
	if _, err := os.Stat(filepath.Join(corpus.VectorDir(), "java-records-dev.jsonl")); err == nil {
		for _, s := range loadJavaSets(f) {
			f.Add(s.bytes(f))
		}
	}
	// One Decompressor for every input, as a client keeps one: its codecs
	// are created once.
	d := Decompressor{Limit: 1 << 20}
	f.Fuzz(func(t *testing.T, blob []byte) {
		var r Reader
		var rr RecordReader
		var rec Record
		r.Reset(blob)
		covered := 0
		for r.Next() {
			b := r.Batch()
			covered += len(b.Raw)
			if err := rr.Reset(b, &d); err != nil {
				checkError(t, err)
				continue
			}
			n := 0
			for p := rr.p; rr.Next(&rec); p = rr.p {
				if b.Magic == MagicV2 {
					checkGeneralAgrees(t, &rr, &rec, p)
				}
				n++
			}
			if err := rr.Err(); err != nil {
				checkError(t, err)
				continue
			}
			if b.Magic == MagicV2 && n != int(b.NumRecords) {
				t.Fatalf("batch at %d: %d records read, count %d, no error", b.Pos, n, b.NumRecords)
			}
		}
		if err := r.Err(); err != nil {
			checkError(t, err)
			return
		}
		if covered+len(r.Tail()) != len(blob) {
			t.Fatalf("batches cover %d bytes and the tail %d of %d", covered, len(r.Tail()), len(blob))
		}
	})
}

// checkGeneralAgrees decodes the v2 record Next just read at p again with
// the general decoder, which must agree with whichever path Next took.
func checkGeneralAgrees(t *testing.T, rr *RecordReader, got *Record, p int) {
	var want Record
	next, fe := want.decodeV2(rr.data, p)
	if fe != nil || next != rr.p {
		t.Fatalf("record at %d: Next read it to %d, decodeV2 to %d with %v", p, rr.p, next, fe)
	}
	want.Offset, want.Timestamp, want.Sequence = got.Offset, got.Timestamp, got.Sequence
	if len(want.Headers) == 0 {
		want.Headers = got.Headers[:0:0]
	}
	gotCopy := *got
	if len(gotCopy.Headers) == 0 {
		gotCopy.Headers = got.Headers[:0:0]
	}
	if !reflect.DeepEqual(want, gotCopy) {
		t.Fatalf("record at %d: Next read %+v, decodeV2 %+v", p, gotCopy, want)
	}
}

func checkError(t *testing.T, err error) {
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%T is not *Error: %v", err, err)
	}
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return
		}
	}
	t.Fatalf("no sentinel: %v", err)
}
