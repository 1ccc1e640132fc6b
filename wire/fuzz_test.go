package wire

import (
	"bytes"
	"errors"
	"testing"

	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/frames"
)

// FuzzDecodeRequest feeds arbitrary frames to the request decoder: it never
// panics, and whatever it accepts re-encodes to bytes that decode back to
// the same encoding. (The first encoding may differ from the input where
// Kafka's format has several spellings of one value: any negative length is
// null, any non-zero byte is true.)
func FuzzDecodeRequest(f *testing.F) {
	f.Add(requestFrameBytes(f, 5, 0, 1))
	f.Add(requestFrameBytes(f, 50, 0, 2))
	f.Add([]byte{0, 18, 0, 9, 0, 0, 0, 3, 0xff, 0xff, 0})
	f.Add([]byte{0, 4, 0, 0, 0, 0, 0, 1, 0, 0})
	f.Add([]byte("\x00\x12\x00\x000000\xf80")) // a negative client id length: null, re-encoded as ffff
	f.Fuzz(func(t *testing.T, frame []byte) {
		for _, alias := range []bool{false, true} {
			d := NewRequestDecoder(testRequests, alias, nil)
			var req Request
			if err := d.Decode(bytes.Clone(frame), &req); err != nil {
				continue
			}
			first, ok := reencode(t, &req)
			if !ok {
				continue
			}
			if err := d.Decode(bytes.Clone(first), &req); err != nil {
				t.Fatalf("re-encoded %x does not decode: %v", first, err)
			}
			if again, _ := reencode(t, &req); !bytes.Equal(again, first) {
				t.Fatalf("encoding is not stable: %x, then %x (input %x)", first, again, frame)
			}
		}
	})
}

// reencode encodes a decoded request's header and body. Unknown tags read
// out of order (or twice) decode but do not encode, as in Kafka's Java code
// (its raw tagged field writer refuses them): ok is false for those.
func reencode(t *testing.T, req *Request) (out []byte, ok bool) {
	out, err := req.Header.AppendTo(nil, req.HeaderVersion)
	if err == nil {
		out, err = req.Body.AppendTo(out, req.Header.APIVersion)
	}
	if errors.Is(err, runtime.ErrTagOrder) {
		return nil, false
	}
	if err != nil {
		t.Fatalf("decoded but does not encode: %v", err)
	}
	return out, true
}

func requestFrameBytes(f *testing.F, key, version int16, corr int32) []byte {
	h := frames.RequestHeader{APIKey: key, APIVersion: version, CorrelationID: corr, ClientID: runtime.NewNullString("fuzz")}
	body := testRequests(key)
	frame, err := frames.AppendRequest(nil, &h, body)
	if err != nil {
		f.Fatal(err)
	}
	return frame[4:]
}
