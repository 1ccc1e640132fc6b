package main

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The dump tests read frames of the project's own specs (schemas/: the
// seed BrokerHeartbeat API, key 50 there, and the two headers), written by
// hand from the wire format.

var projectSpecDir = filepath.Join("..", "..", "schemas")

// heartbeatRequest is a BrokerHeartbeatRequest v0 frame with correlation
// id corr (request header v2: the client id keeps its int16 length).
func heartbeatRequest(t *testing.T, corr byte) []byte {
	return unhexDump(t, "0032", "0000", "000000", hex.EncodeToString([]byte{corr}), "0003", "636c69", "00",
		"01", "03", "00000001", "ffffffffffffffff", "0000000000000064", "000000000000000a",
		"02", "0250", "0268", "2384", "0000", "00", "00")
}

// heartbeatResponse is the matching BrokerHeartbeatResponse v0 frame
// (response header v1).
func heartbeatResponse(t *testing.T, corr byte) []byte {
	return unhexDump(t, "000000", hex.EncodeToString([]byte{corr}), "00",
		"00000000", "0000", "00000001", "03", "0000000000000002", "0000000000000064", "00")
}

const heartbeatRequestJSON = `"requestHeader":{"requestApiKey":50,"requestApiVersion":0,"correlationId":%d,"clientId":"cli"},` +
	`"request":{"currentState":1,"targetState":3,"brokerId":1,"brokerEpoch":-1,"leaseDurationMs":100,"curMetadataOffset":10,` +
	`"listeners":[{"name":"P","host":"h","port":9092,"securityProtocol":0}]}}`

func requestLine(corr int) string {
	return `{"name":"BrokerHeartbeatRequest","version":0,` + strings.Replace(heartbeatRequestJSON, "%d", strconv.Itoa(corr), 1) + "\n"
}

func responseLine(corr int) string {
	return `{"name":"BrokerHeartbeatResponse","version":0,"responseHeader":{"correlationId":` + strconv.Itoa(corr) + `},` +
		`"response":{"throttleTimeMs":0,"errorCode":0,"activeControllerId":1,"nextState":3,"brokerEpoch":2,"leaseDurationMs":100}}` + "\n"
}

func unhexDump(t *testing.T, parts ...string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.Join(parts, ""))
	require.NoError(t, err)
	return b
}

// stream size-prefixes frames.
func stream(frames ...[]byte) []byte {
	var out []byte
	for _, f := range frames {
		out = binary.BigEndian.AppendUint32(out, uint32(len(f)))
		out = append(out, f...)
	}
	return out
}

// dump runs the dump command with stdin and returns its exit status and output.
func dump(t *testing.T, stdin []byte, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := runDump(args, bytes.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestDumpRequestsAndResponses(t *testing.T) {
	code, stdout, stderr := dump(t, stream(heartbeatRequest(t, 1), heartbeatRequest(t, 2)), "-in", projectSpecDir)
	require.Equal(t, 0, code, stderr)
	assert.Empty(t, stderr)
	assert.Equal(t, requestLine(1)+requestLine(2), stdout)

	code, stdout, stderr = dump(t, stream(heartbeatResponse(t, 3)), "-in", projectSpecDir, "-response", "-api-key", "50", "-version", "0")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, responseLine(3), stdout)

	// Responses paired with a request stream by correlation id, out of order.
	requests := filepath.Join(t.TempDir(), "requests.bin")
	require.NoError(t, os.WriteFile(requests, stream(heartbeatRequest(t, 4), heartbeatRequest(t, 5)), 0o644))
	code, stdout, stderr = dump(t, stream(heartbeatResponse(t, 5), heartbeatResponse(t, 4), heartbeatResponse(t, 6)), "-in", projectSpecDir, "-requests", requests)
	assert.Equal(t, 1, code)
	assert.Equal(t, responseLine(5)+responseLine(4), stdout)
	assert.Equal(t, "kafkagen dump: stdin: frame 2 at byte 74: no request in -requests has correlation id 6\n", stderr)
}

func TestDumpFiles(t *testing.T) {
	dir := t.TempDir()
	one := filepath.Join(dir, "one.bin")
	require.NoError(t, os.WriteFile(one, heartbeatRequest(t, 7), 0o644))
	framed := filepath.Join(dir, "framed.bin")
	require.NoError(t, os.WriteFile(framed, stream(heartbeatRequest(t, 8), heartbeatRequest(t, 9)), 0o644))

	code, stdout, stderr := dump(t, nil, "-in", projectSpecDir, one, one)
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, requestLine(7)+requestLine(7), stdout)

	code, stdout, stderr = dump(t, nil, "-in", projectSpecDir, "-framed", framed)
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, requestLine(8)+requestLine(9), stdout)

	code, stdout, stderr = dump(t, nil, "-in", projectSpecDir, filepath.Join(dir, "missing.bin"), one)
	assert.Equal(t, 1, code)
	assert.Equal(t, requestLine(7), stdout, "the next file is still read")
	assert.Contains(t, stderr, "missing.bin: no such file or directory")
}

// -message reads frames of any spec without a header: here a metadata log
// record with two tagged fields set and an unknown tag.
func TestDumpMessages(t *testing.T) {
	record := unhexDump(t, "00000001", "000102030405060708090a0b0c0d0e0f", "03", "0009", "03", "00000001", "00000002", "0104", "00000005", "0901", "ab")
	code, stdout, stderr := dump(t, stream(record, record[:20]), "-in", projectSpecDir, "-message", "PartitionChangeRecord", "-version", "0")
	assert.Equal(t, 1, code)
	assert.Equal(t, `{"name":"PartitionChangeRecord","version":0,"message":{"partitionId":1,"topicId":"AAECAwQFBgcICQoLDA0ODw","isr":[1,2],"leader":5,"_unknownTaggedFields":[{"tag":9,"data":"qw=="}]}}`+"\n", stdout)
	assert.Equal(t, "kafkagen dump: stdin: frame 1 at byte 45: kafka decode PartitionChangeRecord v0 at byte 20: short buffer: need 1 bytes, have 0\n", stderr)
}

// A bad frame is reported with its place in the stream, the field path and
// the offset in the frame; the frames after it are still printed.
func TestDumpBadFrames(t *testing.T) {
	good := heartbeatRequest(t, 1)
	cut := good[:len(good)-3] // ends inside the listener's SecurityProtocol
	trailing := append(append([]byte(nil), good...), 0xee)
	code, stdout, stderr := dump(t, stream(good, cut, trailing, heartbeatRequest(t, 2)), "-in", projectSpecDir)
	assert.Equal(t, 1, code)
	assert.Equal(t, requestLine(1)+requestLine(2), stdout)
	assert.Equal(t,
		"kafkagen dump: stdin: frame 1 at byte 59: kafka decode BrokerHeartbeatRequest.Listeners[0].SecurityProtocol v0 at byte 51: short buffer: need 2 bytes, have 1\n"+
			"kafkagen dump: stdin: frame 2 at byte 115: kafka decode BrokerHeartbeatRequest v0 at byte 55: invalid frame: 1 bytes after the message\n", stderr)

	// A stream that cannot be framed any further stops there.
	for _, c := range []struct {
		name, want string
		in         []byte
	}{
		{"ends in a size prefix", "kafkagen dump: stdin: frame 1 at byte 59: kafka frame: reading the size: got 2 of 4 bytes: unexpected EOF\n", append(stream(good), 0, 0)},
		{"ends in a frame", "kafkagen dump: stdin: frame 1 at byte 59: kafka frame: reading a 55-byte frame: got 5 bytes: unexpected EOF\n", append(stream(good), stream(good)[:9]...)},
		{"negative size", "kafkagen dump: stdin: frame 0 at byte 0: size -1 is outside 0 to 104857600 (-max-frame); the rest of the stream cannot be framed\n", []byte{0xff, 0xff, 0xff, 0xff}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := dump(t, c.in, "-in", projectSpecDir)
			assert.Equal(t, 1, code)
			assert.Equal(t, c.want, stderr)
			if len(c.in) > 59 {
				assert.Equal(t, requestLine(1), stdout)
			}
		})
	}
	code, _, stderr = dump(t, stream(good), "-in", projectSpecDir, "-max-frame", "10")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "size 55 is outside 0 to 10 (-max-frame)")

	// A stream that fails to read is reported at the frame it was reading.
	var out, errOut bytes.Buffer
	failing := io.MultiReader(bytes.NewReader(stream(good)), iotest.ErrReader(errors.New("connection reset")))
	assert.Equal(t, 1, runDump([]string{"-in", projectSpecDir}, failing, &out, &errOut))
	assert.Equal(t, requestLine(1), out.String())
	assert.Equal(t, "kafkagen dump: stdin: frame 1 at byte 59: kafka frame: reading the size: got 0 of 4 bytes: connection reset\n", errOut.String())
}

func TestDumpMisuse(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{nil, "kafkagen dump: -in SPECDIR is required (kafkagen dump -h for help)\n"},
		{[]string{"-in", projectSpecDir, "-response"}, "kafkagen dump: responses need -api-key and -version, or -requests FILE\n"},
		{[]string{"-in", projectSpecDir, "-api-key", "1", "-version", "0"}, "kafkagen dump: -api-key and -version describe responses: add -response\n"},
		{[]string{"-in", projectSpecDir, "-requests", "x", "-api-key", "1"}, "kafkagen dump: give either -requests or -api-key and -version, not both\n"},
		{[]string{"-in", projectSpecDir, "-response", "-api-key", "65536", "-version", "0"}, "kafkagen dump: -api-key and -version are 16-bit\n"},
		{[]string{"-in", projectSpecDir, "-max-frame", "0"}, "kafkagen dump: -max-frame 0: must be at least 1\n"},
		{[]string{"-in", projectSpecDir, "-records", "hex"}, "kafkagen dump: -records \"hex\": want batches, base64 or size\n"},
		{[]string{"-in", projectSpecDir, "-message", "PartitionChangeRecord"}, "kafkagen dump: -message needs -version\n"},
		{[]string{"-in", projectSpecDir, "-message", "PartitionChangeRecord", "-version", "0", "-response"}, "kafkagen dump: -message frames have no header: -response, -requests and -api-key do not apply\n"},
		{[]string{"-in", projectSpecDir, "-message", "Nope", "-version", "0"}, "kafkagen dump: -message Nope: no spec of that name in ../../schemas\n"},
		{[]string{"-in", projectSpecDir, "-release", "0.7"}, ""},
		{[]string{"-in", filepath.Join(projectSpecDir, "README.md")}, "kafkagen dump: -in ../../schemas/README.md is not a folder\n"},
		{[]string{"-in", projectSpecDir, "-bogus"}, ""},
	}
	for _, c := range cases {
		code, stdout, stderr := dump(t, nil, c.args...)
		assert.Equal(t, 2, code, "%v: %s", c.args, stderr)
		assert.Empty(t, stdout)
		if c.want != "" {
			assert.Equal(t, c.want, stderr, "%v", c.args)
		}
	}
	// A spec folder without headers is not misuse but cannot be used.
	code, _, stderr := dump(t, nil, "-in", goodSpecs(t))
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "no RequestHeader.json and ResponseHeader.json")
}

func TestDumpUsage(t *testing.T) {
	code, stdout, stderr := runMain(t, "dump", "-h")
	assert.Equal(t, 0, code)
	assert.Empty(t, stdout)
	assert.True(t, strings.HasPrefix(stderr, "Usage: kafkagen dump -in SPECDIR [flags] [FILE...]"), stderr)
	for _, want := range []string{"-requests", "-api-key", "-records", "-framed", "Exit status: 0 every frame printed"} {
		assert.Contains(t, stderr, want)
	}
	_, _, stderr = runMain(t, "-h")
	assert.Contains(t, stderr, "dump ", "the subcommand is listed in kafkagen -h")
}
