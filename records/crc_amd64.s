//go:build !purego

#include "textflag.h"

// CRC-32C by folding (castagnoliFold): the bytes, as a polynomial, are
// reduced modulo the CRC polynomial P 16 bytes at a time with carry-less
// multiplication until 16 bytes are left, whose CRC (then the tail's) the
// CRC32 instruction computes; the reduction keeps the remainder mod P, so
// the CRC is the same. A 16-byte block B (first 8 bytes B0, last 8 B1)
// moves 16n bytes on as B0*k0 + B1*k1 with k0 = x^(128n+64-1) mod P and
// k1 = x^(128n-1) mod P: bits are reflected (the CRC's bit order), which
// makes PCLMULQDQ's product one bit short of the 128-bit block, hence the
// -1, and each constant is bit-reflected into a quadword's top 32 bits.
// The initial CRC is xored into the first 4 bytes, as a reflected CRC's
// register is.
//
// Four 512-bit accumulators take 256 bytes a round, each of their four
// 128-bit lanes a block, folded 256 bytes on (foldK256); then they fold
// into one, 64 bytes at a time (foldK64), its lanes into the last (48, 32
// and 16 bytes on), and the tail goes through the CRC32 instruction.

DATA foldK256<>+0(SB)/8, $0xe9a5d8be00000000
DATA foldK256<>+8(SB)/8, $0x1426a81500000000
GLOBL foldK256<>(SB), RODATA|NOPTR, $16
DATA foldK64<>+0(SB)/8, $0x1c19243b00000000
DATA foldK64<>+8(SB)/8, $0x75bba45b00000000
GLOBL foldK64<>(SB), RODATA|NOPTR, $16
DATA foldK48<>+0(SB)/8, $0xa46ef4aa00000000
DATA foldK48<>+8(SB)/8, $0x6051243f00000000
GLOBL foldK48<>(SB), RODATA|NOPTR, $16
DATA foldK32<>+0(SB)/8, $0x33ccbbbc00000000
DATA foldK32<>+8(SB)/8, $0xa2158b3400000000
GLOBL foldK32<>(SB), RODATA|NOPTR, $16
DATA foldK16<>+0(SB)/8, $0x3743f7bd00000000
DATA foldK16<>+8(SB)/8, $0x3171d43000000000
GLOBL foldK16<>(SB), RODATA|NOPTR, $16

// func castagnoliFold(crc uint32, p []byte) uint32
// len(p) >= 256.
TEXT ·castagnoliFold(SB), NOSPLIT, $0-36
	MOVL crc+0(FP), AX
	MOVQ p_base+8(FP), SI
	MOVQ p_len+16(FP), CX

	VMOVDQU64 (SI), Z0
	VMOVDQU64 64(SI), Z1
	VMOVDQU64 128(SI), Z2
	VMOVDQU64 192(SI), Z3
	NOTL AX
	VMOVD AX, X4
	VPXORD Z4, Z0, Z0
	ADDQ $256, SI
	SUBQ $256, CX
	VBROADCASTI32X4 foldK256<>(SB), Z8

loop256:
	CMPQ CX, $256
	JB   fold4
	VPCLMULQDQ $0x00, Z8, Z0, Z4
	VPCLMULQDQ $0x11, Z8, Z0, Z0
	VPTERNLOGD $0x96, (SI), Z4, Z0
	VPCLMULQDQ $0x00, Z8, Z1, Z5
	VPCLMULQDQ $0x11, Z8, Z1, Z1
	VPTERNLOGD $0x96, 64(SI), Z5, Z1
	VPCLMULQDQ $0x00, Z8, Z2, Z6
	VPCLMULQDQ $0x11, Z8, Z2, Z2
	VPTERNLOGD $0x96, 128(SI), Z6, Z2
	VPCLMULQDQ $0x00, Z8, Z3, Z7
	VPCLMULQDQ $0x11, Z8, Z3, Z3
	VPTERNLOGD $0x96, 192(SI), Z7, Z3
	ADDQ $256, SI
	SUBQ $256, CX
	JMP  loop256

fold4:
	VBROADCASTI32X4 foldK64<>(SB), Z8
	VPCLMULQDQ $0x00, Z8, Z0, Z4
	VPCLMULQDQ $0x11, Z8, Z0, Z0
	VPTERNLOGD $0x96, Z4, Z0, Z1
	VPCLMULQDQ $0x00, Z8, Z1, Z4
	VPCLMULQDQ $0x11, Z8, Z1, Z1
	VPTERNLOGD $0x96, Z4, Z1, Z2
	VPCLMULQDQ $0x00, Z8, Z2, Z4
	VPCLMULQDQ $0x11, Z8, Z2, Z2
	VPTERNLOGD $0x96, Z4, Z2, Z3

loop64:
	CMPQ CX, $64
	JB   done
	VPCLMULQDQ $0x00, Z8, Z3, Z4
	VPCLMULQDQ $0x11, Z8, Z3, Z3
	VPTERNLOGD $0x96, (SI), Z4, Z3
	ADDQ $64, SI
	SUBQ $64, CX
	JMP  loop64

done:
	// The four 16-byte lanes of Z3 folded into the last, X13.
	VEXTRACTI32X4 $3, Z3, X13
	VMOVDQU foldK48<>(SB), X11
	VPCLMULQDQ $0x00, X11, X3, X12
	VPCLMULQDQ $0x11, X11, X3, X10
	VPXOR X12, X13, X13
	VPXOR X10, X13, X13
	VEXTRACTI32X4 $1, Z3, X9
	VMOVDQU foldK32<>(SB), X11
	VPCLMULQDQ $0x00, X11, X9, X12
	VPCLMULQDQ $0x11, X11, X9, X10
	VPXOR X12, X13, X13
	VPXOR X10, X13, X13
	VEXTRACTI32X4 $2, Z3, X9
	VMOVDQU foldK16<>(SB), X11
	VPCLMULQDQ $0x00, X11, X9, X12
	VPCLMULQDQ $0x11, X11, X9, X10
	VPXOR X12, X13, X13
	VPXOR X10, X13, X13

	// Its CRC, then the tail's, with the CRC32 instruction.
	VMOVQ X13, R8
	VPEXTRQ $1, X13, R9
	VZEROUPPER
	XORL AX, AX
	CRC32Q R8, AX
	CRC32Q R9, AX

tail8:
	CMPQ CX, $8
	JB   tail1
	CRC32Q (SI), AX
	ADDQ $8, SI
	SUBQ $8, CX
	JMP  tail8

tail1:
	TESTQ CX, CX
	JZ   end
	CRC32B (SI), AX
	INCQ SI
	DECQ CX
	JMP  tail1

end:
	NOTL AX
	MOVL AX, ret+32(FP)
	RET

// func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL leaf+0(FP), AX
	MOVL sub+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func xgetbv() uint32
TEXT ·xgetbv(SB), NOSPLIT, $0-4
	MOVL $0, CX
	XGETBV
	MOVL AX, ret+0(FP)
	RET
