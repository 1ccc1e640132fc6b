package downstream

import (
	"encoding/hex"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"example.com/downstream/messages"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the decoded dumps testdata/frames/*.golden (never the frames)")

// readHex reads a frame written by hand as hex: spaces and line breaks
// are ignored, and # starts a comment running to the end of the line.
func readHex(t *testing.T, path string) []byte {
	t.Helper()
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	var digits strings.Builder
	for _, line := range strings.Split(string(src), "\n") {
		line, _, _ = strings.Cut(line, "#")
		digits.WriteString(strings.Join(strings.Fields(line), ""))
	}
	frame, err := hex.DecodeString(digits.String())
	require.NoError(t, err, "%s", path)
	return frame
}

// checkGolden compares the decoded dump with its golden file, or rewrites
// the file with -update.
func checkGolden(t *testing.T, path string, v any) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", "  ")
	require.NoError(t, err)
	got = append(got, '\n')
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update to create it")
	assert.Equal(t, string(want), string(got), "decoded %s", path)
}

// frames are the hand-written frames of testdata/frames and what each holds.
var frames = []struct {
	name     string
	request  bool
	key      int16 // for responses: the API of the request answered
	version  int16
	checkOut func(t *testing.T, body runtime.APIMessage)
}{
	{"heartbeat_request", true, 0, 0, func(t *testing.T, body runtime.APIMessage) {
		req := body.(*messages.BrokerHeartbeatRequest)
		assert.Equal(t, int32(1), req.BrokerID)
		assert.Equal(t, int64(42), req.BrokerEpoch)
		require.Len(t, req.Listeners, 1)
		assert.Equal(t, "PLAINTEXT", req.Listeners[0].Name)
		assert.Equal(t, int16(9092), req.Listeners[0].Port)
	}},
	{"heartbeat_response", false, 50, 0, func(t *testing.T, body runtime.APIMessage) {
		resp := body.(*messages.BrokerHeartbeatResponse)
		assert.Equal(t, int32(3000), resp.ActiveControllerID)
		assert.Equal(t, int8(3), resp.NextState)
		assert.Empty(t, resp.UnknownTags)
	}},
	{"heartbeat_response_unknown_tags", false, 50, 0, func(t *testing.T, body runtime.APIMessage) {
		resp := body.(*messages.BrokerHeartbeatResponse)
		assert.Equal(t, runtime.Tags{{Tag: 5, Data: []byte{0xab, 0xcd}}, {Tag: 12, Data: []byte{1, 2, 3}}}, resp.UnknownTags)
	}},
}

// TestFramesRoundTrip decodes every known frame, checks what it holds
// (fields asserted here, the whole message against its golden dump), and
// encodes it again: the bytes must be the frame's, byte for byte.
func TestFramesRoundTrip(t *testing.T) {
	for _, f := range frames {
		t.Run(f.name, func(t *testing.T) {
			base := filepath.Join("testdata", "frames", f.name)
			frame := readHex(t, base+".hex")
			var (
				again []byte
				err   error
				dump  any
				body  runtime.APIMessage
			)
			if f.request {
				req, rerr := ReadRequest(frame)
				require.NoError(t, rerr)
				assert.Equal(t, int32(7), req.Header.CorrelationID)
				body, dump = req.Body, req
				again, err = req.AppendTo(nil)
			} else {
				resp, rerr := ReadResponse(frame, f.key, f.version)
				require.NoError(t, rerr)
				assert.Equal(t, int32(7), resp.Header.CorrelationID)
				body, dump = resp.Body, resp
				again, err = resp.AppendTo(nil, f.version)
			}
			require.NoError(t, err)
			f.checkOut(t, body)
			checkGolden(t, base+".golden", dump)
			assert.Equal(t, hex.EncodeToString(frame), hex.EncodeToString(again), "re-encoded frame")
		})
	}
}

// TestBadFrames: a frame that is cut short, too long or of an unknown API
// is an error that says so, never a panic.
func TestBadFrames(t *testing.T) {
	frame := readHex(t, filepath.Join("testdata", "frames", "heartbeat_request.hex"))
	tests := []struct {
		name  string
		frame []byte
		want  string
	}{
		{"empty", nil, "bad frame: 0 bytes cannot hold the size"},
		{"size disagrees", frame[:len(frame)-1], "bad frame: size 78, but 77 bytes follow it"},
		{"unknown API", append([]byte{0, 0, 0, 4, 0x7f, 0x7f}, 0, 0), "bad frame: unknown API key 32639"},
		{"body cut short in BrokerEpoch (21 header bytes, then 6 of the body and 3 of 8)", append([]byte{0, 0, 0, 30}, frame[4:34]...), "kafka decode BrokerHeartbeatRequest.BrokerEpoch v0 at byte 6: short buffer: need 8 bytes, have 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadRequest(tt.frame)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}
