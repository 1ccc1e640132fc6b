package wire

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	require.NoError(t, err)
	return b
}

func TestFrameReaderReadsFrames(t *testing.T) {
	stream := unhex(t, "00000003"+"010203"+"00000000"+"00000001"+"ff")
	fr := NewFrameReader(bytes.NewReader(stream), 0)
	require.Equal(t, DefaultMaxFrameSize, fr.Max())
	for _, want := range []string{"010203", "", "ff"} {
		got, err := fr.Next()
		require.NoError(t, err)
		assert.Equal(t, want, hex.EncodeToString(got))
	}
	_, err := fr.Next()
	assert.Same(t, io.EOF, err, "a stream ending between frames ends cleanly")
}

func TestFrameReaderRefusesSizes(t *testing.T) {
	cases := []struct {
		name   string
		stream string
		max    int
		size   int32
	}{
		{"negative", "ffffffff", 0, -1},
		{"most negative", "80000000", 0, -1 << 31},
		{"one above the limit", "00000011", 16, 17},
		{"above the default limit", "06400001", 0, 100*1024*1024 + 1},
		{"largest int32", "7fffffff", 0, 1<<31 - 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fr := NewFrameReader(bytes.NewReader(unhex(t, c.stream)), c.max)
			_, err := fr.Next()
			require.ErrorIs(t, err, ErrFrameSize)
			var fe *FrameSizeError
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, c.size, fe.Size)
			assert.Equal(t, fr.Max(), fe.Max)
			assert.Zero(t, cap(fr.buf), "nothing is allocated for a refused frame")
		})
	}
}

func TestFrameReaderAcceptsTheLimit(t *testing.T) {
	fr := NewFrameReader(bytes.NewReader(unhex(t, "00000004"+"01020304")), 4)
	got, err := fr.Next()
	require.NoError(t, err)
	assert.Equal(t, "01020304", hex.EncodeToString(got))
}

func TestFrameReaderShortReads(t *testing.T) {
	cases := []struct {
		name, stream, detail string
	}{
		{"inside the size", "0000", "reading the size: got 2 of 4 bytes"},
		{"empty body", "00000002", "reading a 2-byte frame: got 0 bytes"},
		{"inside the body", "00000003" + "0102", "reading a 3-byte frame: got 2 bytes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fr := NewFrameReader(bytes.NewReader(unhex(t, c.stream)), 0)
			_, err := fr.Next()
			require.ErrorIs(t, err, io.ErrUnexpectedEOF)
			assert.Contains(t, err.Error(), c.detail)
		})
	}
}

// A reader handing out one byte at a time still gives whole frames.
func TestFrameReaderOneByteReads(t *testing.T) {
	stream := unhex(t, "00000002"+"abcd"+"00000001"+"ef")
	fr := NewFrameReader(iotest.OneByteReader(bytes.NewReader(stream)), 0)
	for _, want := range []string{"abcd", "ef"} {
		got, err := fr.Next()
		require.NoError(t, err)
		assert.Equal(t, want, hex.EncodeToString(got))
	}
}

func TestFrameReaderPassesReadErrors(t *testing.T) {
	boom := errors.New("boom")
	fr := NewFrameReader(iotest.ErrReader(boom), 0)
	_, err := fr.Next()
	require.ErrorIs(t, err, boom)
}

// loopReader replays the same bytes forever.
type loopReader struct {
	data []byte
	off  int
}

func (l *loopReader) Read(p []byte) (int, error) {
	n := copy(p, l.data[l.off:])
	l.off = (l.off + n) % len(l.data)
	return n, nil
}

func TestFrameReaderReusesItsBuffer(t *testing.T) {
	frame := append(unhex(t, "00000100"), make([]byte, 256)...)
	fr := NewFrameReader(&loopReader{data: frame}, 0)
	_, err := fr.Next()
	require.NoError(t, err)
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := fr.Next(); err != nil {
			t.Fatal(err)
		}
	})
	assert.Zero(t, allocs)
}

func TestAppendFrame(t *testing.T) {
	got, err := AppendFrame(unhex(t, "aa"), unhex(t, "0102"))
	require.NoError(t, err)
	assert.Equal(t, "aa"+"00000002"+"0102", hex.EncodeToString(got))

	b, start := BeginFrame(nil)
	b = append(b, 1, 2, 3)
	require.NoError(t, EndFrame(b, start))
	assert.Equal(t, "00000003"+"010203", hex.EncodeToString(b))

	require.Error(t, EndFrame([]byte{0, 0}, 0), "no room for the size")
}
