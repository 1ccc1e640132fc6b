package wire

import (
	"encoding/hex"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/frames"
	"github.com/kafkagen/kafkagen/wire/internal/wiretest"
)

func stopReplica() *generated.StopReplicaRequest { return wiretest.StopReplica() }

// frameOf frames the concatenation of parts.
func frameOf(t *testing.T, parts ...[]byte) []byte {
	t.Helper()
	var body []byte
	for _, p := range parts {
		body = append(body, p...)
	}
	f, err := frames.AppendFrame(nil, body)
	require.NoError(t, err)
	return f
}

func requestFrame(t *testing.T, key, version int16, corr int32, body runtime.APIMessage) []byte {
	t.Helper()
	h := frames.RequestHeader{APIKey: key, APIVersion: version, CorrelationID: corr, ClientID: runtime.NewNullString("test-client")}
	frame, err := frames.AppendRequest(nil, &h, body)
	require.NoError(t, err)
	return frame
}

// pipeServer runs a ServerConn on one end of a net.Pipe and returns the
// other end, closed when the test ends.
func pipeServer(t *testing.T, cfg ServerConfig, serve func(*ServerConn)) net.Conn {
	client, server := net.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer server.Close()
		serve(NewServerConn(server, cfg))
	}()
	t.Cleanup(func() {
		client.Close()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("server goroutine did not stop")
		}
	})
	require.NoError(t, client.SetDeadline(time.Now().Add(10*time.Second)))
	return client
}

// echoLoop answers StopReplica and BrokerHeartbeat requests, and reports
// every request or error it saw on seen.
func echoLoop(seen chan<- any) func(*ServerConn) {
	return func(sc *ServerConn) {
		for {
			req, err := sc.ReadRequest()
			if err != nil {
				seen <- err
				if sc.Answer(err) == nil {
					continue
				}
				return
			}
			seen <- req.Header
			switch body := req.Body.(type) {
			case *generated.StopReplicaRequest:
				resp := generated.NewStopReplicaResponse()
				resp.PartitionErrors = []generated.StopReplicaResponseStopReplicaPartitionError{
					{TopicName: body.Partitions[0].TopicName, PartitionIndex: body.Partitions[0].PartitionIndex},
				}
				if sc.WriteResponse(req, resp) != nil {
					return
				}
			case *generated.BrokerHeartbeatRequest:
				resp := generated.NewBrokerHeartbeatResponse()
				resp.BrokerEpoch = body.BrokerEpoch + 1
				if sc.WriteResponse(req, resp) != nil {
					return
				}
			}
		}
	}
}

func TestServerConnDispatch(t *testing.T) {
	seen := make(chan any, 10)
	conn := pipeServer(t, ServerConfig{NewRequest: testRequests}, echoLoop(seen))
	fr := frames.NewFrameReader(conn, 0)

	// StopReplica v0 travels with request header v1 and response header v0.
	go func() { _, _ = conn.Write(requestFrame(t, 5, 0, 41, stopReplica())) }()
	got := <-seen
	require.IsType(t, frames.RequestHeader{}, got)
	assert.Equal(t, frames.RequestHeader{APIKey: 5, CorrelationID: 41, ClientID: runtime.NewNullString("test-client")}, got)
	frame, err := fr.Next()
	require.NoError(t, err)
	var rh frames.ResponseHeader
	n, err := rh.Decode(frame, 0, false)
	require.NoError(t, err)
	assert.Equal(t, int32(41), rh.CorrelationID)
	resp := generated.NewStopReplicaResponse()
	used, err := resp.Decode(frame[n:], 0)
	require.NoError(t, err)
	assert.Equal(t, len(frame)-n, used)
	assert.Equal(t, "orders", resp.PartitionErrors[0].TopicName)

	// BrokerHeartbeat v0 is flexible: request header v2, response header v1.
	hb := generated.NewBrokerHeartbeatRequest()
	hb.BrokerEpoch = 99
	go func() { _, _ = conn.Write(requestFrame(t, 50, 0, 42, hb)) }()
	got = <-seen
	assert.Equal(t, int16(50), got.(frames.RequestHeader).APIKey)
	frame, err = fr.Next()
	require.NoError(t, err)
	n, err = rh.Decode(frame, 1, false)
	require.NoError(t, err)
	assert.Equal(t, 5, n, "correlation id and an empty tag section")
	assert.Equal(t, int32(42), rh.CorrelationID)
	hbResp := generated.NewBrokerHeartbeatResponse()
	_, err = hbResp.Decode(frame[n:], 0)
	require.NoError(t, err)
	assert.Equal(t, int64(100), hbResp.BrokerEpoch)
}

// An ApiVersions request above the supported range gets Kafka's answer: a
// v0 response with UNSUPPORTED_VERSION listing the ApiVersions range, and
// the connection stays open.
func TestServerConnAnswersApiVersionsAboveRange(t *testing.T) {
	seen := make(chan any, 10)
	conn := pipeServer(t, ServerConfig{NewRequest: testRequests}, echoLoop(seen))
	fr := frames.NewFrameReader(conn, 0)

	// ApiVersions v4 with request header v2 (client id, empty tags) and the
	// v4 body a client sends (two compact strings and tags).
	raw := unhex(t, "00000014"+"0012"+"0004"+"0000002a"+"0001"+"63"+"00"+"05"+"6b636174"+"02"+"31"+"00")
	go func() { _, _ = conn.Write(raw) }()
	err := (<-seen).(error)
	require.ErrorIs(t, err, ErrUnsupportedRequestVersion)
	require.ErrorIs(t, err, runtime.ErrUnsupportedVersion)
	var u *UnsupportedRequestError
	require.ErrorAs(t, err, &u)
	assert.True(t, u.Answerable())
	assert.Equal(t, int32(42), u.Header.CorrelationID)
	assert.Equal(t, runtime.NewNullString("c"), u.Header.ClientID)

	frame, err := fr.Next()
	require.NoError(t, err)
	// correlation id 42, error 35, one api: key 18, versions 0 to 3.
	assert.Equal(t, "0000002a"+"0023"+"00000001"+"0012"+"0000"+"0003", hex.EncodeToString(frame))

	// The connection still serves requests.
	go func() { _, _ = conn.Write(requestFrame(t, 5, 0, 43, stopReplica())) }()
	assert.Equal(t, int32(43), (<-seen).(frames.RequestHeader).CorrelationID)
	frame, err = fr.Next()
	require.NoError(t, err)
	assert.Equal(t, "0000002b", hex.EncodeToString(frame[:4]))
}

// Every other request the server cannot serve ends the connection, as Kafka
// ends it.
func TestServerConnClosesOnUnservableRequests(t *testing.T) {
	cases := []struct {
		name     string
		frame    func(t *testing.T) []byte
		sentinel error
		detail   string
	}{
		{"unknown api key", func(t *testing.T) []byte {
			return unhex(t, "0000000a"+"03e7"+"0000"+"00000007"+"ffff")
		}, ErrUnknownAPIKey, "api key 999 (version 0, correlation id 7): unknown api key"},
		{"version above the range", func(t *testing.T) []byte {
			h := frames.RequestHeader{APIKey: 5, APIVersion: 1, CorrelationID: 8, ClientID: runtime.NewNullString("test-client")}
			head, err := h.AppendTo(nil, 1)
			require.NoError(t, err)
			body, err := stopReplica().AppendTo(nil, 0)
			require.NoError(t, err)
			return frameOf(t, head, body)
		}, ErrUnsupportedRequestVersion, "api key 5 version 1 (correlation id 8): request unsupported version: supported versions are 0 to 0"},
		{"body short", func(t *testing.T) []byte {
			f := requestFrame(t, 5, 0, 9, stopReplica())[4:]
			return frameOf(t, f[:len(f)-1])
		}, runtime.ErrShortBuffer, "kafka decode StopReplicaRequest.Partitions[0].DeletePartition v0 at byte 49"},
		{"trailing bytes", func(t *testing.T) []byte {
			f := requestFrame(t, 5, 0, 10, stopReplica())[4:]
			return frameOf(t, f, []byte{0xee, 0xee})
		}, ErrTrailingBytes, "kafka decode StopReplicaRequest v0 at byte 50: bytes left after the message: 2 bytes after the 29-byte body"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			seen := make(chan any, 10)
			conn := pipeServer(t, ServerConfig{NewRequest: testRequests}, echoLoop(seen))
			go func() { _, _ = conn.Write(c.frame(t)) }()
			err := (<-seen).(error)
			require.ErrorIs(t, err, c.sentinel)
			assert.Contains(t, err.Error(), c.detail)
			// The server returned: the connection is closed.
			var one [1]byte
			_, rerr := conn.Read(one[:])
			assert.ErrorIs(t, rerr, io.EOF)
		})
	}
}

func TestRequestDecoderLimits(t *testing.T) {
	d := NewRequestDecoder(testRequests, false, []VersionRange{{APIKey: 18, MinVersion: 0, MaxVersion: 2}})
	r, ok := d.Range(18)
	require.True(t, ok)
	assert.Equal(t, VersionRange{APIKey: 18, MinVersion: 0, MaxVersion: 2}, r)
	_, ok = d.Range(5)
	assert.False(t, ok, "a key left out of the limits is not served")

	var req Request
	err := d.Decode(requestFrame(t, 5, 0, 1, stopReplica())[4:], &req)
	require.ErrorIs(t, err, ErrUnknownAPIKey)
	err = d.Decode(requestFrame(t, 18, 3, 2, apiVersionsStub{})[4:], &req)
	var u *UnsupportedRequestError
	require.ErrorAs(t, err, &u)
	assert.Equal(t, int16(2), u.Max)
	require.NoError(t, d.Decode(requestFrame(t, 18, 2, 3, apiVersionsStub{})[4:], &req))
}

// Copied bodies own their memory; aliased bodies point into the frame.
func TestRequestDecoderAliasing(t *testing.T) {
	for _, alias := range []bool{false, true} {
		d := NewRequestDecoder(testRequests, alias, nil)
		frame := requestFrame(t, 5, 0, 1, stopReplica())[4:]
		var req Request
		require.NoError(t, d.Decode(frame, &req))
		assert.Equal(t, frame, req.Frame)
		body := req.Body.(*generated.StopReplicaRequest)
		out, err := body.AppendTo(nil, 0)
		require.NoError(t, err)
		assert.Equal(t, frame[req.BodyOffset:], out, "the body re-encodes to the bytes that arrived")
		for i := range frame {
			frame[i] = 'z'
		}
		if alias {
			assert.Equal(t, "zzzzzz", body.Partitions[0].TopicName)
		} else {
			assert.Equal(t, "orders", body.Partitions[0].TopicName)
		}
		// The next request of the key reuses the message.
		require.NoError(t, d.Decode(requestFrame(t, 5, 0, 2, stopReplica())[4:], &req))
		assert.Same(t, body, req.Body)
	}
}

// AliasKeys aliases the bodies of the keys listed, and only those: the
// header and the other keys' bodies are copied.
func TestRequestDecoderAliasKeys(t *testing.T) {
	handshake := generated.NewSaslHandshakeRequest()
	handshake.Mechanism = "PLAIN"
	cases := []struct {
		name        string
		keys        []int16
		key         int16
		body        runtime.APIMessage
		field       func(runtime.APIMessage) string
		wantAliased bool
	}{
		{"listed key", []int16{5}, 5, stopReplica(), stopReplicaTopic, true},
		{"key not listed", []int16{17}, 5, stopReplica(), stopReplicaTopic, false},
		{"no keys", nil, 5, stopReplica(), stopReplicaTopic, false},
		{"other key of a list", []int16{5}, 17, handshake, func(m runtime.APIMessage) string {
			return m.(*generated.SaslHandshakeRequest).Mechanism
		}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := NewRequestDecoder(testRequests, false, nil)
			d.AliasKeys(c.keys...)
			frame := requestFrame(t, c.key, 0, 1, c.body)[4:]
			var req Request
			require.NoError(t, d.Decode(frame, &req))
			before := c.field(req.Body)
			for i := range frame {
				frame[i] = 'z'
			}
			assert.Equal(t, "test-client", req.Header.ClientID.Value, "the header is copied")
			if c.wantAliased {
				assert.Equal(t, strings.Repeat("z", len(before)), c.field(req.Body))
			} else {
				assert.Equal(t, before, c.field(req.Body))
			}
		})
	}
}

// A body decoded aliased, then copied once its key is no longer listed,
// points into neither frame (generated messages drop what they aliased).
func TestRequestDecoderAliasKeysChanged(t *testing.T) {
	d := NewRequestDecoder(testRequests, false, nil)
	d.AliasKeys(5)
	var req Request
	first := requestFrame(t, 5, 0, 1, stopReplica())[4:]
	require.NoError(t, d.Decode(first, &req))
	d.AliasKeys()
	second := requestFrame(t, 5, 0, 2, stopReplica())[4:]
	require.NoError(t, d.Decode(second, &req))
	for i := range first {
		first[i], second[i] = 'z', 'z'
	}
	assert.Equal(t, "orders", stopReplicaTopic(req.Body))
}

func stopReplicaTopic(m runtime.APIMessage) string {
	return m.(*generated.StopReplicaRequest).Partitions[0].TopicName
}

func TestServerConnSupported(t *testing.T) {
	sc := NewServerConn(nil, ServerConfig{NewRequest: testRequests})
	assert.Equal(t, []VersionRange{{5, 0, 0}, {18, 0, 3}, {50, 0, 0}}, sc.Supported([]int16{5, 18, 50, 77}))
}

// Decoding a stream of requests of known keys allocates nothing once each
// key's message has grown, aliased.
func TestRequestDecoderAllocations(t *testing.T) {
	d := NewRequestDecoder(testRequests, true, nil)
	frame := requestFrame(t, 5, 0, 1, stopReplica())[4:]
	var req Request
	require.NoError(t, d.Decode(frame, &req))
	allocs := testing.AllocsPerRun(100, func() {
		if err := d.Decode(frame, &req); err != nil {
			t.Fatal(err)
		}
	})
	assert.Zero(t, allocs)
}
