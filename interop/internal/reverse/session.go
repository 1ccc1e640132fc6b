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

	"github.com/kafkagen/kafkagen/conformance/gen/clients"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
)

// session is one connection with its negotiated versions and the version
// each api was last sent at.
type session struct {
	client   *wire.Client
	versions *wire.Negotiated
	used     map[string]int16 // spec name -> version sent
}

// dial connects to addr, sends ApiVersions at the package's highest version
// and negotiates every api with the broker's answer.
func dial(ctx context.Context, addr, clientID string) (*session, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	s := &session{
		client: wire.NewClient(conn, wire.ClientConfig{ClientID: runtime.NullString{Value: clientID, Valid: true}}),
		used:   map[string]int16{},
	}
	req := clients.NewAPIVersionsRequest()
	req.ClientSoftwareName, req.ClientSoftwareVersion = "kafkagen-interop", "0.0.0"
	var resp clients.APIVersionsResponse
	if err := s.client.Do(ctx, req, req.MaxVersion(), &resp); err != nil {
		s.client.Close()
		return nil, fmt.Errorf("ApiVersions v%d: %w", req.MaxVersion(), err)
	}
	s.used[req.SpecName()] = req.MaxVersion()
	if err := wire.ErrorCode(resp.ErrorCode); err != nil {
		s.client.Close()
		return nil, fmt.Errorf("ApiVersions v%d: %w", req.MaxVersion(), err)
	}
	ranges := make([]wire.VersionRange, len(resp.APIKeys))
	for i, k := range resp.APIKeys {
		ranges[i] = wire.VersionRange{APIKey: k.APIKey, MinVersion: k.MinVersion, MaxVersion: k.MaxVersion}
	}
	s.versions = wire.Negotiate(ranges, clients.NewRequest)
	return s, nil
}

// do sends req at the highest version both sides support and decodes the
// answer into resp.
func (s *session) do(ctx context.Context, req, resp runtime.APIMessage) error {
	v, err := s.versions.Version(req.APIKey())
	if err != nil {
		return err
	}
	s.used[req.SpecName()] = v
	if err := s.client.Do(ctx, req, v, resp); err != nil {
		return fmt.Errorf("%s v%d: %w", req.SpecName(), v, err)
	}
	return nil
}

// version is the version req was last sent at.
func (s *session) version(req runtime.Versioned) int16 { return s.used[req.SpecName()] }

func (s *session) close() error { return s.client.Close() }
