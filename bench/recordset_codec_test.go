package bench

import (
	"bytes"
	"errors"
	"hash/crc32"
	"io"
	"testing"

	"github.com/kafkagen/kafkagen/records"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
	"github.com/stretchr/testify/require"
)

// Each codec of the records package against its library called directly on
// the same bytes: the uncompressed records of one batch of 1,000 records
// (about 130 KB). Snappy is compared on raw blocks (SnappyCodec{Raw: true}),
// the bytes the library itself reads and writes; lz4 on frames as Java
// writes them (64 KiB blocks, no checksums but the header's), which
// pierrec/lz4's Writer writes with those options.
//
//	BenchmarkRecordsetCodec/op=<codec>-decompress/impl=kafkagen|lib
//	BenchmarkRecordsetCodec/op=<codec>-compress/impl=kafkagen|lib
//	BenchmarkRecordsetCRC/op=crc32c/impl=kafkagen|stdlib

// rsPayload is the records section of one uncompressed batch of n records.
func rsPayload(n int) []byte {
	bb := records.NewBatchBuilder()
	for i := 0; i < n; i++ {
		r := rsContent(i / rsRecords)[i%rsRecords]
		bb.Append(1700000000000+int64(i), r.key, r.value, records.Header{Key: r.hkey, Value: r.hvalue})
	}
	out, err := bb.AppendTo(nil)
	if err != nil {
		panic(err)
	}
	return out[61:]
}

// rsLib is one codec called directly.
type rsLib struct {
	codec      records.Compression
	ours       records.Codec
	compress   func(dst, src []byte) []byte
	decompress func(dst, src []byte) []byte
}

func rsLibs() []rsLib {
	gw, _ := gzip.NewWriterLevel(nil, gzip.DefaultCompression)
	var gr gzip.Reader
	var gin bytes.Reader
	var gout bytes.Buffer
	lw := lz4.NewWriter(nil)
	if err := lw.Apply(lz4.BlockSizeOption(lz4.Block64Kb), lz4.ChecksumOption(false)); err != nil {
		panic(err)
	}
	lr := lz4.NewReader(nil)
	var lin bytes.Reader
	zw, _ := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithEncoderLevel(zstd.EncoderLevelFromZstd(3)))
	zr, _ := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
	readAll := func(dst []byte, r io.Reader) []byte {
		for {
			if len(dst) == cap(dst) {
				dst = append(dst, 0)[:len(dst)]
			}
			n, err := r.Read(dst[len(dst):cap(dst)])
			dst = dst[:len(dst)+n]
			if errors.Is(err, io.EOF) {
				return dst
			}
			if err != nil {
				panic(err)
			}
		}
	}
	return []rsLib{
		{records.CompressionGzip, &records.GzipCodec{},
			func(dst, src []byte) []byte {
				gout.Reset()
				gw.Reset(&gout)
				_, _ = gw.Write(src)
				_ = gw.Close()
				return append(dst, gout.Bytes()...)
			},
			func(dst, src []byte) []byte {
				gin.Reset(src)
				if err := gr.Reset(&gin); err != nil {
					panic(err)
				}
				return readAll(dst, &gr)
			}},
		{records.CompressionSnappy, &records.SnappyCodec{Raw: true},
			func(dst, src []byte) []byte { return s2.EncodeSnappy(dst[:cap(dst)], src) },
			func(dst, src []byte) []byte {
				out, err := s2.Decode(dst[:cap(dst)], src)
				if err != nil {
					panic(err)
				}
				return out
			}},
		{records.CompressionLZ4, &records.LZ4Codec{},
			func(dst, src []byte) []byte {
				gout.Reset()
				lw.Reset(&gout)
				_, _ = lw.Write(src)
				_ = lw.Close()
				return append(dst, gout.Bytes()...)
			},
			func(dst, src []byte) []byte {
				lin.Reset(src)
				lr.Reset(&lin)
				return readAll(dst, lr)
			}},
		{records.CompressionZstd, &records.ZstdCodec{},
			func(dst, src []byte) []byte { return zw.EncodeAll(src, dst) },
			func(dst, src []byte) []byte {
				out, err := zr.DecodeAll(src, dst)
				if err != nil {
					panic(err)
				}
				return out
			}},
	}
}

func TestRecordsetCodecsAgree(t *testing.T) {
	src := rsPayload(1000)
	var d records.Decompressor
	for _, l := range rsLibs() {
		d.SetCodec(l.codec, l.ours)
		ours, err := l.ours.AppendCompressed(nil, src, records.MagicV2)
		require.NoError(t, err)
		require.Equal(t, src, l.decompress(make([]byte, 0, len(src)), ours), "%s: the library reads ours", l.codec)
		theirs := l.compress(make([]byte, 0, 2*len(src)), src)
		out, err := d.Decompress(l.codec, records.MagicV2, theirs)
		require.NoError(t, err)
		require.Equal(t, src, out, "%s: ours reads the library's", l.codec)
	}
}

func BenchmarkRecordsetCodec(b *testing.B) {
	src := rsPayload(1000)
	for _, l := range rsLibs() {
		compressed := l.compress(nil, src)
		var d records.Decompressor
		d.SetCodec(l.codec, l.ours)
		dst := make([]byte, 0, 2*len(src)+1024)
		run := func(op, impl string, f func()) {
			b.Run("op="+l.codec.String()+"-"+op+"/impl="+impl, func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				f() // warm the codec's state
				for b.Loop() {
					f()
				}
			})
		}
		run("compress", "kafkagen", func() {
			if _, err := l.ours.AppendCompressed(dst[:0], src, records.MagicV2); err != nil {
				panic(err)
			}
		})
		run("compress", "lib", func() { l.compress(dst[:0], src) })
		run("decompress", "kafkagen", func() {
			if _, err := d.Decompress(l.codec, records.MagicV2, compressed); err != nil {
				panic(err)
			}
		})
		run("decompress", "lib", func() { l.decompress(dst[:0], compressed) })
	}
}

// rsCRCSink keeps the CRC benchmark's result alive.
var rsCRCSink uint32

func BenchmarkRecordsetCRC(b *testing.B) {
	blob := rsBlob()
	table := crc32.MakeTable(crc32.Castagnoli)
	run := func(impl string, f func() uint32) {
		b.Run("op=crc32c/impl="+impl, func(b *testing.B) {
			b.SetBytes(int64(len(blob)))
			b.ReportAllocs()
			for b.Loop() {
				rsCRCSink = f()
			}
		})
	}
	run("kafkagen", func() uint32 { return records.CRC32C(blob) })
	run("stdlib", func() uint32 { return crc32.Checksum(blob, table) })
}
