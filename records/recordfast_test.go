package records

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// refVarint appends v zigzag-encoded the plainest way, as Kafka's
// ByteUtils.writeVarlong does: the reference the fast encoder and decoder
// are checked against.
func refVarint(dst []byte, v int64) []byte {
	u := uint64(v<<1) ^ uint64(v>>63)
	for u >= 0x80 {
		dst = append(dst, byte(u)|0x80)
		u >>= 7
	}
	return append(dst, byte(u))
}

func refBytes(dst, b []byte) []byte {
	if b == nil {
		return refVarint(dst, -1)
	}
	return append(refVarint(dst, int64(len(b))), b...)
}

// refRecord encodes one v2 record field by field into a body, then
// prefixes its length: Kafka's DefaultRecord.writeTo, independent of
// appendRecord.
func refRecord(offsetDelta int32, timestampDelta int64, key, value []byte, headers []Header) []byte {
	body := []byte{0}
	body = refVarint(body, timestampDelta)
	body = refVarint(body, int64(offsetDelta))
	body = refBytes(body, key)
	body = refBytes(body, value)
	body = refVarint(body, int64(len(headers)))
	for _, h := range headers {
		body = refBytes(body, h.Key)
		body = refBytes(body, h.Value)
	}
	return append(refVarint(nil, int64(len(body))), body...)
}

// recordShape is one record's content for the encoder and decoder tests.
type recordShape struct {
	name           string
	offsetDelta    int32
	timestampDelta int64
	key, value     []byte
	headers        []Header
}

// recordShapes covers every varint size the fast paths special-case and
// the ones they leave to the general code: bodies just under and over the
// one- and two-byte length limits (64 and 8192 bytes), null and empty
// strings, negative and 10-byte deltas, zero to three headers.
func recordShapes() []recordShape {
	bytesOf := func(n int) []byte { return payload(n, uint64(n)) }
	shapes := []recordShape{
		{name: "nulls", key: nil, value: nil},
		{name: "empties", key: []byte{}, value: []byte{}},
		{name: "typical", offsetDelta: 70, timestampDelta: 300, key: bytesOf(16), value: bytesOf(80),
			headers: []Header{{Key: []byte("trace-id"), Value: bytesOf(16)}}},
		{name: "null header value", key: []byte("k"), value: []byte("v"), headers: []Header{{Key: []byte("h"), Value: nil}}},
		{name: "empty header key", value: []byte("v"), headers: []Header{{Key: []byte{}, Value: []byte{}}}},
		{name: "three headers", value: bytesOf(20), headers: []Header{
			{Key: []byte("a"), Value: bytesOf(9)}, {Key: bytesOf(15), Value: bytesOf(17)}, {Key: bytesOf(200), Value: nil}}},
		{name: "negative deltas", offsetDelta: -5, timestampDelta: -4096, value: []byte("v")},
		{name: "delta limits", offsetDelta: 1<<31 - 1, timestampDelta: -1 << 63, value: []byte("v")},
		{name: "two-byte deltas", offsetDelta: 8191, timestampDelta: -8192, value: []byte("v")},
		{name: "three-byte deltas", offsetDelta: 8192, timestampDelta: 8192, value: []byte("v")},
		{name: "key 63", key: bytesOf(63), value: bytesOf(1)},
		{name: "key 64", key: bytesOf(64), value: bytesOf(1)},
		{name: "value 8191", value: bytesOf(8191)},
		{name: "value 8192", value: bytesOf(8192)},
		{name: "value 1 MiB", value: bytesOf(1 << 20)},
	}
	// Bodies of every size around the length varint's limits: 64 bytes
	// (two-byte length from here), 8192 (three bytes from here).
	for _, body := range []int{6, 7, 62, 63, 64, 65, 66, 8190, 8191, 8192, 8193, 1<<20 + 3} {
		shapes = append(shapes, bodyOf(body))
	}
	return shapes
}

// bodyOf is a record whose body (what its length counts) is n bytes: a
// value, its length, four one-byte fields, and a two-byte timestamp delta
// where one byte more is needed.
func bodyOf(n int) recordShape {
	s := recordShape{name: fmt.Sprintf("body %d", n)}
	for _, tsd := range []int64{0, 64} {
		fixed := 4 + len(refVarint(nil, tsd))
		for l := 1; l <= 3; l++ {
			if v := n - fixed - l; v >= 0 && sizeOfLength(v) == l {
				s.timestampDelta, s.value = tsd, payload(v, uint64(v))
				return s
			}
		}
	}
	panic(s.name)
}

// sizeOfLength is the size of the varint length of an n-byte string.
func sizeOfLength(n int) int { return len(refVarint(nil, int64(n))) }

// TestAppendRecordMatchesReference: the fast encoder writes each shape as
// the reference does, byte for byte, after existing bytes and into a
// buffer that must grow.
func TestAppendRecordMatchesReference(t *testing.T) {
	for _, s := range recordShapes() {
		t.Run(s.name, func(t *testing.T) {
			want := refRecord(s.offsetDelta, s.timestampDelta, s.key, s.value, s.headers)
			got := appendRecord([]byte("prefix"), s.offsetDelta, s.timestampDelta, s.key, s.value, s.headers)
			require.Equal(t, "prefix", string(got[:6]))
			require.Equal(t, want, got[6:])
			roomy := make([]byte, 3, len(want)+200)
			assert.Equal(t, want, appendRecord(roomy, s.offsetDelta, s.timestampDelta, s.key, s.value, s.headers)[3:])
		})
	}
}

// decodeBoth reads rec as a batch's only record with Next, reporting
// whether its fast path took it, and with the general decoder, each into a
// Record with room for four headers.
func decodeBoth(rec []byte) (fast, general Record, fastNext int, fastOK bool, generalNext int, fe *fieldError) {
	fast.Headers = make([]Header, 0, 4)
	general.Headers = make([]Header, 0, 4)
	rr := RecordReader{data: rec, count: 1, magic: MagicV2, baseSeq: NoSequence}
	rr.startV2()
	fastOK = rr.Next(&fast) && rr.general == 0
	fastNext = rr.p
	generalNext, fe = general.decodeV2(rec, 0)
	// What Next adds: offsets and timestamps from a zero base, no sequence.
	general.Offset, general.Timestamp, general.Sequence = int64(general.OffsetDelta), general.TimestampDelta, NoSequence
	return
}

// TestDecodeFastTakesCommonRecords: Next's fast path reads every record
// whose varints fit two bytes, whose header keys are not null and whose
// headers fit r.Headers, exactly as decodeV2 does, and leaves the others
// to it.
func TestDecodeFastTakesCommonRecords(t *testing.T) {
	for _, s := range recordShapes() {
		t.Run(s.name, func(t *testing.T) {
			rec := refRecord(s.offsetDelta, s.timestampDelta, s.key, s.value, s.headers)
			fast, general, fastNext, fastOK, generalNext, fe := decodeBoth(rec)
			require.Nil(t, fe)
			require.Equal(t, len(rec), generalNext)
			if !fits2(rec, s) {
				assert.False(t, fastOK, "left to decodeV2")
				assert.Equal(t, general, fast, "read by decodeV2 through Next")
				return
			}
			require.True(t, fastOK, "the fast path takes it")
			assert.Equal(t, generalNext, fastNext)
			assert.Equal(t, general, fast)
		})
	}
}

// fits2 reports whether every varint of the record is one or two bytes
// and its headers fit four.
func fits2(rec []byte, s recordShape) bool {
	vs := []int64{int64(len(rec) - sizeOfLength(len(rec))), s.timestampDelta, int64(s.offsetDelta), int64(len(s.headers))}
	for _, b := range append([][]byte{s.key, s.value}, headerStrings(s.headers)...) {
		vs = append(vs, int64(len(b)))
	}
	for _, v := range vs {
		if len(refVarint(nil, v)) > 2 {
			return false
		}
	}
	return len(s.headers) <= 4
}

func headerStrings(hs []Header) [][]byte {
	var out [][]byte
	for _, h := range hs {
		out = append(out, h.Key, h.Value)
	}
	return out
}

// TestDecodeFastAgreesOnDamage: over damaged records (bytes changed, cut
// short, grown), whenever Next's fast path takes a record decodeV2 reads
// it to the same Record and position, and whenever decodeV2 finds an error
// the fast path has left the record to it.
func TestDecodeFastAgreesOnDamage(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	taken, errs := 0, 0
	for _, s := range recordShapes() {
		if len(s.value) > 1000 {
			continue
		}
		good := refRecord(s.offsetDelta, s.timestampDelta, s.key, s.value, s.headers)
		for range 400 {
			rec := append([]byte(nil), good...)
			switch rng.IntN(4) {
			case 0:
				rec[rng.IntN(len(rec))] = byte(rng.Uint32())
			case 1:
				rec[rng.IntN(min(len(rec), 8))] ^= 1 << rng.IntN(8)
			case 2:
				rec = rec[:rng.IntN(len(rec))]
			default:
				rec = append(rec, byte(rng.Uint32()))
			}
			fast, general, fastNext, fastOK, generalNext, fe := decodeBoth(rec)
			if fe != nil {
				errs++
				require.False(t, fastOK, "%s: % x: decodeV2 finds %v", s.name, rec, fe.err)
				continue
			}
			if fastOK {
				taken++
				require.Equal(t, generalNext, fastNext, "%s: % x", s.name, rec)
				require.Equal(t, general, fast, "%s: % x", s.name, rec)
			}
		}
	}
	assert.Positive(t, taken, "some damaged records are still valid and taken")
	assert.Positive(t, errs, "some are errors")
}

// TestNextFallsBackPerRecord: in one batch, records the fast decoder
// leaves to the general one (a 1 MiB value, more headers than the Record
// has room for) are read like the others, and the fast path resumes after
// them.
func TestNextFallsBackPerRecord(t *testing.T) {
	bb := NewBatchBuilder()
	bb.BaseSequence = 10
	big := payload(1<<20, 3)
	many := []Header{{Key: []byte("a")}, {Key: []byte("b")}, {Key: []byte("c")}, {Key: []byte("d")}, {Key: []byte("e")}}
	bb.Append(1, []byte("k0"), []byte("small"))
	bb.Append(2, []byte("k1"), big)
	bb.Append(3, []byte("k2"), []byte("small"), many...)
	bb.Append(4, []byte("k3"), []byte("small"), Header{Key: []byte("h"), Value: []byte("v")})
	blob, err := bb.AppendTo(nil)
	require.NoError(t, err)
	var r Reader
	r.Reset(blob)
	require.True(t, r.Next())
	var rr RecordReader
	require.NoError(t, rr.Reset(r.Batch(), nil))
	rec := Record{Headers: make([]Header, 0, 1)}
	var keys []string
	var headers []int
	for rr.Next(&rec) {
		keys = append(keys, string(rec.Key))
		headers = append(headers, len(rec.Headers))
		assert.Equal(t, int32(10)+rec.OffsetDelta, rec.Sequence)
		assert.Equal(t, int64(1+rec.OffsetDelta), rec.Timestamp)
	}
	require.NoError(t, rr.Err())
	assert.Equal(t, []string{"k0", "k1", "k2", "k3"}, keys)
	assert.Equal(t, []int{0, 0, 5, 1}, headers)
}

// TestSequenceMatchesKafka: RecordReader.sequence, branch-free, is
// addSequence (Kafka's incrementSequence) for every base sequence and
// delta tried, wrapping past MaxInt32 included, and -1 without a base
// sequence.
func TestSequenceMatchesKafka(t *testing.T) {
	const maxInt32 = 1<<31 - 1
	bases := []int32{0, 1, 10, 4095, 1 << 30, maxInt32 - 4096, maxInt32 - 1, maxInt32, -1, -2, -1 << 31}
	deltas := []int32{0, 1, 63, 64, 4095, 4096, 8191, maxInt32 - 1, maxInt32, -1, -4096, -1 << 31}
	rng := rand.New(rand.NewPCG(3, 3))
	for range 200 {
		bases = append(bases, int32(rng.Uint32()))
		deltas = append(deltas, int32(rng.Uint32()), int32(rng.IntN(8192)-4096))
	}
	for _, base := range bases {
		rr := RecordReader{baseSeq: base, count: 1}
		rr.startV2()
		for _, d := range deltas {
			want := int32(NoSequence)
			if base >= 0 {
				want = addSequence(base, d)
			}
			require.Equal(t, want, rr.sequence(d), "base %d, delta %d", base, d)
		}
	}
}
