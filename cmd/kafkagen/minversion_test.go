package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/internal/corpus"
	"github.com/kafkagen/kafkagen/internal/modtest"
)

// oldBrokerProbe is a test run in a package generated with -min-version 4:
// a client of that package asks a broker that serves ApiVersions 0-3 only
// (Kafka 3.8 and older) for v4, reads the broker's v0 UNSUPPORTED_VERSION
// answer (KIP-511), and asks again at v3, the broker's highest. The broker
// is a stub on 127.0.0.1 that writes its answers byte by byte.
const oldBrokerProbe = `package kafkamsg

import (
	"context"
	"encoding/binary"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
	"github.com/kafkagen/kafkagen/wire/frames"
)

// serveOldBroker answers the ApiVersions requests of one connection as a
// broker serving versions 0-3: above 3 with the v0 body of error 35
// (UNSUPPORTED_VERSION) and its ApiVersions range, else with the v3 body
// of the same range. Both have response header v0: the correlation id.
func serveOldBroker(conn net.Conn) error {
	defer conn.Close()
	fr := frames.NewFrameReader(conn, 0)
	for {
		req, err := fr.Next()
		if err != nil {
			return err
		}
		if len(req) < 8 || binary.BigEndian.Uint16(req) != 18 {
			return errors.New("not an ApiVersions request")
		}
		version := int16(binary.BigEndian.Uint16(req[2:]))
		out := binary.BigEndian.AppendUint32(nil, 0) // the size, set below
		out = append(out, req[4:8]...)               // correlation id
		if version > 3 {
			out = append(out, 0, 35, 0, 0, 0, 1, 0, 18, 0, 0, 0, 3)
		} else {
			out = append(out, 0, 0, 2, 0, 18, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0)
		}
		binary.BigEndian.PutUint32(out, uint32(len(out)-4))
		if _, err := conn.Write(out); err != nil {
			return err
		}
	}
}

func TestOldBroker(t *testing.T) {
	req, resp := NewAPIVersionsRequest(), NewAPIVersionsResponse()
	if req.MinVersion() != 0 || resp.MinVersion() != 0 || req.MaxVersion() != 4 {
		t.Fatalf("ApiVersions generated %d-%d (response from %d), want 0-4 whatever -min-version says", req.MinVersion(), req.MaxVersion(), resp.MinVersion())
	}
	if NewSaslAuthenticateRequest().MinVersion() != 2 {
		t.Fatal("the other API keeps its floor")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	served := make(chan error, 1)
	go func() {
		conn, err := ln.Accept()
		if err == nil {
			conn.SetDeadline(time.Now().Add(10 * time.Second))
			err = serveOldBroker(conn)
		}
		served <- err
	}()
	conn, err := net.DialTimeout("tcp", ln.Addr().String(), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	client := wire.NewClient(conn, wire.ClientConfig{ClientID: runtime.NewNullString("probe")})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	req.ClientSoftwareName, req.ClientSoftwareVersion = "probe", "1"
	if err := client.Do(ctx, req, 4, resp); err != nil {
		t.Fatalf("ApiVersions v4 to a 0-3 broker: %v", err)
	}
	oneRange := func() bool {
		k := resp.APIKeys
		return len(k) == 1 && k[0].APIKey == 18 && k[0].MinVersion == 0 && k[0].MaxVersion == 3
	}
	if resp.ErrorCode != 35 || !oneRange() {
		t.Fatalf("the v0 answer read as error %d, keys %+v; want 35 and ApiVersions 0-3", resp.ErrorCode, resp.APIKeys)
	}
	if err := client.Do(ctx, req, resp.APIKeys[0].MaxVersion, resp); err != nil {
		t.Fatalf("ApiVersions v3: %v", err)
	}
	if resp.ErrorCode != 0 || !oneRange() {
		t.Fatalf("the v3 answer read as error %d, keys %+v", resp.ErrorCode, resp.APIKeys)
	}
	client.Close()
	if err := <-served; err == nil {
		t.Fatal("the stub stopped without the connection closing")
	}
}
`

// TestMinVersionKeepsAPIVersionsV0: -min-version 4,SaslAuthenticate=2
// generates ApiVersions from v0 all the same, and a client built on the package negotiates with
// a broker that stops at ApiVersions v3 (oldBrokerProbe, run with go test
// in a folder of this module: .pruned-*, out of ./... patterns).
func TestMinVersionKeepsAPIVersionsV0(t *testing.T) {
	dir := modtest.Dir(t, "pruned")
	out := filepath.Join(dir, "kafkamsg")
	code, _, stderr := runMain(t, "-in", filepath.Join(corpus.ModuleRoot(), "schemas"), "-out", out,
		"-messages", "ApiVersions,SaslAuthenticate", "-min-version", "4,SaslAuthenticate=2")
	require.Equal(t, 0, code, stderr)
	require.NoError(t, os.WriteFile(filepath.Join(out, "probe_test.go"), []byte(oldBrokerProbe), 0o644))
	output, err := modtest.Go(dir, "kafkamsg", "test", "-count=1", "-run", "^TestOldBroker$")
	assert.NoError(t, err, "go test of the pruned package:\n%s", output)
}
