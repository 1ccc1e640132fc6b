package frames

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/runtime"
)

func strPtr(s string) *string { return &s }

func TestPairingInspect(t *testing.T) {
	long := string(make([]byte, 300)) // a client id whose length needs both bytes
	tags := runtime.Tags{{Tag: 7, Data: []byte("abc")}, {Tag: 200, Data: make([]byte, 130)}}
	tests := []struct {
		name       string
		frame      []byte
		unanswered bool
		reqHV      int16
		respHV     int16
	}{
		{"unknown api key", requestStart(999, 3, 41), false, -1, -1},
		{"ApiVersions v3", requestStart(generated.APIKeyAPIVersions, 3, 41, 0, 0, 0), false, 2, 0},
		{"ApiVersions v9, newer than the package: header v0 still", requestStart(generated.APIKeyAPIVersions, 9, 41), false, -1, 0},
		{"SaslHandshake v1", requestStart(17, 1, 41, 0xff, 0xff), false, 1, 0},
		{"SaslHandshake v5, newer than the package", requestStart(17, 5, 41), false, -1, -1},
		{"Produce v0 acks 0", produceFrame(0, 41, "c", nil, nil, 0, 10), true, 1, 0},
		{"Produce v0 acks 1", produceFrame(0, 41, "c", nil, nil, 1, 10), false, 1, 0},
		{"Produce v3 null transactional id, acks 0", produceFrame(3, 41, long, nil, nil, 0, 10), true, 1, 0},
		{"Produce v8 transactional id, acks -1", produceFrame(8, 41, "c", nil, strPtr("tx-1"), -1, 0), false, 1, 0},
		{"Produce v9 header tags, compact transactional id, acks 0", produceFrame(9, 41, "c", tags, strPtr("tx"), 0, 3), true, 2, 1},
		{"Produce v11 null transactional id, acks 1", produceFrame(11, 41, "", nil, nil, 1, 0), false, 2, 1},
		{"Produce v12, newer than the package, acks 0: answered as far as pairing knows", produceFrame(12, 41, "c", nil, nil, 0, 0), false, -1, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewPairing(pairRequests, pairResponses, 4)
			// Growing the prefix as asked always ends with an answer, and
			// never asks for more than the frame or for what it has.
			prefix := 0
			var info RequestInfo
			for {
				var need int
				var err error
				info, need, err = p.Inspect(tt.frame[:prefix], len(tt.frame))
				require.NoError(t, err)
				if need == 0 {
					break
				}
				require.Greater(t, need, prefix)
				require.LessOrEqual(t, need, len(tt.frame))
				prefix = need
			}
			assert.Equal(t, int32(41), info.CorrelationID)
			assert.Equal(t, tt.unanswered, info.Unanswered)
			assert.Equal(t, tt.reqHV, info.RequestHeaderVersion)
			assert.Equal(t, tt.respHV, info.ResponseHeaderVersion)
			assert.Equal(t, tt.reqHV >= 0, info.Known())

			f, err := p.Track(info)
			require.NoError(t, err)
			assert.Equal(t, map[bool]int{false: 1, true: 0}[tt.unanswered], p.Len())
			assert.Equal(t, info.CorrelationID, f.CorrelationID)
		})
	}
}

// A frame that ends inside what pairing must read is an error naming the
// part, whatever prefix of it is given.
func TestPairingInspectTruncated(t *testing.T) {
	tests := []struct {
		name  string
		frame []byte
		want  string
	}{
		{"shorter than the fixed header", requestStart(3, 1, 2)[:7], "shorter than the 8 bytes"},
		{"client id", produceFrame(3, 1, "client", nil, nil, 1, 0)[:12], "ends inside its client id"},
		{"header tag", produceFrame(9, 1, "c", runtime.Tags{{Tag: 1, Data: []byte("xyz")}}, nil, 1, 0)[:15], "ends inside its header tagged field"},
		{"transactional id", produceFrame(5, 1, "c", nil, strPtr("transaction"), 1, 0)[:15], "ends inside its transactional id"},
		{"acks", produceFrame(0, 1, "c", nil, nil, 1, 0)[:12], "ends inside its acks"},
		{"a header tag count past the frame", append(requestStart(0, 9, 1, 0, 0), 0xff, 0xff, 0xff, 0xff, 0x0f), "ends inside its header tag"},
		{"a varint of six bytes", append(requestStart(0, 9, 1, 0, 0), 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0, 0), "malformed varint"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewPairing(pairRequests, pairResponses, 4)
			var err error
			for prefix, need := 0, 0; ; prefix = need {
				_, need, err = p.Inspect(tt.frame[:prefix], len(tt.frame))
				if err != nil || need == 0 {
					break
				}
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestPairingMatch(t *testing.T) {
	type step struct {
		request  int32 // > 0: track a request with this correlation id
		response int32 // > 0: match a response with this id
		skipped  int
		err      string
	}
	tests := []struct {
		name  string
		steps []step
		left  int // requests still in flight at the end
	}{
		{"in order", []step{{request: 1}, {request: 2}, {response: 1}, {response: 2}}, 0},
		{"pipelined past the ring's end", []step{{request: 1}, {request: 2}, {request: 3}, {response: 1}, {request: 4}, {response: 2}, {request: 5}, {response: 3}, {response: 4}, {response: 5}}, 0},
		{"an unanswered request is skipped", []step{{request: 1}, {request: 2}, {response: 2, skipped: 1}, {response: 1, err: "no request in flight"}}, 0},
		{"unknown correlation id", []step{{request: 1}, {response: 9, err: "matches none of the 1 requests in flight (the oldest has 1)"}}, 1},
		{"full", []step{{request: 1}, {request: 2}, {request: 3}, {request: 4, err: "too many requests in flight"}}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewPairing(pairRequests, pairResponses, 3)
			sent := map[int32]uint64{}
			for i, s := range tt.steps {
				if s.request > 0 {
					info, need, err := p.Inspect(requestStart(17, 1, s.request, 0, 0), 10)
					require.NoError(t, err)
					require.Zero(t, need)
					f, err := p.Track(info)
					if s.err != "" {
						require.ErrorIs(t, err, ErrInFlightFull, "step %d", i)
						assert.ErrorContains(t, err, s.err)
						continue
					}
					require.NoError(t, err)
					sent[s.request] = f.Seq
					continue
				}
				f, skipped, err := p.Match(binary.BigEndian.AppendUint32(nil, uint32(s.response)))
				if s.err != "" {
					var u *UnpairedResponseError
					require.ErrorAs(t, err, &u, "step %d", i)
					assert.ErrorContains(t, err, s.err)
					continue
				}
				require.NoError(t, err, "step %d", i)
				assert.Equal(t, s.response, f.CorrelationID)
				assert.Equal(t, sent[s.response], f.Seq)
				assert.Equal(t, int16(17), f.APIKey)
				assert.Equal(t, s.skipped, skipped)
			}
			assert.Equal(t, tt.left, p.Len())
		})
	}
}

func TestResponseDecoder(t *testing.T) {
	v3 := generated.NewAPIVersionsResponse()
	v3.APIKeys = []generated.APIVersionsResponseAPIVersion{{APIKey: 18, MinVersion: 0, MaxVersion: 4}}
	v3.FinalizedFeaturesEpoch = 7
	unsupported := AppendAPIVersionsUnsupported(nil, 5, 0, 2)[4:]
	body, err := v3.AppendTo(nil, 3)
	require.NoError(t, err)
	ok3 := append(binary.BigEndian.AppendUint32(nil, 5), body...)
	handshake := append(binary.BigEndian.AppendUint32(nil, 5), 0, 0, 0, 0, 0, 1, 0, 5, 'P', 'L', 'A', 'I', 'N')

	tests := []struct {
		name    string
		frame   []byte
		f       InFlight
		version int16 // the version read at
		err     string
	}{
		{"ApiVersions v3 answered at v3", ok3, InFlight{CorrelationID: 5, APIKey: 18, APIVersion: 3, RequestHeaderVersion: 2}, 3, ""},
		{"ApiVersions v3 answered with KIP-511's v0", unsupported, InFlight{CorrelationID: 5, APIKey: 18, APIVersion: 3, RequestHeaderVersion: 2}, 0, ""},
		{"ApiVersions v9, newer than the package, answered at v0", unsupported, InFlight{CorrelationID: 5, APIKey: 18, APIVersion: 9, RequestHeaderVersion: -1}, 0, ""},
		{"SaslHandshake v1", handshake, InFlight{CorrelationID: 5, APIKey: 17, APIVersion: 1, RequestHeaderVersion: 1}, 1, ""},
		{"trailing bytes", append(handshake, 1), InFlight{CorrelationID: 5, APIKey: 17, APIVersion: 1, RequestHeaderVersion: 1}, 1, "1 bytes after the 13-byte body"},
		{"a body cut short names the field and the frame's offset", handshake[:8], InFlight{CorrelationID: 5, APIKey: 17, APIVersion: 1, RequestHeaderVersion: 1}, 1, "SaslHandshakeResponse.Mechanisms v1 at byte 6"},
		{"a version the package cannot read", handshake, InFlight{CorrelationID: 5, APIKey: 17, APIVersion: 9, RequestHeaderVersion: -1, ResponseHeaderVersion: -1}, 9, "relay it as bytes"},
		{"an unknown api key", handshake, InFlight{CorrelationID: 5, APIKey: 999, RequestHeaderVersion: -1, ResponseHeaderVersion: -1}, 0, "relay it as bytes"},
	}
	for _, tt := range tests {
		for _, alias := range []bool{false, true} {
			t.Run(tt.name, func(t *testing.T) {
				d := NewResponseDecoder(generated.NewResponse, alias)
				var resp DecodedResponse
				err := d.Decode(tt.frame, tt.f, &resp)
				assert.Equal(t, tt.version, resp.Version)
				if tt.err != "" {
					require.Error(t, err)
					assert.Contains(t, err.Error(), tt.err)
					assert.Nil(t, resp.Body)
					return
				}
				require.NoError(t, err)
				assert.Equal(t, int32(5), resp.Header.CorrelationID)
				again, err := resp.Body.AppendTo(nil, resp.Version)
				require.NoError(t, err)
				assert.Equal(t, tt.frame[resp.BodyOffset:], again, "the body re-encodes to the bytes read")
			})
		}
	}
}

// The errors of pairing say what went wrong in words a log reader can use.
func TestUnpairedResponseError(t *testing.T) {
	err := error(&UnpairedResponseError{CorrelationID: 3})
	assert.EqualError(t, err, "kafka pairing: a response with correlation id 3 arrived with no request in flight")
	assert.False(t, errors.Is(err, ErrInFlightFull))
}
