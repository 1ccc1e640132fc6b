package records

import "strconv"

// DefaultLimit is the decompressed size a Decompressor allows one batch by
// default: Kafka's largest batches are a few MiB, so a batch that inflates
// past this is a bomb or a mistake.
const DefaultLimit = 64 << 20

// Codec compresses and decompresses the records of one compression type.
// The package's GzipCodec, SnappyCodec, LZ4Codec and ZstdCodec are the
// defaults; give a Compressor or Decompressor your own to change a level or
// the implementation. A Codec keeps its encoder and decoder state between
// calls and is not safe for concurrent use: give each goroutine its own.
type Codec interface {
	// AppendCompressed appends src compressed in the framing the record
	// format of magic uses (Java's).
	AppendCompressed(dst, src []byte, magic int8) ([]byte, error)
	// AppendDecompressed appends the decompressed src to dst. It fails
	// with an error wrapping ErrTooLarge, having appended no more than
	// limit bytes, when the output would pass limit bytes; with an error
	// wrapping ErrCorrupt when src is not valid.
	AppendDecompressed(dst, src []byte, magic int8, limit int) ([]byte, error)
}

// defaultCodec returns a new instance of the package's codec for c.
func defaultCodec(c Compression) Codec {
	switch c {
	case CompressionGzip:
		return &GzipCodec{}
	case CompressionSnappy:
		return &SnappyCodec{}
	case CompressionLZ4:
		return &LZ4Codec{}
	case CompressionZstd:
		return &ZstdCodec{}
	}
	return nil
}

// codecTable is the codecs of a Compressor or Decompressor, created on
// first use of each compression type.
type codecTable [numCompressions]Codec

func (t *codecTable) get(c Compression, magic int8) (Codec, error) {
	if c <= CompressionNone || c >= numCompressions {
		return nil, codecError(ErrCompression, "codec "+strconv.Itoa(int(c)))
	}
	if c == CompressionZstd && magic < MagicV2 {
		return nil, codecError(ErrCompression, "zstd in magic "+strconv.Itoa(int(magic)))
	}
	if t[c] == nil {
		t[c] = defaultCodec(c)
	}
	return t[c], nil
}

// codecError is a codec's error before the caller says where it happened.
func codecError(err error, detail string) error {
	return &Error{Pos: -1, BaseOffset: -1, Record: -1, RecordPos: -1, Err: err, Detail: detail}
}

// Decompressor decompresses batches into a buffer it keeps: hold one per
// goroutine and reuse it, and decompressing allocates nothing once the
// buffer has grown to the largest batch. The zero value is ready to use with
// the package's codecs and DefaultLimit.
type Decompressor struct {
	// Limit is the most bytes one batch may decompress to; 0 means
	// DefaultLimit.
	Limit int

	codecs codecTable
	buf    []byte
}

// SetCodec makes the Decompressor use codec for c.
func (d *Decompressor) SetCodec(c Compression, codec Codec) { d.codecs[c] = codec }

// Decompress returns src, compressed with c in the framing of magic,
// decompressed into the Decompressor's buffer: valid until its next call.
func (d *Decompressor) Decompress(c Compression, magic int8, src []byte) ([]byte, error) {
	codec, err := d.codecs.get(c, magic)
	if err != nil {
		return nil, err
	}
	limit := d.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	out, err := codec.AppendDecompressed(d.buf[:0], src, magic, limit)
	if cap(out) > cap(d.buf) {
		d.buf = out[:0]
	}
	if err != nil {
		return nil, err
	}
	if len(out) > limit { // a Codec of the caller's that ignores the limit
		return nil, codecError(ErrTooLarge, strconv.Itoa(len(out))+" bytes, over the limit of "+strconv.Itoa(limit))
	}
	return out, nil
}

// Compressor compresses batches. Hold one per goroutine and reuse it: its
// codecs keep their encoders. The zero value is ready to use with the
// package's codecs at their default levels.
type Compressor struct {
	codecs codecTable
}

// SetCodec makes the Compressor use codec for c (for example
// &GzipCodec{Level: 9}).
func (z *Compressor) SetCodec(c Compression, codec Codec) { z.codecs[c] = codec }

// AppendCompressed appends src compressed with c in the framing of magic.
func (z *Compressor) AppendCompressed(dst []byte, c Compression, magic int8, src []byte) ([]byte, error) {
	codec, err := z.codecs.get(c, magic)
	if err != nil {
		return dst, err
	}
	return codec.AppendCompressed(dst, src, magic)
}

// grow returns dst with room for n more bytes.
func grow(dst []byte, n int) []byte {
	return growCapped(dst, n, int(^uint(0)>>1))
}

// growCapped returns dst with room for n more bytes, doubling its capacity
// but never past maxCap (when len(dst)+n fits it): decompression grows its
// output no further than its limit.
func growCapped(dst []byte, n, maxCap int) []byte {
	if cap(dst)-len(dst) >= n {
		return dst
	}
	c := max(min(2*cap(dst)+n, maxCap), len(dst)+n)
	out := make([]byte, len(dst), c)
	copy(out, dst)
	return out
}
