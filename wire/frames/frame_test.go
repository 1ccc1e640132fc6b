package frames

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/wire/internal/wiretest"
)

func unhex(t testing.TB, s string) []byte { t.Helper(); return wiretest.Unhex(t, s) }

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

// A frame's buffer follows the bytes that arrived, not the size announced:
// a peer that announces 100 MiB and sends a little costs a first chunk.
func TestFrameReaderGrowsWithTheBytes(t *testing.T) {
	cases := []struct {
		name     string
		announce int
		send     int
		maxCap   int
	}{
		{"100 MiB announced, 10 bytes sent", 100 << 20, 10, firstChunk},
		{"100 MiB announced, 1 MiB sent", 100 << 20, 1 << 20, 2 << 20},
		{"1 MiB announced, 300 KiB sent", 1 << 20, 300 << 10, 512 << 10},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stream := binary.BigEndian.AppendUint32(nil, uint32(c.announce))
			stream = append(stream, make([]byte, c.send)...)
			fr := NewFrameReader(bytes.NewReader(stream), 0)
			_, err := fr.Next()
			require.ErrorIs(t, err, io.ErrUnexpectedEOF)
			assert.LessOrEqual(t, cap(fr.buf), c.maxCap)
		})
	}
}

// Frames of every size around the growth steps arrive whole, through a
// reader that hands out one byte at a time too.
func TestFrameReaderGrowthKeepsTheBytes(t *testing.T) {
	for _, size := range []int{0, 1, firstChunk - 1, firstChunk, firstChunk + 1, 3*firstChunk + 7, 1<<20 + 3} {
		frame := make([]byte, size)
		for i := range frame {
			frame[i] = byte(i*7 + i>>8)
		}
		stream := binary.BigEndian.AppendUint32(nil, uint32(size))
		stream = append(stream, frame...)
		stream = append(stream, 0, 0, 0, 1, 0xaa)
		for _, r := range []io.Reader{bytes.NewReader(stream), iotest.HalfReader(bytes.NewReader(stream))} {
			fr := NewFrameReader(r, 0)
			got, err := fr.Next()
			require.NoError(t, err, "size %d", size)
			require.True(t, bytes.Equal(frame, got), "size %d", size)
			got, err = fr.Next()
			require.NoError(t, err)
			assert.Equal(t, []byte{0xaa}, got)
		}
	}
}

// A buffer grown past the retain size is given back at the next frame;
// one within it is reused.
func TestFrameReaderRetain(t *testing.T) {
	big := 2 * DefaultRetainSize
	stream := binary.BigEndian.AppendUint32(nil, uint32(big))
	stream = append(stream, make([]byte, big)...)
	stream = append(stream, 0, 0, 0, 2, 1, 2, 0, 0, 0, 1, 3)
	fr := NewFrameReader(bytes.NewReader(stream), 0)
	_, err := fr.Next()
	require.NoError(t, err)
	require.GreaterOrEqual(t, cap(fr.buf), big)
	_, err = fr.Next()
	require.NoError(t, err)
	assert.Less(t, cap(fr.buf), big, "the large buffer is dropped")
	small := cap(fr.buf)
	_, err = fr.Next()
	require.NoError(t, err)
	assert.Equal(t, small, cap(fr.buf), "a small buffer is reused")

	fr.Release()
	assert.Zero(t, cap(fr.buf))
}

func TestFrameReaderSkip(t *testing.T) {
	body := make([]byte, 100_000)
	copy(body, []byte{0, 0, 0, 42})
	stream := binary.BigEndian.AppendUint32(nil, uint32(len(body)))
	stream = append(stream, body...)
	stream = append(stream, 0, 0, 0, 2, 7, 8, 0, 0, 0, 1)
	fr := NewFrameReader(bytes.NewReader(stream), 0)
	var head [4]byte
	size, n, err := fr.Skip(head[:])
	require.NoError(t, err)
	assert.Equal(t, len(body), size)
	assert.Equal(t, 4, n)
	assert.Equal(t, []byte{0, 0, 0, 42}, head[:])
	assert.Zero(t, cap(fr.buf), "skipping allocates no frame buffer")

	size, n, err = fr.Skip(head[:])
	require.NoError(t, err, "a frame shorter than head")
	assert.Equal(t, 2, size)
	assert.Equal(t, 2, n)
	assert.Equal(t, []byte{7, 8}, head[:2])

	_, _, err = fr.Skip(head[:])
	require.ErrorIs(t, err, io.ErrUnexpectedEOF, "a frame cut short")
	_, _, err = fr.Skip(head[:])
	require.ErrorIs(t, err, io.EOF)
}
