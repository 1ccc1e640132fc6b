package records

import (
	"encoding/binary"
	"strconv"

	"github.com/pierrec/lz4/v4"
)

// LZ4 frame format constants (the LZ4 frame format description, and
// KIP-57 for Kafka's use of it).
const (
	lz4Magic          = 0x184D2204
	lz4SkippableMask  = 0xFFFFFFF0
	lz4SkippableMagic = 0x184D2A50
	lz4Uncompressed   = 1 << 31 // block size bit: stored as is
	lz4FlagVersion    = 0x40    // FLG bits 7-6 must be 01
	lz4FlagIndep      = 0x20
	lz4FlagBlockSum   = 0x10
	lz4FlagSize       = 0x08
	lz4FlagContentSum = 0x04
	lz4FlagDictID     = 0x01
	lz4WriteBlock     = 64 << 10 // Java's KafkaLZ4BlockOutputStream default
	lz4WriteFLG       = lz4FlagVersion | lz4FlagIndep
	lz4WriteBD        = 4 << 4 // 64 KiB blocks
)

// LZ4Codec is LZ4 frames (KIP-57) over pierrec/lz4's block compressor,
// framed here as Kafka's Java KafkaLZ4BlockOutputStream/InputStream do: it
// writes 64 KiB independent blocks with no checksums but the header's, and
// reads any frame of the format (dependent blocks, checksums, content size
// and dictionary id fields are accepted; checksums other than the
// header's are not verified, since the batch CRC covers the bytes).
//
// Magic 0 has Kafka's old mistake (KAFKA-3160): its header checksum was
// taken over the frame's magic number too. Writing for magic 0 repeats the
// mistake, as Java does for old readers; reading magic 0 skips the header
// checksum, as Java does.
type LZ4Codec struct {
	// Level 0 uses the fast compressor; higher levels use the HC
	// compressor with that search depth (pierrec/lz4's CompressionLevel).
	Level int

	fast lz4.Compressor
	hc   lz4.CompressorHC
}

// AppendCompressed appends src as one LZ4 frame.
func (c *LZ4Codec) AppendCompressed(dst, src []byte, magic int8) ([]byte, error) {
	at := len(dst)
	dst = append(dst, 0x04, 0x22, 0x4D, 0x18, lz4WriteFLG, lz4WriteBD, 0)
	if magic == MagicV0 {
		dst[at+6] = byte(xxh32(dst[at:at+6]) >> 8)
	} else {
		dst[at+6] = byte(xxh32(dst[at+4:at+6]) >> 8)
	}
	for len(src) > 0 {
		block := src[:min(len(src), lz4WriteBlock)]
		src = src[len(block):]
		dst = grow(dst, 4+lz4.CompressBlockBound(len(block)))
		out := dst[len(dst)+4 : cap(dst)]
		var n int
		var err error
		if c.Level > 0 {
			c.hc.Level = lz4.CompressionLevel(c.Level)
			n, err = c.hc.CompressBlock(block, out)
		} else {
			n, err = c.fast.CompressBlock(block, out)
		}
		if err != nil {
			return dst, codecError(ErrCompression, "lz4: "+err.Error())
		}
		size := uint32(n)
		if n == 0 || n >= len(block) { // incompressible: store it
			n = copy(out, block)
			size = uint32(n) | lz4Uncompressed
		}
		binary.LittleEndian.PutUint32(dst[len(dst):len(dst)+4], size)
		dst = dst[:len(dst)+4+n]
	}
	return binary.LittleEndian.AppendUint32(dst, 0), nil // end mark
}

// AppendDecompressed appends the content of the LZ4 frames of src.
func (c *LZ4Codec) AppendDecompressed(dst, src []byte, magic int8, limit int) ([]byte, error) {
	start := len(dst)
	if len(src) == 0 {
		return dst, lz4Corrupt("no frame")
	}
	for len(src) > 0 {
		if len(src) < 4 {
			return dst, lz4Corrupt("frame magic cut short")
		}
		switch m := binary.LittleEndian.Uint32(src); {
		case m == lz4Magic:
		case m&lz4SkippableMask == lz4SkippableMagic:
			if len(src) < 8 || uint64(binary.LittleEndian.Uint32(src[4:])) > uint64(len(src)-8) {
				return dst, lz4Corrupt("skippable frame past the end")
			}
			src = src[8+binary.LittleEndian.Uint32(src[4:]):]
			continue
		default:
			return dst, lz4Corrupt("frame magic 0x" + strconv.FormatUint(uint64(m), 16))
		}
		var err error
		dst, src, err = lz4Frame(dst, src, magic, limit-(len(dst)-start))
		if err != nil {
			return dst, err
		}
	}
	return dst, nil
}

// lz4Frame appends the content of the frame that starts src and returns
// the bytes after it.
func lz4Frame(dst, src []byte, magic int8, limit int) ([]byte, []byte, error) {
	if len(src) < 7 {
		return dst, nil, lz4Corrupt("frame header cut short")
	}
	flg, bd := src[4], src[5]
	if flg&0xC0 != lz4FlagVersion {
		return dst, nil, lz4Corrupt("frame version " + strconv.Itoa(int(flg>>6)))
	}
	if flg&0x02 != 0 || bd&0x8F != 0 {
		return dst, nil, lz4Corrupt("reserved frame descriptor bits set")
	}
	blockMax := 1 << (8 + 2*int(bd>>4))
	if bd>>4 < 4 {
		return dst, nil, lz4Corrupt("block size code " + strconv.Itoa(int(bd>>4)))
	}
	hc := 6
	if flg&lz4FlagSize != 0 {
		hc += 8
	}
	if flg&lz4FlagDictID != 0 {
		hc += 4
	}
	if len(src) <= hc {
		return dst, nil, lz4Corrupt("frame header cut short")
	}
	if magic != MagicV0 && byte(xxh32(src[4:hc])>>8) != src[hc] {
		return dst, nil, lz4Corrupt("header checksum")
	}
	src = src[hc+1:]
	start := len(dst)
	for {
		if len(src) < 4 {
			return dst, nil, lz4Corrupt("block size cut short")
		}
		size := binary.LittleEndian.Uint32(src)
		src = src[4:]
		if size == 0 {
			break
		}
		stored := size&lz4Uncompressed != 0
		size &^= lz4Uncompressed
		if int(size) > blockMax || int(size) > len(src) {
			return dst, nil, lz4Corrupt("block of " + strconv.FormatUint(uint64(size), 10) + " bytes past the end or the block size")
		}
		block := src[:size]
		src = src[size:]
		if flg&lz4FlagBlockSum != 0 {
			if len(src) < 4 {
				return dst, nil, lz4Corrupt("block checksum cut short")
			}
			src = src[4:]
		}
		room := limit - (len(dst) - start)
		if stored {
			if len(block) > room {
				return dst, nil, tooLarge(limit)
			}
			dst = append(dst, block...)
			continue
		}
		capped := room < blockMax
		out := min(room, blockMax)
		dst = growCapped(dst, out, start+limit)
		var n int
		var err error
		if flg&lz4FlagIndep != 0 {
			n, err = lz4.UncompressBlock(block, dst[len(dst):len(dst)+out])
		} else {
			dict := dst[max(start, len(dst)-64<<10):]
			n, err = lz4.UncompressBlockWithDict(block, dst[len(dst):len(dst)+out], dict)
		}
		if err != nil {
			if capped {
				return dst, nil, codecError(ErrTooLarge, "an lz4 block does not fit the "+strconv.Itoa(room)+
					" bytes left of the limit of "+strconv.Itoa(limit)+" (or is corrupt)")
			}
			return dst, nil, lz4Corrupt(err.Error())
		}
		dst = dst[:len(dst)+n]
	}
	if flg&lz4FlagContentSum != 0 {
		if len(src) < 4 {
			return dst, nil, lz4Corrupt("content checksum cut short")
		}
		src = src[4:]
	}
	return dst, src, nil
}

func lz4Corrupt(detail string) error { return codecError(ErrCorrupt, "lz4: "+detail) }
