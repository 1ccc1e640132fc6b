package frames

import (
	"testing"

	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/internal/wiretest"
)

// Benchmarks of the per-request work of reading and writing frames and
// headers, apart from the body's codec.

func benchRequestFrame(b *testing.B) []byte {
	h := RequestHeader{APIKey: 5, CorrelationID: 1, ClientID: runtime.NewNullString("bench-client-1")}
	frame, err := AppendRequest(nil, &h, wiretest.StopReplica())
	if err != nil {
		b.Fatal(err)
	}
	return frame
}

func BenchmarkReadFrameAndHeader(b *testing.B) {
	frame := benchRequestFrame(b)
	fr := NewFrameReader(&loopReader{data: frame}, 0)
	var h RequestHeader
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	for b.Loop() {
		f, err := fr.Next()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := h.Decode(f, 1, false); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAppendRequest(b *testing.B) {
	h := RequestHeader{APIKey: 5, CorrelationID: 1, ClientID: runtime.NewNullString("bench-client-1")}
	body := wiretest.StopReplica()
	buf := make([]byte, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		out, err := AppendRequest(buf[:0], &h, body)
		if err != nil {
			b.Fatal(err)
		}
		buf = out
	}
	b.SetBytes(int64(len(buf)))
}

func BenchmarkAppendResponseHeader(b *testing.B) {
	h := ResponseHeader{CorrelationID: 7}
	buf := make([]byte, 0, 16)
	b.ReportAllocs()
	for b.Loop() {
		out, start := BeginFrame(buf[:0])
		out, _ = h.AppendTo(out, 1)
		_ = EndFrame(out, start)
	}
}

// The header decode alone, at each version that carries more than fixed
// fields, copied and aliased.
func BenchmarkDecodeHeader(b *testing.B) {
	cases := []struct {
		name     string
		response bool
		version  int16
		src      []byte
	}{
		{"request-v1", false, 1, []byte("\x00\x05\x00\x00\x00\x00\x00\x01\x00\x0ebench-client-1")},
		{"request-v2", false, 2, []byte("\x00\x12\x00\x03\x00\x00\x00\x01\x00\x0ebench-client-1\x00")},
		{"request-v2-tag", false, 2, []byte("\x00\x12\x00\x03\x00\x00\x00\x01\x00\x0ebench-client-1\x01\xe8\x07\x03\x01\x02\x03")},
		{"response-v1", true, 1, []byte("\x00\x00\x00\x07\x00")},
	}
	for _, c := range cases {
		for _, alias := range []bool{false, true} {
			name := c.name + "/copied"
			if alias {
				name = c.name + "/aliased"
			}
			b.Run(name, func(b *testing.B) {
				var req RequestHeader
				var resp ResponseHeader
				b.SetBytes(int64(len(c.src)))
				b.ReportAllocs()
				for b.Loop() {
					var err error
					if c.response {
						_, err = resp.Decode(c.src, c.version, alias)
					} else {
						_, err = req.Decode(c.src, c.version, alias)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
