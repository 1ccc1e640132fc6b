package records

import (
	"encoding/binary"
	"math/bits"
)

// xxh32 is the 32-bit xxHash of b with seed 0, which an LZ4 frame's header
// checksum is taken from (the LZ4 frame format, section "Header Checksum").
// Only frame descriptors (at most 15 bytes) are hashed, so it takes the
// short-input path of the algorithm and the 16-byte stripe loop for the rest.
func xxh32(b []byte) uint32 {
	// variables, not constants: the algorithm relies on uint32 wrap-around
	p1, p2, p3, p4, p5 := uint32(2654435761), uint32(2246822519), uint32(3266489917), uint32(668265263), uint32(374761393)
	n := len(b)
	var h uint32
	if n >= 16 {
		v1, v2, v3, v4 := p1+p2, p2, uint32(0), -p1
		for len(b) >= 16 {
			v1 = bits.RotateLeft32(v1+binary.LittleEndian.Uint32(b)*p2, 13) * p1
			v2 = bits.RotateLeft32(v2+binary.LittleEndian.Uint32(b[4:])*p2, 13) * p1
			v3 = bits.RotateLeft32(v3+binary.LittleEndian.Uint32(b[8:])*p2, 13) * p1
			v4 = bits.RotateLeft32(v4+binary.LittleEndian.Uint32(b[12:])*p2, 13) * p1
			b = b[16:]
		}
		h = bits.RotateLeft32(v1, 1) + bits.RotateLeft32(v2, 7) + bits.RotateLeft32(v3, 12) + bits.RotateLeft32(v4, 18)
	} else {
		h = p5
	}
	h += uint32(n)
	for len(b) >= 4 {
		h = bits.RotateLeft32(h+binary.LittleEndian.Uint32(b)*p3, 17) * p4
		b = b[4:]
	}
	for _, c := range b {
		h = bits.RotateLeft32(h+uint32(c)*p5, 11) * p1
	}
	h ^= h >> 15
	h *= p2
	h ^= h >> 13
	h *= p3
	h ^= h >> 16
	return h
}
