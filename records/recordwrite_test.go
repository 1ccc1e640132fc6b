package records

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAddWritesEveryStringSize: add writes strings of every size its word
// moves special-case (0 to 140 bytes, and null), in each place a record
// has strings, as Kafka's reference encoding does, byte for byte.
func TestAddWritesEveryStringSize(t *testing.T) {
	for n := -1; n <= 140; n++ {
		s := payload(max(n, 0), uint64(n+7))
		if n < 0 {
			s = nil
		}
		other := []byte("v")
		cases := []recordShape{
			{name: "key", key: s, value: other},
			{name: "value", key: other, value: s},
			{name: "header key", value: other, headers: []Header{{Key: s, Value: other}}},
			{name: "header value", value: other, headers: []Header{{Key: other, Value: s}, {Key: []byte("h2"), Value: s}}},
		}
		for _, c := range cases {
			want := refRecord(3, 300, c.key, c.value, c.headers)
			// Room to spare: add writes it itself, without addSlow.
			dst := append(make([]byte, 0, len(want)+64), "prefix"...)
			got := appendRecord(dst, 3, 300, c.key, c.value, c.headers)
			require.Equal(t, "prefix", string(got[:6]))
			require.Equal(t, want, got[6:], "%s of %d bytes", c.name, n)
		}
	}
}

// TestAddSizes: records at the limits of add's own path (strings adding up
// to 4096 bytes, 63 headers, a body of 63 or 64 bytes, 10-byte deltas)
// and just past them, left to addSlow, are written as the reference does,
// into buffers with no room to spare and with plenty.
func TestAddSizes(t *testing.T) {
	headers := func(n int) []Header {
		hs := make([]Header, n)
		for i := range hs {
			hs[i] = Header{Key: []byte{byte('a' + i%26)}, Value: []byte{byte(i)}}
		}
		return hs
	}
	cases := []recordShape{
		{name: "strings 4096", key: payload(96, 1), value: payload(4000, 2)},
		{name: "strings 4097", key: payload(97, 1), value: payload(4000, 2)},
		{name: "headers 63", value: []byte("v"), headers: headers(63)},
		{name: "headers 64", value: []byte("v"), headers: headers(64)},
		{name: "10-byte deltas", offsetDelta: -1 << 31, timestampDelta: -1 << 63, value: []byte("v")},
	}
	// Bodies of 60 to 70 bytes: a one-byte length moves the body back.
	for n := 53; n <= 63; n++ {
		cases = append(cases, recordShape{name: fmt.Sprintf("value %d", n), key: []byte("k"), value: payload(n, 3)})
	}
	for _, c := range cases {
		want := refRecord(c.offsetDelta, c.timestampDelta, c.key, c.value, c.headers)
		for _, spare := range []int{0, 1, 64, 8192} {
			dst := make([]byte, 2, 2+len(want)+spare)
			got := appendRecord(dst, c.offsetDelta, c.timestampDelta, c.key, c.value, c.headers)
			require.Equal(t, want, got[2:], "%s, %d bytes to spare", c.name, spare)
		}
	}
}

// TestBuilderStartGrowsDst: building straight into a dst too small for
// the batch grows it as append would, keeping what it held.
func TestBuilderStartGrowsDst(t *testing.T) {
	ref := NewBatchBuilder()
	bb := NewBatchBuilder()
	dst := []byte("held")
	bb.Start(dst)
	for i := range 50 {
		v := payload(i*7, uint64(i))
		ref.Append(int64(i), []byte("key"), v, Header{Key: []byte("h"), Value: v})
		bb.Append(int64(i), []byte("key"), v, Header{Key: []byte("h"), Value: v})
	}
	want, err := ref.AppendTo([]byte("held"))
	require.NoError(t, err)
	got, err := bb.Finish()
	require.NoError(t, err)
	require.Equal(t, want, got)
}
