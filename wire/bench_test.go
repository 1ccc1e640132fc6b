package wire

import (
	"testing"

	"github.com/kafkagen/kafkagen/runtime"
)

// Benchmarks of the per-request work of the connection layer, apart from
// the body's codec: reading a frame and its header, and writing them.

func benchRequestFrame(b *testing.B) []byte {
	h := RequestHeader{APIKey: 5, CorrelationID: 1, ClientID: runtime.NewNullString("bench-client-1")}
	frame, err := AppendRequest(nil, &h, stopReplica())
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

func BenchmarkDecodeRequest(b *testing.B) {
	frame := benchRequestFrame(b)[4:]
	for _, alias := range []bool{false, true} {
		name := "copied"
		if alias {
			name = "aliased"
		}
		b.Run(name, func(b *testing.B) {
			d := NewRequestDecoder(testRequests, alias, nil)
			var req Request
			b.SetBytes(int64(len(frame)))
			b.ReportAllocs()
			for b.Loop() {
				if err := d.Decode(frame, &req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkAppendRequest(b *testing.B) {
	h := RequestHeader{APIKey: 5, CorrelationID: 1, ClientID: runtime.NewNullString("bench-client-1")}
	body := stopReplica()
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
