package records

import (
	"bytes"
	"encoding/binary"
	"strconv"

	"github.com/klauspost/compress/s2"
)

// xerialHeader starts the framing snappy-java writes (and Kafka's Java
// clients with it): a magic, then version 1 and compatible version 1.
var xerialHeader = [16]byte{0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0, 0, 0, 0, 1, 0, 0, 0, 1}

// xerialBlock is snappy-java's default block size, which Java's Kafka
// clients use.
const xerialBlock = 32 << 10

// SnappyCodec is snappy through klauspost/compress/s2. It writes the
// xerial framing Java writes (a 16-byte header, then chunks of up to 32 KiB
// each preceded by its compressed length), and reads both that framing and
// a raw snappy block, which other clients write.
type SnappyCodec struct {
	// Raw writes one raw snappy block instead of the xerial framing.
	Raw bool
	// Better uses s2's slower, better-compressing snappy encoder.
	Better bool
}

func (s *SnappyCodec) encode(dst, src []byte) []byte {
	dst = grow(dst, s2.MaxEncodedLen(len(src)))
	var out []byte
	if s.Better {
		out = s2.EncodeSnappyBetter(dst[len(dst):cap(dst)], src)
	} else {
		out = s2.EncodeSnappy(dst[len(dst):cap(dst)], src)
	}
	return dst[:len(dst)+len(out)]
}

// AppendCompressed appends src in xerial framing, or as one raw block.
func (s *SnappyCodec) AppendCompressed(dst, src []byte, _ int8) ([]byte, error) {
	if s.Raw {
		return s.encode(dst, src), nil
	}
	dst = append(dst, xerialHeader[:]...)
	for len(src) > 0 {
		chunk := src[:min(len(src), xerialBlock)]
		src = src[len(chunk):]
		at := len(dst)
		dst = append(dst, 0, 0, 0, 0)
		dst = s.encode(dst, chunk)
		binary.BigEndian.PutUint32(dst[at:], uint32(len(dst)-at-4))
	}
	return dst, nil
}

// AppendDecompressed appends the decompressed src, xerial-framed or raw.
func (s *SnappyCodec) AppendDecompressed(dst, src []byte, _ int8, limit int) ([]byte, error) {
	start := len(dst)
	if len(src) < len(xerialHeader) || !bytes.Equal(src[:8], xerialHeader[:8]) {
		return snappyBlock(dst, src, limit)
	}
	src = src[len(xerialHeader):]
	for len(src) > 0 {
		if len(src) < 4 {
			return dst, codecError(ErrCorrupt, "snappy: xerial chunk length cut short")
		}
		n := binary.BigEndian.Uint32(src)
		if uint64(n) > uint64(len(src)-4) {
			return dst, codecError(ErrCorrupt, "snappy: xerial chunk of "+strconv.FormatUint(uint64(n), 10)+
				" bytes past the end ("+strconv.Itoa(len(src)-4)+" left)")
		}
		var err error
		if dst, err = snappyBlock(dst, src[4:4+n], limit-(len(dst)-start)); err != nil {
			return dst, err
		}
		src = src[4+n:]
	}
	return dst, nil
}

// snappyBlock appends one raw snappy block, refusing before any allocation
// one whose declared length passes limit.
func snappyBlock(dst, block []byte, limit int) ([]byte, error) {
	start := len(dst)
	n, err := s2.DecodedLen(block)
	if err != nil {
		return dst, codecError(ErrCorrupt, "snappy: "+err.Error())
	}
	if n > limit {
		return dst, codecError(ErrTooLarge, "a snappy block of "+strconv.Itoa(n)+" bytes, over the remaining "+strconv.Itoa(limit))
	}
	dst = growCapped(dst, n, start+limit)
	out, err := s2.Decode(dst[len(dst):len(dst)+n], block)
	if err != nil {
		return dst, codecError(ErrCorrupt, "snappy: "+err.Error())
	}
	return dst[:len(dst)+len(out)], nil
}
