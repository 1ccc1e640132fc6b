package records

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// twoBatches builds two uncompressed batches (offsets 10-11 and 12) and
// returns the blob and where the second starts.
func twoBatches(t *testing.T) ([]byte, int) {
	bb := NewBatchBuilder()
	bb.BaseOffset = 10
	bb.Append(1000, []byte("key"), []byte("value"), Header{Key: []byte("h"), Value: []byte("v")})
	bb.Append(1001, nil, []byte("second"))
	blob, err := bb.AppendTo(nil)
	require.NoError(t, err)
	second := len(blob)
	bb.Reset()
	bb.BaseOffset = 12
	bb.Append(1002, []byte("k"), nil)
	blob, err = bb.AppendTo(blob)
	require.NoError(t, err)
	return blob, second
}

// fixCRC recomputes the CRC of the v2 batch at blob[at:], after a test
// corrupted something the CRC covers.
func fixCRC(blob []byte, at int) {
	n := int(binary.BigEndian.Uint32(blob[at+v2LengthPos:])) + logOverhead
	binary.BigEndian.PutUint32(blob[at+v2CRCPos:], CRC32C(blob[at+v2AttributesPos:at+n]))
}

// readErr reads blob to the end, records included, and returns the first
// error.
func readErr(blob []byte, complete bool) error {
	r := Reader{Complete: complete}
	r.Reset(blob)
	var rr RecordReader
	var rec Record
	var d Decompressor
	for r.Next() {
		if err := rr.Reset(r.Batch(), &d); err != nil {
			return err
		}
		for rr.Next(&rec) {
		}
		if rr.Err() != nil {
			return rr.Err()
		}
	}
	return r.Err()
}

func TestReadErrors(t *testing.T) {
	firstRecord := v2HeaderSize // position of the first record in batch 1
	tests := []struct {
		name    string
		corrupt func(b []byte, second int) []byte
		err     error
		msg     string
	}{
		{"crc mismatch", func(b []byte, s int) []byte { b[s+v2HeaderSize+3] ^= 1; return b },
			ErrChecksum, "batch at byte 93 (base offset 12): crc: checksum mismatch: stored 0x"},
		{"negative batch length", func(b []byte, s int) []byte {
			binary.BigEndian.PutUint32(b[s+v2LengthPos:], 0xFFFFFFF0)
			return b
		}, ErrInvalidLength, "batch at byte 93 (base offset 12): length: invalid length: -16 is less than the minimum record overhead 14"},
		{"batch length under the v2 header", func(b []byte, s int) []byte {
			binary.BigEndian.PutUint32(b[s+v2LengthPos:], 30)
			return b
		}, ErrInvalidLength, "batch at byte 93 (base offset 12): length: invalid length: 30 is less than the v2 batch header's 49"},
		{"unknown magic", func(b []byte, s int) []byte { b[s+v2MagicPos] = 3; return b },
			ErrMagic, "batch at byte 93 (base offset 12): magic: unsupported magic: 3"},
		{"unknown codec", func(b []byte, s int) []byte { b[s+v2AttributesPos+1] = 6; fixCRC(b, s); return b },
			ErrCompression, "batch at byte 93 (base offset 12): attributes: unsupported compression: codec 6"},
		{"negative record count", func(b []byte, s int) []byte {
			binary.BigEndian.PutUint32(b[v2CountPos:], 0xFFFFFFFF)
			fixCRC(b, 0)
			return b
		}, ErrInvalidLength, "batch at byte 0 (base offset 10): record count: invalid length: -1"},
		{"record count above the records", func(b []byte, s int) []byte {
			binary.BigEndian.PutUint32(b[v2CountPos:], 3)
			fixCRC(b, 0)
			return b
		}, ErrRecordCount, "batch at byte 0 (base offset 10), record 2 at byte 32 of the records: records: record count disagrees with the records: the records end after 2 of the batch's 3"},
		{"record count below the records", func(b []byte, s int) []byte {
			binary.BigEndian.PutUint32(b[v2CountPos:], 1)
			fixCRC(b, 0)
			return b
		}, ErrRecordCount, "record 1 at byte 19 of the records: records: record count disagrees with the records: 13 bytes after the batch's 1 records"},
		{"record length past the batch", func(b []byte, s int) []byte {
			b[firstRecord] = 80 // zigzag 40
			fixCRC(b, 0)
			return b
		}, ErrTruncated, "batch at byte 0 (base offset 10), record 0 at byte 0 of the records: length: truncated: 40 past the end (31 bytes left)"},
		{"negative record length", func(b []byte, s int) []byte { b[firstRecord] = 3; fixCRC(b, 0); return b },
			ErrInvalidLength, "record 0 at byte 0 of the records: length: invalid length: -2"},
		{"key length past the record", func(b []byte, s int) []byte { b[firstRecord+4] = 100; fixCRC(b, 0); return b },
			ErrTruncated, "record 0 at byte 0 of the records: key: truncated: length 50 past the end of the record (14 bytes left)"},
		{"key length below -1", func(b []byte, s int) []byte { b[firstRecord+4] = 3; fixCRC(b, 0); return b },
			ErrInvalidLength, "record 0 at byte 0 of the records: key: invalid length: length -2"},
		{"malformed varint", func(b []byte, s int) []byte {
			copy(b[firstRecord+2:], []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
			fixCRC(b, 0)
			return b
		}, ErrMalformedVarint, "record 0 at byte 0 of the records: timestamp delta: malformed varint"},
		{"null header key", func(b []byte, s int) []byte { b[firstRecord+15] = 1; fixCRC(b, 0); return b },
			ErrInvalidLength, "record 0 at byte 0 of the records: header key: invalid length: null"},
		{"header count above the bytes", func(b []byte, s int) []byte { b[firstRecord+14] = 40; fixCRC(b, 0); return b },
			ErrInvalidLength, "record 0 at byte 0 of the records: header count: invalid length: 20 with 4 bytes left"},
		{"partial tail when complete", func(b []byte, s int) []byte { return b[:len(b)-1] },
			ErrTruncated, "batch at byte 93 (base offset 12): length: truncated: length 57 past the end (56 bytes left)"},
		{"partial header when complete", func(b []byte, s int) []byte { return b[:s+16] },
			ErrTruncated, "batch at byte 93 (base offset 12): length: truncated: 16 bytes, fewer than the 17 up to the magic byte"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			blob, second := twoBatches(t)
			require.NoError(t, readErr(blob, true))
			blob = tt.corrupt(blob, second)
			err := readErr(blob, true)
			require.Error(t, err)
			assert.True(t, errors.Is(err, tt.err), "%v is not %v", err, tt.err)
			var e *Error
			require.True(t, errors.As(err, &e))
			assert.Contains(t, err.Error(), tt.msg)
		})
	}
}

// TestPartialTail: a cut batch ends Reader without an error, at every cut.
func TestPartialTail(t *testing.T) {
	blob, second := twoBatches(t)
	for cut := second + 1; cut < len(blob); cut++ {
		var r Reader
		r.Reset(blob[:cut])
		n := 0
		for r.Next() {
			n++
		}
		require.NoError(t, r.Err(), "cut at %d", cut)
		require.Equal(t, 1, n, "cut at %d", cut)
		require.Equal(t, blob[second:cut], r.Tail(), "cut at %d", cut)
	}
}

func TestReadBatchTruncated(t *testing.T) {
	blob, second := twoBatches(t)
	var b Batch
	require.NoError(t, ReadBatch(&b, blob, 0))
	assert.Equal(t, int64(11), b.LastOffset())
	err := ReadBatch(&b, blob[second:len(blob)-2], second)
	assert.ErrorIs(t, err, ErrTruncated)
	assert.EqualError(t, err, "records: batch at byte 93 (base offset 12): length: truncated: length 57 past the end (55 bytes left)")
}

func TestCompressedNeedsDecompressor(t *testing.T) {
	bb := NewBatchBuilder()
	bb.Compression = CompressionSnappy
	bb.Append(0, nil, []byte("x"))
	blob, err := bb.AppendTo(nil)
	require.NoError(t, err)
	var b Batch
	require.NoError(t, ReadBatch(&b, blob, 0))
	var rr RecordReader
	err = rr.Reset(&b, nil)
	assert.ErrorIs(t, err, ErrCompression)
	assert.EqualError(t, err, "records: batch at byte 0 (base offset 0): records: unsupported compression: snappy batch read without a Decompressor")
}
