package records

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// fetchBlob is n batches of m records of about 100 bytes with a header
// each, compressed with c: the shape of a Fetch response's records.
func fetchBlob(t testing.TB, n, m int, c Compression) []byte {
	bb := NewBatchBuilder()
	value := payload(80, 1)
	var blob []byte
	for i := 0; i < n; i++ {
		bb.Reset()
		bb.BaseOffset = int64(i * m)
		bb.Compression = c
		for j := 0; j < m; j++ {
			bb.Append(int64(1700000000000+j), []byte("key-0001"), value, Header{Key: []byte("trace"), Value: []byte("abc")})
		}
		var err error
		blob, err = bb.AppendTo(blob)
		require.NoError(t, err)
	}
	return blob
}

// readCount iterates every record of blob and returns how many there were.
func readCount(r *Reader, rr *RecordReader, rec *Record, d *Decompressor, blob []byte) int {
	n := 0
	r.Reset(blob)
	for r.Next() {
		if rr.Reset(r.Batch(), d) != nil {
			return -1
		}
		for rr.Next(rec) {
			n++
		}
		if rr.Err() != nil {
			return -1
		}
	}
	if r.Err() != nil {
		return -1
	}
	return n
}

// TestAllocsRead: iterating batches and records, compressed or not,
// allocates nothing once the Record and Decompressor are warm.
func TestAllocsRead(t *testing.T) {
	skipUnderRace(t)
	for _, c := range append([]Compression{CompressionNone}, allCodecs...) {
		t.Run(c.String(), func(t *testing.T) {
			blob := fetchBlob(t, 10, 50, c)
			var r Reader
			var rr RecordReader
			var rec Record
			var d Decompressor
			require.Equal(t, 500, readCount(&r, &rr, &rec, &d, blob))
			allocs := testing.AllocsPerRun(20, func() {
				if readCount(&r, &rr, &rec, &d, blob) != 500 {
					panic("read failed")
				}
			})
			require.Zero(t, allocs)
		})
	}
}

// TestAllocsBuild: building a batch, compressed or not, in the builder's
// buffer (AppendTo) or straight into dst (Start, Finish), allocates
// nothing once the builder's buffers and codecs exist and dst has room.
func TestAllocsBuild(t *testing.T) {
	skipUnderRace(t)
	value := payload(80, 1)
	headers := []Header{{Key: []byte("trace"), Value: []byte("abc")}}
	for _, c := range append([]Compression{CompressionNone}, allCodecs...) {
		t.Run(c.String(), func(t *testing.T) {
			bb := NewBatchBuilder()
			dst := make([]byte, 0, 64<<10)
			build := func() {
				bb.Reset()
				bb.Compression = c
				bb.ProducerID, bb.ProducerEpoch, bb.BaseSequence = 7, 1, 100
				for j := 0; j < 100; j++ {
					bb.Append(int64(1700000000000+j), []byte("key"), value, headers...)
				}
				if _, err := bb.AppendTo(dst[:0]); err != nil {
					panic(err)
				}
			}
			build()
			require.Zero(t, testing.AllocsPerRun(20, build))

			// Straight into dst (Start, Finish) too, once dst has room.
			direct := func() {
				bb.Start(dst[:0])
				bb.Compression = c
				bb.ProducerID, bb.ProducerEpoch, bb.BaseSequence = 7, 1, 100
				for j := 0; j < 100; j++ {
					bb.Append(int64(1700000000000+j), []byte("key"), value, headers...)
				}
				if _, err := bb.Finish(); err != nil {
					panic(err)
				}
			}
			direct()
			require.Zero(t, testing.AllocsPerRun(20, direct))
		})
	}
}

// TestAllocsLegacy: legacy messages and wrappers, written and read.
func TestAllocsLegacy(t *testing.T) {
	skipUnderRace(t)
	for _, c := range []Compression{CompressionNone, CompressionGzip, CompressionSnappy, CompressionLZ4} {
		for _, magic := range []int8{MagicV0, MagicV1} {
			t.Run(fmt.Sprintf("%s-v%d", c, magic), func(t *testing.T) {
				m := NewMessageSetBuilder(magic, c)
				dst := make([]byte, 0, 64<<10)
				build := func() []byte {
					m.Reset()
					out := dst[:0]
					for j := 0; j < 50; j++ {
						var err error
						if c == CompressionNone {
							out, err = AppendMessage(out, magic, int64(j), int64(j), 0, []byte("k"), []byte("some value"))
						} else {
							err = m.Append(int64(j), int64(j), []byte("k"), []byte("some value"))
						}
						if err != nil {
							panic(err)
						}
					}
					if c != CompressionNone {
						var err error
						if out, err = m.AppendTo(out); err != nil {
							panic(err)
						}
					}
					return out
				}
				blob := build()
				var r Reader
				var rr RecordReader
				var rec Record
				var d Decompressor
				require.Equal(t, 50, readCount(&r, &rr, &rec, &d, blob))
				require.Zero(t, testing.AllocsPerRun(20, func() {
					build()
					if readCount(&r, &rr, &rec, &d, blob) != 50 {
						panic("read failed")
					}
				}))
			})
		}
	}
}

// skipUnderRace skips a zero-allocation test under the race detector,
// whose instrumentation allocates; the plain test run checks them.
func skipUnderRace(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates: allocations are checked without -race")
	}
}
