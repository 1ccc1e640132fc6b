package records

import "hash/crc32"

// castagnoli is the CRC32C table of v2 batches; hash/crc32 uses the CPU's
// CRC32 instructions for it where they exist.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// foldMin is the size from which CRC32C folds the bytes with carry-less
// multiplication (crc_amd64.s) where the CPU has it: four times
// hash/crc32's speed on a batch of a few KiB, and faster from 256 bytes.
const foldMin = 256

// CRC32C is the checksum a v2 batch stores: CRC-32C (Castagnoli) of its
// bytes from the attributes to the end.
func CRC32C(b []byte) uint32 {
	if hasFold && len(b) >= foldMin {
		return castagnoliFold(0, b)
	}
	return crc32.Checksum(b, castagnoli)
}

// CRC32IEEE is the checksum a legacy message stores: CRC-32 (IEEE) of its
// bytes from the magic byte to the end.
func CRC32IEEE(b []byte) uint32 { return crc32.ChecksumIEEE(b) }
