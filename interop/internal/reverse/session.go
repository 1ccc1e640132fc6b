// Package reverse is the interop suite's reverse direction: a small Kafka
// client built only on kafkagen's output (the client protocol generated from
// the upstream specs, conformance/gen/clients), the connection layer (wire)
// and the record formats (records), talking to kfake, a Kafka broker that
// franz-go's authors wrote. It negotiates versions, creates a topic, reads
// metadata, produces a batch per codec, lists offsets and fetches the
// records back, over plaintext and over TLS with SASL.
package reverse

import (
	"context"
	"fmt"
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

// session is one connection (wire.Conn: ApiVersions, negotiation, TLS and
// SASL are its) with the version each api was last sent at.
type session struct {
	conn   *wire.Conn
	policy versionPolicy

	mu   sync.Mutex
	used map[string]int16 // spec name -> version sent
}

// dial connects to addr with cfg under the client id.
func dial(ctx context.Context, addr, clientID string, policy versionPolicy, cfg wire.ConnConfig) (*session, error) {
	cfg.ClientID = clientID
	cfg.SoftwareName, cfg.SoftwareVersion = "kafkagen-interop", "0.0.0"
	conn, err := wire.Dial(ctx, addr, cfg)
	if err != nil {
		return nil, err
	}
	return &session{conn: conn, policy: policy, used: map[string]int16{"ApiVersionsRequest": conn.APIVersions().ReadAt}}, nil
}

// versionOf is the version the session's policy picks for req.
func (s *session) versionOf(req runtime.APIMessage) (int16, error) {
	r, err := s.conn.Range(req)
	if err != nil || !s.policy.lowest {
		return r.MaxVersion, err
	}
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
	if err := s.conn.DoAt(ctx, req, v, resp); err != nil {
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

func (s *session) close() error { return s.conn.Close() }
