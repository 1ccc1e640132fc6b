//go:build !purego

package records

// castagnoliFold returns hash/crc32's Update(crc, castagnoli, p) for
// len(p) >= 256, folding 256 bytes at a time with VPCLMULQDQ on four
// 512-bit registers (crc_amd64.s). Call it only when hasFold.
//
//go:noescape
func castagnoliFold(crc uint32, p []byte) uint32

// cpuid and xgetbv are the instructions, for hasFold.
func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)
func xgetbv() uint32

// hasFold reports whether castagnoliFold can run: the CPU has AVX-512F,
// VPCLMULQDQ, PCLMULQDQ and SSE 4.2, and the OS saves the registers it
// uses.
var hasFold = func() bool {
	if maxLeaf, _, _, _ := cpuid(0, 0); maxLeaf < 7 {
		return false
	}
	const osxsave, sse42, pclmulqdq = 1 << 27, 1 << 20, 1 << 1
	if _, _, ecx, _ := cpuid(1, 0); ecx&osxsave == 0 || ecx&sse42 == 0 || ecx&pclmulqdq == 0 {
		return false
	}
	// XCR0: SSE and AVX state, the opmask registers and both halves of
	// the ZMM registers.
	const xcr0 = 1<<1 | 1<<2 | 1<<5 | 1<<6 | 1<<7
	if xgetbv()&xcr0 != xcr0 {
		return false
	}
	const avx512f, vpclmulqdq = 1 << 16, 1 << 10
	_, ebx, ecx, _ := cpuid(7, 0)
	return ebx&avx512f != 0 && ecx&vpclmulqdq != 0
}()
