package dynamic

import (
	"encoding/hex"
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/internal/corpus"
	"github.com/kafkagen/kafkagen/internal/wiregen"
	"github.com/kafkagen/kafkagen/runtime"
)

// projectSpecs loads schemas/, the project's own specs (headers included).
func projectSpecs(t *testing.T) map[string]*schema.Spec {
	t.Helper()
	specs, err := schema.LoadDir(filepath.Join(corpus.ModuleRoot(), "schemas"))
	require.NoError(t, err)
	byName := map[string]*schema.Spec{}
	for _, s := range specs {
		byName[s.Name] = s
	}
	return byName
}

func unhex(t *testing.T, parts ...string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.Join(parts, ""))
	require.NoError(t, err)
	return b
}

// A PartitionChangeRecord written by hand from the spec: two known tagged
// fields, one unknown, the others at their defaults (left out of the JSON).
func TestDecodeKnownAnswer(t *testing.T) {
	spec := projectSpecs(t)["PartitionChangeRecord"]
	src := unhex(t,
		"00000001",                           // PartitionId 1
		"000102030405060708090a0b0c0d0e0f",   // TopicId
		"03",                                 // three tagged fields
		"0009", "03", "00000001", "00000002", // tag 0 Isr, 9 bytes: [1, 2]
		"0104", "00000005", // tag 1 Leader 5
		"0901", "ab", // tag 9, unknown
	)
	m := NewMessage(spec)
	st, n, err := m.Decode(src, 0)
	require.NoError(t, err)
	assert.Equal(t, len(src), n)
	out, err := m.AppendJSON(nil, st, 0, Options{})
	require.NoError(t, err)
	assert.Equal(t, `{"partitionId":1,"topicId":"AAECAwQFBgcICQoLDA0ODw","isr":[1,2],"leader":5,"_unknownTaggedFields":[{"tag":9,"data":"qw=="}]}`, string(out))

	out, err = m.AppendJSON(nil, st, 0, Options{JSONOptions: runtime.JSONRequestLog})
	require.NoError(t, err)
	assert.Equal(t, `{"partitionId":1,"topicId":"AAECAwQFBgcICQoLDA0ODw","isr":[1,2],"leader":5}`, string(out))
}

// heartbeatFrame is a BrokerHeartbeatRequest v0 frame (api key 50 in
// schemas/, flexible: request header v2), written by hand.
func heartbeatFrame(t *testing.T) []byte {
	return unhex(t,
		"0032", "0000", "00000007", "0003", "636c69", "00", // header: key 50, v0, correlation 7, client "cli" (int16 length), no tags
		"01", "03", "00000001", "ffffffffffffffff", "0000000000000064", "000000000000000a", // states, broker 1, epoch -1, lease 100, offset 10
		"02", "0250", "0268", "2384", "0000", "00", // one listener: "P", "h", 9092, 0, no tags
		"00", // no tags
	)
}

// projectFrameSpecs indexes the project's specs (schemas/) for frames.
func projectFrameSpecs(t *testing.T) *Specs {
	t.Helper()
	var all []*schema.Spec
	for _, s := range projectSpecs(t) {
		all = append(all, s)
	}
	specs := New(all)
	require.NoError(t, specs.Framing())
	return specs
}

func TestFrames(t *testing.T) {
	specs := projectFrameSpecs(t)

	frame := heartbeatFrame(t)
	f, err := specs.DecodeRequest(frame)
	require.NoError(t, err)
	assert.Equal(t, int32(7), f.CorrelationID)
	out, err := f.AppendJSON(nil, Options{})
	require.NoError(t, err)
	assert.Equal(t, `{"name":"BrokerHeartbeatRequest","version":0,`+
		`"requestHeader":{"requestApiKey":50,"requestApiVersion":0,"correlationId":7,"clientId":"cli"},`+
		`"request":{"currentState":1,"targetState":3,"brokerId":1,"brokerEpoch":-1,"leaseDurationMs":100,"curMetadataOffset":10,`+
		`"listeners":[{"name":"P","host":"h","port":9092,"securityProtocol":0}]}}`, string(out))

	resp := unhex(t, "00000007", "00", // response header v1: correlation 7, no tags
		"00000000", "0000", "00000001", "03", "0000000000000002", "0000000000000064", "00") // throttle, error, controller 1, state 3, epoch 2, lease 100, no tags
	f, err = specs.DecodeResponse(resp, 50, 0)
	require.NoError(t, err)
	out, err = f.AppendJSON(nil, Options{})
	require.NoError(t, err)
	assert.Equal(t, `{"name":"BrokerHeartbeatResponse","version":0,"responseHeader":{"correlationId":7},`+
		`"response":{"throttleTimeMs":0,"errorCode":0,"activeControllerId":1,"nextState":3,"brokerEpoch":2,"leaseDurationMs":100}}`, string(out))
}

// Bad frames fail with the sentinel, the field path and the byte offset in
// the frame.
func TestFrameErrors(t *testing.T) {
	specs := projectFrameSpecs(t)
	good := heartbeatFrame(t)
	header := 14
	listeners := header + 1 + 1 + 4 + 8 + 8 + 8 // 44
	with := func(at int, b ...byte) []byte {
		out := append([]byte(nil), good...)
		copy(out[at:], b)
		return out
	}
	cases := []struct {
		name  string
		frame []byte
		err   error
		want  string
	}{
		{"cut in a listener's security protocol", good[:listeners+8], runtime.ErrShortBuffer,
			"kafka decode BrokerHeartbeatRequest.Listeners[0].SecurityProtocol v0 at byte 51: short buffer: need 2 bytes, have 1"},
		{"listener count past the bytes left", good[:listeners+7], runtime.ErrInvalidLength,
			"kafka decode BrokerHeartbeatRequest.Listeners v0 at byte 44: invalid length: array of 1 elements, but only 7 bytes remain"},
		{"null array", with(listeners, 0), runtime.ErrNull,
			"kafka decode BrokerHeartbeatRequest.Listeners v0 at byte 44: null in a non-nullable field"},
		{"array count past the end", with(listeners, 0x7f), runtime.ErrInvalidLength,
			"kafka decode BrokerHeartbeatRequest.Listeners v0 at byte 44: invalid length: array of 126 elements, but only 11 bytes remain"},
		{"bytes after the message", append(append([]byte(nil), good...), 0xee), ErrFrame,
			"kafka decode BrokerHeartbeatRequest v0 at byte 55: invalid frame: 1 bytes after the message"},
		{"unknown api key", with(0, 0x7f, 0x00), ErrFrame,
			"kafka decode RequestHeader.RequestApiKey v0 at byte 0: invalid frame: no request spec has api key 32512"},
		{"unsupported version", with(2, 0x00, 0x09), runtime.ErrUnsupportedVersion,
			"kafka decode BrokerHeartbeatRequest v9 at byte 2: unsupported version: valid versions are 0 to 0"},
		{"short header", good[:3], runtime.ErrShortBuffer,
			"kafka decode RequestHeader v0 at byte 0: short buffer: need 4 bytes for the api key and version, have 3"},
		{"tag section count past the end", with(len(good)-1, 0x05), runtime.ErrInvalidLength,
			"kafka decode BrokerHeartbeatRequest v0 at byte 54: invalid length: 5 tagged fields, but only 1 bytes remain"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := specs.DecodeRequest(c.frame)
			require.Error(t, err)
			assert.ErrorIs(t, err, c.err)
			assert.Equal(t, c.want, err.Error())
		})
	}
}

// Random canonical messages of every project spec and version decode to
// their last byte and print as valid JSON.
func TestRandomProjectMessages(t *testing.T) {
	for _, spec := range projectSpecs(t) {
		for _, v := range wiregen.Versions(spec) {
			rng := rand.New(rand.NewPCG(uint64(v), 7))
			for i := range 50 {
				src := wiregen.Encode(spec, v, rng, wiregen.Options{UnknownTags: i%2 == 0, MaxArray: 3})
				m := NewMessage(spec)
				st, n, err := m.Decode(src, v)
				require.NoError(t, err, "%s v%d", spec.Name, v)
				require.Equal(t, len(src), n, "%s v%d", spec.Name, v)
				out, err := m.AppendJSON(nil, st, v, Options{})
				require.NoError(t, err, "%s v%d", spec.Name, v)
				require.True(t, json.Valid(out), "%s", out)
				for cut := range src {
					_, _, err := m.Decode(src[:cut], v)
					require.Error(t, err, "%s v%d: a strict prefix of %d bytes decodes", spec.Name, v, cut)
				}
			}
		}
	}
}
