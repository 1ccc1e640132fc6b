package records

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// kv is a record as conversion must keep it.
type kv struct {
	offset    int64
	timestamp int64
	key       string
	value     string
}

// readConverted reads every record of blob, with the magic of its batch and
// whether that batch was compressed.
func readConverted(t *testing.T, blob []byte) (out []kv, magics []int8, codecs []Compression) {
	t.Helper()
	var r Reader
	var rr RecordReader
	var rec Record
	var d Decompressor
	r.Complete = true
	r.Reset(blob)
	for r.Next() {
		b := r.Batch()
		magics, codecs = append(magics, b.Magic), append(codecs, b.Compression())
		require.NoError(t, rr.Reset(b, &d))
		for rr.Next(&rec) {
			out = append(out, kv{rec.Offset, rec.Timestamp, string(rec.Key), string(rec.Value)})
		}
		require.NoError(t, rr.Err())
	}
	require.NoError(t, r.Err())
	return out, magics, codecs
}

func legacySet(t *testing.T, magic int8, c Compression, recs ...kv) []byte {
	t.Helper()
	if c == CompressionNone {
		var out []byte
		for _, r := range recs {
			var err error
			out, err = AppendMessage(out, magic, r.offset, r.timestamp, 0, []byte(r.key), []byte(r.value))
			require.NoError(t, err)
		}
		return out
	}
	m := NewMessageSetBuilder(magic, c)
	for _, r := range recs {
		require.NoError(t, m.Append(r.offset, r.timestamp, []byte(r.key), []byte(r.value)))
	}
	out, err := m.AppendTo(nil)
	require.NoError(t, err)
	return out
}

func TestUpConvert(t *testing.T) {
	two := []kv{{0, 1700000000000, "k1", "v1"}, {1, 1700000000001, "k2", "v2"}}
	for _, tc := range []struct {
		name  string
		magic int8
		codec Compression
	}{
		{"magic 0 plain", 0, CompressionNone},
		{"magic 1 plain", 1, CompressionNone},
		{"magic 0 gzip", 0, CompressionGzip},
		{"magic 1 snappy", 1, CompressionSnappy},
		{"magic 0 lz4 (old frame checksum)", 0, CompressionLZ4},
		{"magic 1 lz4", 1, CompressionLZ4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c Converter
			batch, err := c.UpConvert(nil, legacySet(t, tc.magic, tc.codec, two...))
			require.NoError(t, err)
			got, magics, codecs := readConverted(t, batch)
			assert.Equal(t, []int8{MagicV2}, magics, "one v2 batch")
			assert.Equal(t, []Compression{tc.codec}, codecs, "the wrapper's codec kept")
			want := []kv{{0, two[0].timestamp, "k1", "v1"}, {1, two[1].timestamp, "k2", "v2"}}
			if tc.magic == 0 {
				want[0].timestamp, want[1].timestamp = NoTimestamp, NoTimestamp
			}
			assert.Equal(t, want, got)
		})
	}
}

func TestUpConvertRefuses(t *testing.T) {
	good := legacySet(t, 1, CompressionNone, kv{0, 5, "k", "v"})
	badCRC := bytes.Clone(good)
	badCRC[len(badCRC)-1] ^= 1
	lying := bytes.Clone(good)
	binary.BigEndian.PutUint32(lying[8:], 1<<20) // the size says 1 MiB
	v2 := NewBatchBuilder()
	v2.Append(5, nil, []byte("v"))
	v2Batch, err := v2.AppendTo(nil)
	require.NoError(t, err)
	bomb := NewMessageSetBuilder(1, CompressionGzip)
	require.NoError(t, bomb.Append(0, 5, nil, make([]byte, 4<<20)))
	bombSet, err := bomb.AppendTo(nil)
	require.NoError(t, err)

	for _, tc := range []struct {
		name string
		blob []byte
		want error
	}{
		{"bad CRC", badCRC, ErrChecksum},
		{"lying size", lying, ErrTruncated},
		{"a v2 batch", v2Batch, ErrMagic},
		{"empty", nil, ErrInvalidRecord},
		{"decompression bomb over the limit", bombSet, ErrTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Converter{Decompressor: Decompressor{Limit: 1 << 20}}
			_, err := c.UpConvert(nil, tc.blob)
			require.ErrorIs(t, err, tc.want)
			var e *Error
			assert.ErrorAs(t, err, &e, "an *Error naming where")
		})
	}
}

// v2At builds a v2 batch of recs at base offset base.
func v2At(t *testing.T, base int64, c Compression, recs ...kv) []byte {
	t.Helper()
	b := NewBatchBuilder()
	b.Compression = c
	for _, r := range recs {
		b.Append(r.timestamp, []byte(r.key), []byte(r.value), Header{Key: []byte("h"), Value: []byte("dropped")})
	}
	out, err := b.AppendTo(nil)
	require.NoError(t, err)
	rb := new(Batch)
	require.NoError(t, ReadBatch(rb, out, 0))
	rb.SetBaseOffset(base)
	return out
}

func TestDownConvert(t *testing.T) {
	three := []kv{{0, 100, "a", "1"}, {0, 101, "b", "2"}, {0, 102, "c", "3"}}
	plain := v2At(t, 10, CompressionNone, three...)
	gz := v2At(t, 10, CompressionGzip, three...)
	control := AppendEndTxnMarker(nil, EndTxnMarker{ProducerID: 1, Commit: true, Timestamp: 5})
	rb := new(Batch)
	require.NoError(t, ReadBatch(rb, control, 0))
	rb.SetBaseOffset(13)
	later := v2At(t, 14, CompressionNone, kv{0, 103, "d", "4"})
	at := func(off, ts int64, k, v string) kv { return kv{off, ts, k, v} }

	for _, tc := range []struct {
		name     string
		blob     []byte
		magic    int8
		from     int64
		maxBytes int
		want     []kv
		codecs   []Compression
	}{
		{"magic 1 from the fetch offset", plain, 1, 11, 1 << 20,
			[]kv{at(11, 101, "b", "2"), at(12, 102, "c", "3")}, []Compression{0, 0}},
		{"magic 0 has no timestamps", plain, 0, 10, 1 << 20,
			[]kv{at(10, -1, "a", "1"), at(11, -1, "b", "2"), at(12, -1, "c", "3")}, []Compression{0, 0, 0}},
		{"a compressed batch converts whole into one wrapper", gz, 1, 11, 1 << 20,
			[]kv{at(10, 100, "a", "1"), at(11, 101, "b", "2"), at(12, 102, "c", "3")}, []Compression{CompressionGzip}},
		{"control batches skipped", append(append(bytes.Clone(plain), control...), later...), 1, 12, 1 << 20,
			[]kv{at(12, 102, "c", "3"), at(14, 103, "d", "4")}, []Compression{0, 0}},
		{"a partial batch at the end left out", append(bytes.Clone(plain), later[:20]...), 1, 10, 1 << 20,
			[]kv{at(10, 100, "a", "1"), at(11, 101, "b", "2"), at(12, 102, "c", "3")}, []Compression{0, 0, 0}},
		{"max bytes stops after the first batch", append(bytes.Clone(plain), later...), 1, 10, 10,
			[]kv{at(10, 100, "a", "1"), at(11, 101, "b", "2"), at(12, 102, "c", "3")}, []Compression{0, 0, 0}},
		{"batches before the fetch offset skipped", append(bytes.Clone(plain), later...), 0, 14, 1 << 20,
			[]kv{at(14, -1, "d", "4")}, []Compression{0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c Converter
			out, err := c.DownConvert([]byte("keep"), tc.blob, tc.magic, tc.from, tc.maxBytes)
			require.NoError(t, err)
			require.Equal(t, "keep", string(out[:4]), "appends to dst")
			got, magics, codecs := readConverted(t, out[4:])
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.codecs, codecs)
			for _, m := range magics {
				assert.Equal(t, tc.magic, m)
			}
		})
	}
	t.Run("zstd", func(t *testing.T) {
		var c Converter
		out, err := c.DownConvert([]byte("keep"), v2At(t, 0, CompressionZstd, three...), 1, 0, 1<<20)
		require.ErrorIs(t, err, ErrZstdDownConvert)
		assert.Equal(t, "keep", string(out), "nothing appended")
	})
	t.Run("bad CRC", func(t *testing.T) {
		var c Converter
		bad := bytes.Clone(plain)
		bad[len(bad)-1] ^= 1
		_, err := c.DownConvert(nil, bad, 1, 0, 1<<20)
		require.ErrorIs(t, err, ErrChecksum)
	})
}

func TestConverterTrim(t *testing.T) {
	big := NewMessageSetBuilder(1, CompressionGzip)
	require.NoError(t, big.Append(0, 5, nil, make([]byte, 4<<20)))
	set, err := big.AppendTo(nil)
	require.NoError(t, err)
	var c Converter
	_, err = c.UpConvert(nil, set)
	require.NoError(t, err)
	require.GreaterOrEqual(t, cap(c.Decompressor.buf), 4<<20, "the decompressed wrapper is held")
	c.Trim(1 << 20)
	assert.Zero(t, cap(c.Decompressor.buf))
	assert.Zero(t, cap(c.builder.own)+cap(c.builder.buf)+cap(c.builder.scratch))
	_, err = c.UpConvert(nil, legacySet(t, 1, CompressionNone, kv{0, 5, "k", "v"}))
	require.NoError(t, err, "usable after Trim")
}
