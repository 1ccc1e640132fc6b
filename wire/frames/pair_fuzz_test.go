package frames

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generated"
)

// FuzzPairing plays arbitrary request and response frames through one
// pairing: inspecting never panics, asks only for more of the frame and
// never past its end, gives the same answer however the frame was cut;
// tracking never exceeds the limit; a match is the request with the
// response's correlation id; and decoding any response never panics.
//
// The input is a list of chunks: a byte whose low bit says request (0) or
// response (1), a length byte, then that many bytes of frame.
func FuzzPairing(f *testing.F) {
	chunk := func(response bool, frame []byte) []byte {
		return append([]byte{map[bool]byte{false: 0, true: 1}[response], byte(len(frame))}, frame...)
	}
	var seed []byte
	seed = append(seed, chunk(false, produceFrame(9, 7, "c", nil, strPtr("tx"), 1, 4))...)
	seed = append(seed, chunk(false, produceFrame(3, 8, "c", nil, nil, 0, 4))...)
	seed = append(seed, chunk(false, requestStart(generated.APIKeyAPIVersions, 3, 9, 0, 0, 0))...)
	seed = append(seed, chunk(true, binary.BigEndian.AppendUint32(nil, 7))...)
	seed = append(seed, chunk(true, AppendAPIVersionsUnsupported(nil, 9, 0, 2)[4:])...)
	f.Add(seed)
	f.Add(chunk(false, append(requestStart(0, 9, 1, 0, 0), 0xff, 0xff, 0xff, 0xff, 0x0f)))
	f.Fuzz(func(t *testing.T, in []byte) {
		const limit = 4
		p := NewPairing(pairRequests, pairResponses, limit)
		d := NewResponseDecoder(generated.NewResponse, true)
		var model []InFlight // what the pairing must hold, oldest first
		for len(in) >= 2 {
			response, n := in[0]&1 == 1, int(in[1])
			frame := in[2:min(len(in), 2+n)]
			in = in[min(len(in), 2+n):]
			if response {
				got, skipped, err := p.Match(frame)
				want := -1
				for i := 0; len(frame) >= 4 && i < len(model); i++ {
					if model[i].CorrelationID == int32(binary.BigEndian.Uint32(frame)) {
						want = i
						break
					}
				}
				if want < 0 {
					require.Error(t, err)
					require.Equal(t, len(model), p.Len(), "a failed match removes nothing")
					continue
				}
				require.NoError(t, err)
				require.Equal(t, model[want], got, "the oldest request with the response's correlation id")
				require.Equal(t, want, skipped)
				model = model[want+1:]
				require.Equal(t, len(model), p.Len())
				var resp DecodedResponse
				_ = d.Decode(frame, got, &resp) // must not panic
				continue
			}
			whole, wholeNeed, wholeErr := p.Inspect(frame, len(frame))
			var info RequestInfo
			var err error
			for prefix, need := 0, 0; ; prefix = need {
				info, need, err = p.Inspect(frame[:prefix], len(frame))
				if err != nil || need == 0 {
					break
				}
				require.Greater(t, need, prefix)
				require.LessOrEqual(t, need, len(frame))
			}
			require.Zero(t, wholeNeed, "the whole frame is always enough")
			require.Equal(t, wholeErr == nil, err == nil, "%v / %v", wholeErr, err)
			if err != nil {
				continue
			}
			require.Equal(t, whole, info)
			f, err := p.Track(info)
			if err != nil {
				require.ErrorIs(t, err, ErrInFlightFull)
				require.Equal(t, limit, p.Len())
				continue
			}
			require.LessOrEqual(t, p.Len(), limit)
			if !info.Unanswered {
				model = append(model, f)
			}
		}
	})
}
