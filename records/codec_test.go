package records

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/klauspost/compress/s2"
	"github.com/pierrec/lz4/v4"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var allCodecs = []Compression{CompressionGzip, CompressionSnappy, CompressionLZ4, CompressionZstd}

// magicsOf are the magics a codec exists in.
func magicsOf(c Compression) []int8 {
	if c == CompressionZstd {
		return []int8{MagicV2}
	}
	return []int8{MagicV0, MagicV1, MagicV2}
}

// payload is n bytes, half text (compressible) and half random.
func payload(n int, seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, 1))
	b := make([]byte, n)
	for i := range b {
		if i/512%2 == 0 {
			b[i] = "kafka record batch "[i%19]
		} else {
			b[i] = byte(rng.Uint32())
		}
	}
	return b
}

func TestCodecRoundTrip(t *testing.T) {
	sizes := []int{0, 1, 100, 64<<10 - 1, 64 << 10, 300 << 10}
	for _, c := range allCodecs {
		for _, magic := range magicsOf(c) {
			var z Compressor
			var d Decompressor
			for _, n := range sizes {
				src := payload(n, uint64(n))
				comp, err := z.AppendCompressed([]byte("prefix"), c, magic, src)
				require.NoError(t, err, "%s magic %d size %d", c, magic, n)
				require.Equal(t, "prefix", string(comp[:6]))
				out, err := d.Decompress(c, magic, comp[6:])
				require.NoError(t, err, "%s magic %d size %d", c, magic, n)
				require.True(t, bytes.Equal(src, out), "%s magic %d size %d", c, magic, n)
			}
		}
	}
}

// TestCodecFramings checks the framing each codec writes against an
// independent reader, and that the framings other producers write read too.
func TestCodecFramings(t *testing.T) {
	src := payload(200<<10, 7)
	var z Compressor
	var d Decompressor

	gz, err := z.AppendCompressed(nil, CompressionGzip, MagicV2, src)
	require.NoError(t, err)
	std, err := gzip.NewReader(bytes.NewReader(gz))
	require.NoError(t, err)
	out, err := io.ReadAll(std)
	require.NoError(t, err)
	assert.Equal(t, src, out, "gzip readable by compress/gzip")

	sn, err := z.AppendCompressed(nil, CompressionSnappy, MagicV2, src)
	require.NoError(t, err)
	assert.Equal(t, xerialHeader[:], sn[:16], "snappy writes Java's xerial framing")
	raw := s2.EncodeSnappy(nil, src)
	out, err = d.Decompress(CompressionSnappy, MagicV2, raw)
	require.NoError(t, err)
	assert.Equal(t, src, out, "a raw snappy block reads")

	for _, magic := range []int8{MagicV1, MagicV2} {
		frame, err := z.AppendCompressed(nil, CompressionLZ4, magic, src)
		require.NoError(t, err)
		out, err := io.ReadAll(lz4.NewReader(bytes.NewReader(frame)))
		require.NoError(t, err, "magic %d lz4 readable by pierrec/lz4's frame reader", magic)
		assert.Equal(t, src, out)
	}
	// Frames as Go clients write them: pierrec's writer with content
	// checksum, block checksums, content size, and 4 MiB blocks.
	var buf bytes.Buffer
	w := lz4.NewWriter(&buf)
	require.NoError(t, w.Apply(lz4.BlockChecksumOption(true), lz4.ChecksumOption(true), lz4.SizeOption(uint64(len(src))), lz4.BlockSizeOption(lz4.Block4Mb)))
	_, err = w.Write(src)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	out, err = d.Decompress(CompressionLZ4, MagicV2, buf.Bytes())
	require.NoError(t, err)
	assert.Equal(t, src, out, "pierrec frame with every option reads")

	// Magic 0 writes the old header checksum (over the frame magic too),
	// which a strict frame reader rejects and magic 1 reading rejects, and
	// magic 0 reading accepts.
	v0, err := z.AppendCompressed(nil, CompressionLZ4, MagicV0, src)
	require.NoError(t, err)
	v1, _ := z.AppendCompressed(nil, CompressionLZ4, MagicV1, src)
	assert.NotEqual(t, v0[6], v1[6], "header checksums differ")
	assert.Equal(t, byte(xxh32(v0[:6])>>8), v0[6])
	_, err = d.Decompress(CompressionLZ4, MagicV1, v0)
	assert.ErrorIs(t, err, ErrCorrupt)
	out, err = d.Decompress(CompressionLZ4, MagicV0, v1)
	require.NoError(t, err)
	assert.Equal(t, src, out, "magic 0 reading skips the header checksum")
}

func TestXXH32(t *testing.T) {
	// Published xxHash32 values (seed 0).
	assert.Equal(t, uint32(0x02CC5D05), xxh32(nil))
	assert.Equal(t, uint32(0x550D7456), xxh32([]byte("a")))
	assert.Equal(t, uint32(0x32D153FF), xxh32([]byte("abc")))
	assert.Equal(t, uint32(0x63A14D5F), xxh32([]byte("abcdefghijklmnopqrstuvwxyz")))
}

// TestDecompressBomb: a small input inflating past the limit fails with
// ErrTooLarge, its buffer never grown past the limit (growing by doubling
// allocates about twice the limit in all).
func TestDecompressBomb(t *testing.T) {
	const limit = 1 << 20
	zeros := make([]byte, 16<<20)
	for _, c := range allCodecs {
		for _, magic := range magicsOf(c) {
			var z Compressor
			bomb, err := z.AppendCompressed(nil, c, magic, zeros)
			require.NoError(t, err)
			require.Less(t, len(bomb), 1<<20, "%s bomb is small", c)
			d := Decompressor{Limit: limit}
			small, _ := z.AppendCompressed(nil, c, magic, []byte("warm the codec up"))
			_, err = d.Decompress(c, magic, small)
			require.NoError(t, err)

			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err = d.Decompress(c, magic, bomb)
			runtime.ReadMemStats(&after)
			require.Error(t, err, "%s magic %d", c, magic)
			assert.True(t, errors.Is(err, ErrTooLarge), "%s magic %d: %v", c, magic, err)
			assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(3*limit), "%s magic %d allocated", c, magic)
			assert.LessOrEqual(t, cap(d.buf), limit+1, "%s magic %d buffer", c, magic)
		}
	}
}

// TestDecompressLimitEdge: exactly the limit decompresses; one byte more
// does not.
func TestDecompressLimitEdge(t *testing.T) {
	const limit = 100 << 10
	for _, c := range allCodecs {
		var z Compressor
		d := Decompressor{Limit: limit}
		exact, err := z.AppendCompressed(nil, c, MagicV2, payload(limit, 3))
		require.NoError(t, err)
		out, err := d.Decompress(c, MagicV2, exact)
		require.NoError(t, err, "%s", c)
		require.Len(t, out, limit)
		over, err := z.AppendCompressed(nil, c, MagicV2, payload(limit+1, 3))
		require.NoError(t, err)
		_, err = d.Decompress(c, MagicV2, over)
		require.ErrorIs(t, err, ErrTooLarge, "%s", c)
	}
}

func TestDecompressCorrupt(t *testing.T) {
	for _, c := range allCodecs {
		var z Compressor
		var d Decompressor
		good, err := z.AppendCompressed(nil, c, MagicV2, payload(10<<10, 5))
		require.NoError(t, err)
		for _, bad := range [][]byte{good[:len(good)/2], append([]byte{0xde, 0xad}, good...), {}} {
			if c == CompressionZstd && len(bad) == 0 {
				continue // zstd: no frame at all is empty output
			}
			_, err := d.Decompress(c, MagicV2, bad)
			require.Error(t, err, "%s %d bytes", c, len(bad))
			assert.True(t, errors.Is(err, ErrCorrupt) || errors.Is(err, ErrTooLarge), "%s: %v", c, err)
		}
	}
}

func TestCodecRefusals(t *testing.T) {
	var z Compressor
	_, err := z.AppendCompressed(nil, CompressionZstd, MagicV1, []byte("x"))
	assert.ErrorIs(t, err, ErrCompression)
	_, err = z.AppendCompressed(nil, Compression(5), MagicV2, []byte("x"))
	assert.ErrorIs(t, err, ErrCompression)
	var d Decompressor
	_, err = d.Decompress(CompressionNone, MagicV2, []byte("x"))
	assert.ErrorIs(t, err, ErrCompression)
}
