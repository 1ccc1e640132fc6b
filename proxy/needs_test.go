package proxy

import (
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/frames"
)

// without is the tests' package with some api keys left out, as kafkagen
// -messages leaves them out.
func without(newMessage func(int16) runtime.APIMessage, keys ...int16) func(int16) runtime.APIMessage {
	return func(key int16) runtime.APIMessage {
		for _, k := range keys {
			if k == key {
				return nil
			}
		}
		return newMessage(key)
	}
}

// only keeps the api keys listed.
func only(newMessage func(int16) runtime.APIMessage, keys ...int16) func(int16) runtime.APIMessage {
	return func(key int16) runtime.APIMessage {
		for _, k := range keys {
			if k == key {
				return newMessage(key)
			}
		}
		return nil
	}
}

// noEndpoints is a Metadata response that hides its VisitEndpoints, as a
// package from an older kafkagen would.
type noEndpoints struct{ runtime.APIMessage }

// New refuses a package lacking what the proxy needs, naming what is
// missing and the -messages list that adds it to the package's apis.
func TestNewRefusesAPackageLackingWhatTheProxyNeeds(t *testing.T) {
	base := Config{Listen: "127.0.0.1:9192", Upstream: []string{"127.0.0.1:9092"}}
	tests := []struct {
		name        string
		newRequest  func(int16) runtime.APIMessage
		newResponse func(int16) runtime.APIMessage
		rewrite     bool
		want        string // "" when New accepts the package
	}{
		{"-messages Produce", only(testRequests, 0), only(testResponses, 0), false,
			"proxy: the generated package lacks ApiVersions (api key 18: the proxy narrows every ApiVersions answer to what the package reads); regenerate it with kafkagen -messages Produce,ApiVersions"},
		{"ApiVersions' response missing", testRequests, without(testResponses, 18), false,
			"lacks ApiVersions (api key 18"},
		{"Produce and ApiVersions", only(testRequests, 0, 18), only(testResponses, 0, 18), false, ""},
		{"rewriting without Metadata nor FindCoordinator", only(testRequests, 0, 18), only(testResponses, 0, 18), true,
			"proxy: the generated package lacks Metadata (api key 3: clients find the brokers through it and Config.RewriteAddresses rewrites its addresses) and FindCoordinator (api key 10: clients find group and transaction coordinators through it and Config.RewriteAddresses rewrites its addresses); regenerate it with kafkagen -messages Produce,Metadata,FindCoordinator,ApiVersions"},
		{"rewriting without FindCoordinator", only(testRequests, 0, 3, 18), only(testResponses, 0, 3, 18), true,
			"lacks FindCoordinator (api key 10: clients find group and transaction coordinators through it and Config.RewriteAddresses rewrites its addresses); regenerate it with kafkagen -messages Produce,Metadata,FindCoordinator,ApiVersions"},
		{"no FindCoordinator, no rewriting", only(testRequests, 0, 3, 18), only(testResponses, 0, 3, 18), false, ""},
		{"rewriting with all it needs", only(testRequests, 0, 3, 10, 18), only(testResponses, 0, 3, 10, 18), true, ""},
		{"rewriting a response without VisitEndpoints", testRequests, func(key int16) runtime.APIMessage {
			if key == 3 {
				return noEndpoints{testResponses(3)}
			}
			return testResponses(key)
		}, true, "proxy: Config.RewriteAddresses: MetadataResponse has no VisitEndpoints, so its broker addresses cannot be rewritten"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := base
			cfg.NewRequest, cfg.NewResponse, cfg.RewriteAddresses = tt.newRequest, tt.newResponse, tt.rewrite
			_, err := New(cfg)
			if tt.want == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// A nil Config.Logger logs to standard error through log.Default, so that
// an operator who set none still sees why connections end.
func TestNilLoggerLogsToStandardError(t *testing.T) {
	var logs lockedBuffer
	out, flags := log.Writer(), log.Flags()
	log.SetOutput(&logs)
	log.SetFlags(0)
	t.Cleanup(func() { log.SetOutput(out); log.SetFlags(flags) })
	require.Same(t, os.Stderr, out, "log.Default writes to standard error")

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closed := ln.Addr().String()
	require.NoError(t, ln.Close()) // nothing listens there any more
	p, err := New(Config{Listen: "127.0.0.1:0", Upstream: []string{closed}, NewRequest: testRequests, NewResponse: testResponses})
	require.NoError(t, err)
	require.NoError(t, p.Start())
	t.Cleanup(func() { require.NoError(t, p.Close()) })
	conn, err := net.DialTimeout("tcp", p.Addr().String(), 5*time.Second)
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(5*time.Second)))
	_, err = conn.Read(make([]byte, 1))
	require.ErrorIs(t, err, io.EOF, "the proxy closes the client it cannot connect")
	require.Eventually(t, func() bool { return logs.String() != "" }, 5*time.Second, 5*time.Millisecond)
	assert.Regexp(t, `^proxy: connection 1 from 127\.0\.0\.1:\d+ ended: no upstream broker answered: .*; check that the brokers of Config\.Upstream run and that the proxy reaches them\n$`, logs.String())
}

// Each reason a connection ends gets the line an operator can act on.
func TestAdvice(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{fmt.Errorf("reading a request: %w", &frames.FrameSizeError{Size: 200 << 20, Max: 100 << 20}), "raise it if the peer is legitimate"},
		{fmt.Errorf("a 9-byte response (%w)", errTooLargeToDecode), "raise Config.MaxFrameSize above the largest response"},
		{fmt.Errorf("api key 3 v99: %w", errNotReadable), "regenerate the package from specs as new as the client"},
		{fmt.Errorf("filter 0 refused: %w", refusal{errors.New("audit.* is read-only")}), "the connection was closed as the filter asked"},
		{fmt.Errorf("%w: refused", errNoUpstream), "check that the brokers of Config.Upstream run"},
		{fmt.Errorf("node 3: %w", errUnknownNode), "clients recover by asking Metadata again"},
		{fmt.Errorf("writing: %w", os.ErrDeadlineExceeded), "raise them if the peer is only slow"},
		{fmt.Errorf("the broker closed the connection inside a frame: %w", io.ErrUnexpectedEOF), "nothing to do unless it is frequent"},
		{fmt.Errorf("decoding: %w", &runtime.Error{Op: "decode", Message: "MetadataResponse", Err: runtime.ErrShortBuffer}), "kafkagen dump reads them"},
		{errors.New("something else"), ""},
	}
	for _, tt := range tests {
		if tt.want == "" {
			assert.Empty(t, advice(tt.err), tt.err.Error())
			continue
		}
		assert.Contains(t, advice(tt.err), tt.want, tt.err.Error())
	}
	// A filter's refusal still reads as, and unwraps to, the filter's error.
	reason := errors.New("audit.* is read-only")
	err := fmt.Errorf("filter 0 refused ProduceRequest v9: %w", refusal{reason})
	assert.EqualError(t, err, "filter 0 refused ProduceRequest v9: audit.* is read-only")
	assert.ErrorIs(t, err, reason)
}

// NewLog refuses a package made without -json when it is made, not per
// line at run time.
func TestNewLogRefusesAPackageWithoutJSON(t *testing.T) {
	var out lockedBuffer
	_, err := NewLog(&out, only(testRequests, 3, 18)) // Metadata and ApiVersions: no AppendJSON
	require.Error(t, err)
	assert.Equal(t, "proxy: NewLog: the generated package has no JSON form (MetadataRequest has no AppendJSON): regenerate it with kafkagen -json", err.Error())
	_, err = NewLog(&out, only(testRequests))
	assert.EqualError(t, err, "proxy: NewLog: the generated package has no requests")
	_, err = NewLog(&out, testRequests) // its Produce has the JSON methods
	require.NoError(t, err)
}
