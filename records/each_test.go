package records

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// eachBlob is two batches, gzip then uncompressed, and a partial third.
func eachBlob(t *testing.T) []byte {
	bb := NewBatchBuilder()
	bb.Compression = CompressionGzip
	bb.Append(1, []byte("k0"), []byte("v0"))
	bb.Append(2, nil, []byte("v1"), Header{Key: []byte("h"), Value: []byte("x")})
	blob, err := bb.AppendTo(nil)
	require.NoError(t, err)
	bb.Reset()
	bb.BaseOffset = 2
	bb.Append(3, []byte("k2"), nil)
	blob, err = bb.AppendTo(blob)
	require.NoError(t, err)
	bb.Reset()
	bb.BaseOffset = 3
	bb.Append(4, nil, []byte("cut"))
	third, err := bb.AppendTo(nil)
	require.NoError(t, err)
	return append(blob, third[:len(third)-5]...)
}

func TestEach(t *testing.T) {
	blob := eachBlob(t)
	for _, d := range []*Decompressor{nil, new(Decompressor)} {
		var got []string
		err := Each(blob, d, func(r *Record) error {
			got = append(got, fmt.Sprintf("%d %q=%q headers=%d", r.Offset, r.Key, r.Value, len(r.Headers)))
			return nil
		})
		require.NoError(t, err)
		assert.Equal(t, []string{`0 "k0"="v0" headers=0`, `1 ""="v1" headers=1`, `2 "k2"="" headers=0`}, got,
			"every whole batch in order, the partial one left out")
	}

	stop := errors.New("stop")
	n := 0
	err := Each(blob, nil, func(*Record) error { n++; return stop })
	assert.Same(t, stop, err, "fn's error is returned as it is")
	assert.Equal(t, 1, n)

	corrupt := append([]byte(nil), blob...)
	corrupt[len(corrupt)/3] ^= 0xff // inside the first batch: its CRC fails
	err = Each(corrupt, nil, func(*Record) error { return nil })
	var re *Error
	require.ErrorAs(t, err, &re)
	require.ErrorIs(t, err, ErrChecksum)
}
