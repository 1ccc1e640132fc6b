package records

import (
	"errors"
	"strconv"

	"github.com/klauspost/compress/zstd"
)

// ZstdCodec is Zstandard through klauspost/compress/zstd (magic 2 only).
// Its encoder and decoder are created on first use and kept; the decoder
// is recreated only when the limit it was made for changes.
type ZstdCodec struct {
	// Level is a zstd level as Kafka configures it (1 to 22; 0 means 3,
	// Java's default), mapped to klauspost's nearest encoder level.
	Level int

	enc      *zstd.Encoder
	dec      *zstd.Decoder
	decLimit int
}

// AppendCompressed appends src as one zstd frame.
func (z *ZstdCodec) AppendCompressed(dst, src []byte, _ int8) ([]byte, error) {
	if z.enc == nil {
		level := z.Level
		if level == 0 {
			level = 3
		}
		enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1),
			zstd.WithEncoderLevel(zstd.EncoderLevelFromZstd(level)))
		if err != nil {
			return dst, codecError(ErrCompression, "zstd: "+err.Error())
		}
		z.enc = enc
	}
	return z.enc.EncodeAll(src, dst), nil
}

// AppendDecompressed appends the content of the zstd frames of src.
func (z *ZstdCodec) AppendDecompressed(dst, src []byte, _ int8, limit int) ([]byte, error) {
	if z.dec == nil || z.decLimit != limit {
		if z.dec != nil {
			z.dec.Close()
		}
		dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1),
			zstd.WithDecoderMaxMemory(uint64(limit)),
			zstd.WithDecoderMaxWindow(uint64(max(limit, zstd.MinWindowSize))))
		if err != nil {
			return dst, codecError(ErrCompression, "zstd: "+err.Error())
		}
		z.dec, z.decLimit = dec, limit
	}
	out, err := z.dec.DecodeAll(src, dst)
	switch {
	case errors.Is(err, zstd.ErrDecoderSizeExceeded), errors.Is(err, zstd.ErrWindowSizeExceeded):
		return dst, tooLarge(limit)
	case err != nil:
		return dst, codecError(ErrCorrupt, "zstd: "+err.Error())
	case len(out)-len(dst) > limit:
		return dst, codecError(ErrTooLarge, strconv.Itoa(len(out)-len(dst))+" bytes, over the limit of "+strconv.Itoa(limit))
	}
	return out, nil
}
