package records

import (
	"hash/crc32"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCRC32CMatchesHashCRC32: CRC32C is hash/crc32's Castagnoli checksum
// for every length up to 2100 bytes at every alignment mod 8, and for
// batch-sized buffers, whichever way this machine computes it.
func TestCRC32CMatchesHashCRC32(t *testing.T) {
	t.Logf("folding with VPCLMULQDQ: %v", hasFold)
	rng := rand.New(rand.NewPCG(5, 5))
	buf := make([]byte, 1<<17)
	for i := range buf {
		buf[i] = byte(rng.Uint32())
	}
	for n := 0; n <= 2100; n++ {
		for off := range 8 {
			p := buf[off : off+n]
			require.Equal(t, crc32.Checksum(p, castagnoli), CRC32C(p), "%d bytes at %d", n, off)
		}
	}
	for _, n := range []int{4095, 4096, 13500, 65536, 1<<17 - 3} {
		p := buf[3 : 3+n-3]
		require.Equal(t, crc32.Checksum(p, castagnoli), CRC32C(p), "%d bytes", len(p))
	}
	zeros := make([]byte, 1000)
	require.Equal(t, crc32.Checksum(zeros, castagnoli), CRC32C(zeros))
}

// TestFoldConstants derives crc_amd64.s's fold constants: for a distance
// of 16n bytes, x^(128n+63) mod P and x^(128n-1) mod P, bit-reflected into
// a quadword's top 32 bits.
func TestFoldConstants(t *testing.T) {
	const poly = 1<<32 | 0x1EDC6F41 // Castagnoli, x^32 included
	mulMod := func(a, b uint64) uint64 {
		var r uint64
		for ; b != 0; b >>= 1 {
			if b&1 != 0 {
				r ^= a
			}
			if a <<= 1; a&(1<<32) != 0 {
				a ^= poly
			}
		}
		return r
	}
	xPow := func(e int) uint64 { // x^e mod P
		r, x := uint64(1), uint64(2)
		for ; e > 0; e >>= 1 {
			if e&1 != 0 {
				r = mulMod(r, x)
			}
			x = mulMod(x, x)
		}
		return r
	}
	constant := func(e int) uint64 { return uint64(bits.Reverse32(uint32(xPow(e)))) << 32 }
	want := map[int][2]uint64{ // from crc_amd64.s
		256: {0xe9a5d8be00000000, 0x1426a81500000000},
		64:  {0x1c19243b00000000, 0x75bba45b00000000},
		48:  {0xa46ef4aa00000000, 0x6051243f00000000},
		32:  {0x33ccbbbc00000000, 0xa2158b3400000000},
		16:  {0x3743f7bd00000000, 0x3171d43000000000},
	}
	for distance, k := range want {
		n := distance / 16
		require.Equal(t, k, [2]uint64{constant(128*n + 63), constant(128*n - 1)}, "%d bytes", distance)
	}
}
