//go:build !amd64 || purego

package records

// hasFold is false where crc_amd64.s is not built: CRC32C is hash/crc32's.
const hasFold = false

func castagnoliFold(crc uint32, p []byte) uint32 {
	panic("records: castagnoliFold without its assembly")
}
