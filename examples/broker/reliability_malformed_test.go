//go:build reliability

package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/records"
	"github.com/kafkagen/kafkagen/wire/frames"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// The rows of malformed input: what Kafka cannot parse closes the
// connection (its SocketServer closes on an InvalidRequestException), and
// clients that go away mid-request or mid-response cost nothing after.

func malformedRows() []row {
	return []row{
		{name: "garbage after a valid size", attack: garbageFrames},
		{name: "unknown api keys and versions", attack: unknownKeysAndVersions},
		{name: "truncated bodies", attack: truncatedBodies},
		{name: "disconnects mid-request", attack: disconnectsMidRequest},
		{
			name:   "disconnects mid-response",
			args:   []string{"-fetch-max-bytes", bigLogFlag},
			setup:  fillBigLog,
			attack: disconnectsMidResponse,
		},
	}
}

// closedAfter writes frame on a new connection and reports whether the
// broker closed it (rather than answering) within 5 s.
func closedAfter(t *testing.T, addr string, frame []byte) bool {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.SetDeadline(time.Now().Add(5*time.Second)))
	_, err = conn.Write(frame)
	require.NoError(t, err)
	_, err = frames.NewFrameReader(conn, 0).Next()
	require.False(t, errors.Is(err, os.ErrDeadlineExceeded), "neither answered nor closed within 5 s")
	return err != nil
}

// closeEach sends each frame on a connection of its own and checks that
// the broker closes every one.
func closeEach(t *testing.T, b *rowBroker, frames map[string][]byte) attackResult {
	closed := 0
	for name, frame := range frames {
		if assert.True(t, closedAfter(t, b.addr, frame), "%s closes the connection", name) {
			closed++
		}
	}
	return attackResult{closed: fmt.Sprintf("%d/%d (as Kafka closes them)", closed, len(frames))}
}

// sized puts a size prefix before body.
func sized(t *testing.T, body []byte) []byte {
	out, err := frames.AppendFrame(nil, body)
	require.NoError(t, err)
	return out
}

// garbageFrames: a valid size then random bytes, the first two of them a
// known api key and version so that the body is what cannot parse, and
// then wholly random frames. Seeded: the same frames every run.
func garbageFrames(t *testing.T, b *rowBroker) attackResult {
	rng := rand.New(rand.NewPCG(18, 18))
	frames := map[string][]byte{}
	for i := 0; i < 20; i++ {
		body := make([]byte, 16+rng.IntN(2000))
		for j := range body {
			body[j] = byte(rng.Uint32())
		}
		if i < 10 {
			binary.BigEndian.PutUint16(body, uint16(kafkamsg.APIKeyMetadata))
			binary.BigEndian.PutUint16(body[2:], 12)
		}
		frames[fmt.Sprintf("garbage frame %d", i)] = sized(t, body)
	}
	return closeEach(t, b, frames)
}

// unknownKeysAndVersions: keys no broker serves and versions past the
// served ones close the connection; an ApiVersions outside its versions
// is answered with UNSUPPORTED_VERSION and the versions, as Kafka does
// (KIP-511).
func unknownKeysAndVersions(t *testing.T, b *rowBroker) attackResult {
	res := closeEach(t, b, map[string][]byte{
		"api key 999":       sized(t, header(t, 999, 0, "unknown", false)),
		"api key -1":        sized(t, header(t, -1, 0, "unknown", false)),
		"DescribeAcls v1":   sized(t, header(t, kafkamsg.NewDescribeACLsRequest().APIKey(), 1, "unserved", false)),
		"Produce v99":       sized(t, header(t, kafkamsg.APIKeyProduce, 99, "future", true)),
		"Metadata v-1":      sized(t, header(t, kafkamsg.APIKeyMetadata, -1, "past", false)),
		"Fetch v18 and up":  sized(t, header(t, kafkamsg.APIKeyFetch, 18, "future", true)),
		"Metadata v32767":   sized(t, header(t, kafkamsg.APIKeyMetadata, 32767, "future", true)),
		"SaslHandshake v99": sized(t, header(t, kafkamsg.APIKeySaslHandshake, 99, "future", true)),
	})
	for _, version := range []int16{99, -1} {
		answer, err := rawRequest(t, b.addr, header(t, kafkamsg.APIKeyAPIVersions, version, "other", version > 2))
		require.NoError(t, err, "ApiVersions v%d is answered", version)
		av := kafkamsg.NewAPIVersionsResponse()
		_, err = av.Decode(answer[4:], 0) // after the correlation id of a v0 response header
		require.NoError(t, err)
		assert.Equal(t, kerrors.UnsupportedVersion.Code, av.ErrorCode, "ApiVersions v%d", version)
	}
	res.note = ", ApiVersions v99 and v-1 answered UNSUPPORTED_VERSION with the versions, as Kafka answers them"
	return res
}

// truncatedBodies: valid requests cut short inside their body, with a
// size prefix that matches the cut frame, so the frame is whole and the
// message is not.
func truncatedBodies(t *testing.T, b *rowBroker) attackResult {
	produceFrame, err := frameOf("cut", 1, produceReq(normalTopic, 0, 1, recordsOf(t, 3, time.Now().UnixMilli())), 9)
	require.NoError(t, err)
	fetchFrame, err := frameOf("cut", 1, fetchReq(12, normalTopic, [16]byte{}, 0, 0), 12)
	require.NoError(t, err)
	frames := map[string][]byte{}
	for name, whole := range map[string][]byte{"Produce v9": produceFrame, "Fetch v12": fetchFrame} {
		body := whole[4:]
		for _, cut := range []int{1, 5, len(body) / 2} {
			frames[fmt.Sprintf("%s less %d bytes", name, cut)] = sized(t, body[:len(body)-cut])
		}
	}
	return closeEach(t, b, frames)
}

// disconnectsMidRequest: 200 connections each send part of a frame (the
// size prefix, part of the header, most of a 1 MiB Produce) and close.
func disconnectsMidRequest(t *testing.T, b *rowBroker) attackResult {
	value := make([]byte, 1<<20-256)
	frame, err := frameOf("gone", 1, produceReq(normalTopic, 0, 1, recordsOf(t, 1, time.Now().UnixMilli())), 9)
	require.NoError(t, err)
	big, err := frameOf("gone", 1, produceReq(normalTopic, 0, 1, v2Batch(t, records.CompressionNone, testRecord{value: value})), 9)
	require.NoError(t, err)
	cuts := [][]byte{frame[:2], frame[:4], frame[:10], frame[:len(frame)-1], big[:len(big)/2], big[:len(big)-1]}
	conns := openConns(t, b.addr, 200)
	require.NoError(t, inParallel(len(conns), func(i int) error {
		defer conns[i].Close()
		conns[i].SetWriteDeadline(time.Now().Add(30 * time.Second))
		_, err := conns[i].Write(cuts[i%len(cuts)])
		return err
	}))
	return attackResult{closed: "all 200 by the client"}
}

// disconnectsMidResponse: 20 connections each ask for the 64 MiB log, read
// 1 MiB of the answer and close.
func disconnectsMidResponse(t *testing.T, b *rowBroker) attackResult {
	frame := bigFetchFrame(t)
	conns := openConns(t, b.addr, 20)
	require.NoError(t, inParallel(len(conns), func(i int) error {
		defer conns[i].Close()
		conns[i].SetDeadline(time.Now().Add(time.Minute))
		if _, err := conns[i].Write(frame); err != nil {
			return err
		}
		_, err := io.CopyN(io.Discard, conns[i], 1<<20)
		return err
	}))
	return attackResult{closed: "all 20 by the client", note: ", the baseline holds the 64 MiB log"}
}
