package wire

import (
	"testing"

	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/frames"
)

// Benchmarks of decoding a request frame into its header and body (the
// frame and header benchmarks are wire/frames').

func benchRequestFrame(b *testing.B) []byte {
	h := frames.RequestHeader{APIKey: 5, CorrelationID: 1, ClientID: runtime.NewNullString("bench-client-1")}
	frame, err := frames.AppendRequest(nil, &h, stopReplica())
	if err != nil {
		b.Fatal(err)
	}
	return frame
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
