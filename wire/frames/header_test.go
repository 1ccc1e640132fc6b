package frames

import (
	"bufio"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/internal/corpus"
	"github.com/kafkagen/kafkagen/runtime"
)

// goldenHeaderRow is a header row of Kafka's java-golden.tsv.
type goldenHeaderRow struct {
	desc    string
	version int16
	hex     string // "" for an error row
	err     string
}

func goldenHeaderRows(t *testing.T) []goldenHeaderRow {
	path := filepath.Join(corpus.VectorDir(), "java-golden.tsv")
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		t.Skipf("Java vectors not found at %s (set KAFKA_VECTORS_DIR)", path)
	}
	require.NoError(t, err)
	defer f.Close()
	var rows []goldenHeaderRow
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 4 || !(strings.HasPrefix(cols[0], "RequestHeader ") || strings.HasPrefix(cols[0], "ResponseHeader ")) {
			continue
		}
		v, err := strconv.Atoi(cols[1])
		require.NoError(t, err, "version column of %q", cols[0])
		row := goldenHeaderRow{desc: cols[0], version: int16(v)}
		if strings.HasPrefix(cols[3], "ERROR ") {
			row.err = cols[3]
		} else {
			row.hex = cols[3]
		}
		rows = append(rows, row)
	}
	require.NoError(t, sc.Err())
	require.Len(t, rows, 9, "the header rows V1-V9 of %s", path)
	return rows
}

// Every header row Java wrote decodes, consumes every byte and re-encodes to
// the same bytes, copied and aliased.
func TestHeadersJavaGolden(t *testing.T) {
	for _, row := range goldenHeaderRows(t) {
		if row.hex == "" {
			continue
		}
		t.Run(row.desc, func(t *testing.T) {
			src := unhex(t, row.hex)
			for _, alias := range []bool{false, true} {
				var out []byte
				var n int
				var err error
				if strings.HasPrefix(row.desc, "RequestHeader") {
					var h RequestHeader
					n, err = h.Decode(src, row.version, alias)
					require.NoError(t, err)
					assert.Equal(t, len(src), h.Size(row.version))
					out, err = h.AppendTo(nil, row.version)
				} else {
					var h ResponseHeader
					n, err = h.Decode(src, row.version, alias)
					require.NoError(t, err)
					assert.Equal(t, len(src), h.Size(row.version))
					out, err = h.AppendTo(nil, row.version)
				}
				require.NoError(t, err)
				assert.Equal(t, len(src), n)
				assert.Equal(t, row.hex, hex.EncodeToString(out))
			}
		})
	}
}

// The error row: Java refuses tagged fields in a header version without a
// tag section, and so does AppendTo.
func TestHeadersJavaGoldenError(t *testing.T) {
	var found bool
	for _, row := range goldenHeaderRows(t) {
		if row.err == "" {
			continue
		}
		found = true
		require.Contains(t, row.err, "Tagged fields were set", row.desc)
		h := RequestHeader{APIKey: 3, APIVersion: 1, CorrelationID: 1, ClientID: runtime.NewNullString(""),
			Tags: runtime.Tags{{Tag: 1000, Data: []byte{1, 2, 3}}}}
		_, err := h.AppendTo(nil, row.version)
		require.ErrorIs(t, err, runtime.ErrTaggedFields)
	}
	require.True(t, found, "java-golden.tsv has the header error row")
}

func TestRequestHeaderFields(t *testing.T) {
	cases := []struct {
		name    string
		version int16
		hex     string
		want    RequestHeader
	}{
		{"v0 has no client id", 0, "0007000000000926",
			RequestHeader{APIKey: 7, APIVersion: 0, CorrelationID: 2342}},
		{"v1 client id", 1, "00030001000000010006636c69656e74",
			RequestHeader{APIKey: 3, APIVersion: 1, CorrelationID: 1, ClientID: runtime.NewNullString("client")}},
		{"v1 null client id", 1, "0003000100000001ffff",
			RequestHeader{APIKey: 3, APIVersion: 1, CorrelationID: 1}},
		{"v2 keeps the int16 client id length", 2, "00120003000000010006636c69656e7400",
			RequestHeader{APIKey: 18, APIVersion: 3, CorrelationID: 1, ClientID: runtime.NewNullString("client")}},
		{"v2 unknown tag", 2, "0012000300000001000001e80703010203",
			RequestHeader{APIKey: 18, APIVersion: 3, CorrelationID: 1, ClientID: runtime.NewNullString(""),
				Tags: runtime.Tags{{Tag: 1000, Data: []byte{1, 2, 3}}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := RequestHeader{ClientID: runtime.NewNullString("stale"), Tags: runtime.Tags{{Tag: 5}}}
			n, err := h.Decode(unhex(t, c.hex), c.version, false)
			require.NoError(t, err)
			assert.Equal(t, len(c.hex)/2, n)
			if len(c.want.Tags) == 0 {
				assert.Empty(t, h.Tags)
				h.Tags = nil
			}
			assert.Equal(t, c.want, h)
		})
	}
}

func TestHeaderDecodeErrors(t *testing.T) {
	cases := []struct {
		name     string
		response bool
		version  int16
		hex      string
		field    string
		offset   int
		sentinel error
	}{
		{"request short fixed part", false, 1, "000300010000", "CorrelationId", 4, runtime.ErrShortBuffer},
		{"client id longer than the input", false, 1, "00030001000000010006636c69", "ClientId", 10, runtime.ErrShortBuffer},
		{"missing tag section", false, 2, "0012000300000001ffff", "_tagged_fields", 10, runtime.ErrShortBuffer},
		{"tag count past the input", false, 2, "0012000300000001ffff05", "_tagged_fields", 10, runtime.ErrInvalidLength},
		{"request version 3", false, 3, "0012000300000001ffff00", "", 0, runtime.ErrUnsupportedVersion},
		{"response short", true, 0, "000000", "CorrelationId", 0, runtime.ErrShortBuffer},
		{"response tag data past the input", true, 1, "00000007" + "01" + "0105" + "01", "_tagged_fields", 7, runtime.ErrShortBuffer},
		{"response version 2", true, 2, "0000000700", "", 0, runtime.ErrUnsupportedVersion},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			if c.response {
				var h ResponseHeader
				_, err = h.Decode(unhex(t, c.hex), c.version, false)
			} else {
				var h RequestHeader
				_, err = h.Decode(unhex(t, c.hex), c.version, false)
			}
			require.ErrorIs(t, err, c.sentinel)
			var e *runtime.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, c.field, e.Field)
			assert.Equal(t, c.offset, e.Offset)
			assert.Equal(t, "decode", e.Op)
		})
	}
}

func TestHeaderEncodeErrors(t *testing.T) {
	long := RequestHeader{ClientID: runtime.NewNullString(strings.Repeat("x", 32768))}
	_, err := long.AppendTo(nil, 1)
	require.ErrorIs(t, err, runtime.ErrStringTooLong)
	_, err = long.AppendTo(nil, 0)
	require.NoError(t, err, "header v0 does not carry the client id")

	unordered := RequestHeader{Tags: runtime.Tags{{Tag: 2}, {Tag: 1}}}
	out, err := unordered.AppendTo([]byte{9}, 2)
	require.ErrorIs(t, err, runtime.ErrTagOrder)
	assert.Equal(t, []byte{9}, out, "dst is returned unchanged")

	resp := ResponseHeader{Tags: runtime.Tags{{Tag: 1}}}
	_, err = resp.AppendTo(nil, 0)
	require.ErrorIs(t, err, runtime.ErrTaggedFields)
	_, err = resp.AppendTo(nil, 2)
	require.ErrorIs(t, err, runtime.ErrUnsupportedVersion)
}

func TestPeekRequestKey(t *testing.T) {
	key, version, err := PeekRequestKey(unhex(t, "00120003"))
	require.NoError(t, err)
	assert.Equal(t, int16(18), key)
	assert.Equal(t, int16(3), version)
	_, _, err = PeekRequestKey(unhex(t, "0012"))
	require.ErrorIs(t, err, runtime.ErrShortBuffer)
}

// Decoding a stream of headers from one client reuses the client id and the
// tags' memory; encoding into a buffer with room allocates nothing.
func TestHeaderAllocations(t *testing.T) {
	src := unhex(t, "0012000300000001000001e80703010203")
	var h RequestHeader
	_, err := h.Decode(src, 2, false)
	require.NoError(t, err)
	buf := make([]byte, 0, 64)
	for _, alias := range []bool{false, true} {
		allocs := testing.AllocsPerRun(100, func() {
			if _, err := h.Decode(src, 2, alias); err != nil {
				t.Fatal(err)
			}
			if _, err := h.AppendTo(buf, 2); err != nil {
				t.Fatal(err)
			}
		})
		assert.Zero(t, allocs, "alias=%v", alias)
	}
	var r ResponseHeader
	rsrc := unhex(t, "0000000700")
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := r.Decode(rsrc, 1, false); err != nil {
			t.Fatal(err)
		}
		if _, err := r.AppendTo(buf, 1); err != nil {
			t.Fatal(err)
		}
	})
	assert.Zero(t, allocs)
}
