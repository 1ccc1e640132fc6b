// Package reverse is the interop suite's reverse direction: a small Kafka
// client built only on kafkagen's output (the client protocol generated from
// the upstream specs, conformance/gen/clients), the connection layer (wire)
// and the record formats (records), talking to kfake, a Kafka broker that
// franz-go's authors wrote. It negotiates versions, creates a topic, reads
// metadata, produces a batch per codec, lists offsets and fetches the
// records back.
package reverse

import (
	"context"
	"fmt"
	"net"
	"sync"

	"github.com/kafkagen/kafkagen/conformance/gen/clients"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
)

// versionPolicy says which of the versions both sides support a session
// sends.
type versionPolicy struct {
	name   string
	lowest bool
	// floor raises the lowest version of an api key where older versions
	// cannot carry what the client sends.
	floor map[int16]int16
}

var (
	highest = versionPolicy{name: "highest"}
	lowest  = versionPolicy{name: "lowest", lowest: true, floor: map[int16]int16{
		clients.NewProduceRequest().APIKey(): 3, // v2 record batches
		clients.NewFetchRequest().APIKey():   4, // v2 record batches
	}}
)

// session is one connection with its negotiated versions and the version
// each api was last sent at.
type session struct {
	client   *wire.Client
	versions *wire.Negotiated
	policy   versionPolicy

	mu   sync.Mutex
	used map[string]int16 // spec name -> version sent
}

// dial connects to addr, sends ApiVersions (at v0 under the lowest policy,
// else at the package's highest version) and negotiates every api with the
// broker's answer.
func dial(ctx context.Context, addr, clientID string, policy versionPolicy) (*session, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	s := &session{
		client: wire.NewClient(conn, wire.ClientConfig{ClientID: runtime.NullString{Value: clientID, Valid: true}}),
		policy: policy,
		used:   map[string]int16{},
	}
	req := clients.NewAPIVersionsRequest()
	req.ClientSoftwareName, req.ClientSoftwareVersion = "kafkagen-interop", "0.0.0"
	v := req.MaxVersion()
	if policy.lowest {
		v = req.MinVersion()
	}
	var resp clients.APIVersionsResponse
	if err := s.client.Do(ctx, req, v, &resp); err != nil {
		s.client.Close()
		return nil, fmt.Errorf("ApiVersions v%d: %w", v, err)
	}
	if retry, ok := apiVersionsRetry(&resp, v); ok {
		// An older broker than the package: it answered v0 with the
		// ApiVersions versions it serves (KIP-511). Ask again within them.
		v = retry
		if err := s.client.Do(ctx, req, v, &resp); err != nil {
			s.client.Close()
			return nil, fmt.Errorf("ApiVersions v%d: %w", v, err)
		}
	}
	s.used[req.SpecName()] = v
	if err := wire.ErrorCode(resp.ErrorCode); err != nil {
		s.client.Close()
		return nil, fmt.Errorf("ApiVersions v%d: %w", v, err)
	}
	ranges := make([]wire.VersionRange, len(resp.APIKeys))
	for i, k := range resp.APIKeys {
		ranges[i] = wire.VersionRange{APIKey: k.APIKey, MinVersion: k.MinVersion, MaxVersion: k.MaxVersion}
	}
	s.versions = wire.Negotiate(ranges, clients.NewRequest)
	return s, nil
}

// apiVersionsRetry is the version to ask ApiVersions again at when the
// broker answered the request sent at v with UNSUPPORTED_VERSION: the
// highest it lists for ApiVersions, if below v.
func apiVersionsRetry(resp *clients.APIVersionsResponse, v int16) (int16, bool) {
	if resp.ErrorCode != wire.UnsupportedVersion.Code {
		return 0, false
	}
	for _, k := range resp.APIKeys {
		if k.APIKey == wire.APIVersionsKey && k.MaxVersion < v && k.MaxVersion >= 0 {
			return k.MaxVersion, true
		}
	}
	return 0, false
}

// versionOf is the version the session's policy picks for req.
func (s *session) versionOf(req runtime.APIMessage) (int16, error) {
	v, err := s.versions.Version(req.APIKey())
	if err != nil || !s.policy.lowest {
		return v, err
	}
	r, _ := s.versions.Range(req.APIKey())
	low := max(r.MinVersion, s.policy.floor[req.APIKey()])
	if low > r.MaxVersion {
		return -1, fmt.Errorf("%s: no version from v%d in the common range v%d-v%d", req.SpecName(), low, r.MinVersion, r.MaxVersion)
	}
	return low, nil
}

// do sends req at the version of the session's policy and decodes the
// answer into resp. Many goroutines may call it at once: their requests
// are pipelined on the connection.
func (s *session) do(ctx context.Context, req, resp runtime.APIMessage) error {
	v, err := s.versionOf(req)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.used[req.SpecName()] = v
	s.mu.Unlock()
	if err := s.client.Do(ctx, req, v, resp); err != nil {
		return fmt.Errorf("%s v%d: %w", req.SpecName(), v, err)
	}
	return nil
}

// version is the version req was last sent at.
func (s *session) version(req runtime.Versioned) int16 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.used[req.SpecName()]
}

func (s *session) close() error { return s.client.Close() }
