package wire

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"regexp"
	"runtime/debug"
	"sync"
	"time"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// ConnConfig configures Dial and NewConn. The zero value is a plaintext
// connection without SASL.
type ConnConfig struct {
	// ClientID is the client id of every request header.
	ClientID string
	// SoftwareName and SoftwareVersion are sent in ApiVersions (v3 and up,
	// KIP-511) for the broker's metrics: letters, digits, '-' and '.',
	// starting and ending with a letter or digit. By default "kafkagen"
	// and the version of this module in the program's build information.
	SoftwareName, SoftwareVersion string
	// TLS, when not nil, runs TLS over the connection: a clone of it, with
	// ServerName taken from the address when empty. Client certificates go
	// in its Certificates or GetClientCertificate.
	TLS *tls.Config
	// SASL, when not nil, authenticates the connection (PlainAuth,
	// ScramSHA256Auth, ScramSHA512Auth, OAuthBearerAuth, or one of the
	// caller's).
	SASL SASLMechanism
	// DialContext opens the network connection; nil uses a net.Dialer.
	DialContext func(ctx context.Context, network, addr string) (net.Conn, error)
	// RequestTimeout and MaxFrameSize are the Client's (ClientConfig).
	// RequestTimeout also bounds Dial as a whole (TCP, TLS, ApiVersions,
	// SASL) when its ctx has no deadline: 0 means DefaultRequestTimeout, a
	// negative value no bound.
	RequestTimeout time.Duration
	MaxFrameSize   int
}

// Dial connects to a broker at addr ("host:port") within ctx: TCP, TLS
// when cfg.TLS is set, then NewConn's ApiVersions and SASL. A ctx without
// a deadline gets cfg.RequestTimeout for all of it: a peer that accepts the
// connection and never answers the TLS handshake would hold Dial for ever.
func Dial(ctx context.Context, addr string, cfg ConnConfig) (*Conn, error) {
	ctx, cancel := boundSetup(ctx, cfg.RequestTimeout)
	defer cancel()
	dial := cfg.DialContext
	if dial == nil {
		var d net.Dialer
		dial = d.DialContext
	}
	raw, err := dial(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("kafka dial %s: %w", addr, err)
	}
	conn := raw
	if cfg.TLS != nil {
		tc := cfg.TLS.Clone()
		if tc.ServerName == "" {
			host, _, err := net.SplitHostPort(addr)
			if err != nil {
				host = addr
			}
			tc.ServerName = host
		}
		t := tls.Client(raw, tc)
		if err := t.HandshakeContext(ctx); err != nil {
			raw.Close()
			return nil, fmt.Errorf("kafka dial %s: TLS handshake: %w", addr, err)
		}
		conn = t
	}
	c, err := NewConn(ctx, conn, cfg)
	if err != nil {
		return nil, fmt.Errorf("kafka dial %s: %w", addr, err)
	}
	return c, nil
}

// boundSetup gives ctx the request timeout (0: DefaultRequestTimeout,
// negative: none) when it has no deadline.
func boundSetup(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	if timeout == 0 {
		timeout = DefaultRequestTimeout
	}
	if _, ok := ctx.Deadline(); ok || timeout < 0 {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, timeout)
}

// NewConn sets up a connection that is already open (and past its TLS
// handshake, if any): ApiVersions with the KIP-511 retry, then SASL when
// cfg.SASL is set, all within ctx. On error conn is closed.
func NewConn(ctx context.Context, conn net.Conn, cfg ConnConfig) (*Conn, error) {
	client := NewClient(conn, ClientConfig{ClientID: runtime.NewNullString(cfg.ClientID), RequestTimeout: cfg.RequestTimeout, MaxFrameSize: cfg.MaxFrameSize})
	c := &Conn{client: client, sasl: cfg.SASL}
	err := c.askVersions(ctx, cfg)
	if err == nil && c.sasl != nil {
		err = c.authenticate(ctx)
	}
	if err != nil {
		client.Close()
		return nil, err
	}
	return c, nil
}

// softwareField is KIP-511's pattern for the software name and version.
var softwareField = regexp.MustCompile(`^[a-zA-Z0-9](?:[a-zA-Z0-9\-.]*[a-zA-Z0-9])?$`)

// moduleVersion is this module's version in the build information, or
// "unknown" (a development build's "(devel)" is not a valid field).
var moduleVersion = sync.OnceValue(func() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := info.Main.Version
	if info.Main.Path != "github.com/kafkagen/kafkagen" {
		v = ""
		for _, dep := range info.Deps {
			if dep.Path == "github.com/kafkagen/kafkagen" {
				v = dep.Version
			}
		}
	}
	if !softwareField.MatchString(v) {
		return "unknown"
	}
	return v
})

// askVersions sends ApiVersions at the highest version this module knows
// and, when the broker answers UNSUPPORTED_VERSION (KIP-511: a v0 answer
// listing the ApiVersions versions it serves), once more at the highest of
// those, or v0 when it lists none.
func (c *Conn) askVersions(ctx context.Context, cfg ConnConfig) error {
	req := generated.NewAPIVersionsRequest()
	req.ClientSoftwareName, req.ClientSoftwareVersion = cfg.SoftwareName, cfg.SoftwareVersion
	if req.ClientSoftwareName == "" {
		req.ClientSoftwareName = "kafkagen"
	}
	if req.ClientSoftwareVersion == "" {
		req.ClientSoftwareVersion = moduleVersion()
	}
	for field, v := range map[string]string{"SoftwareName": req.ClientSoftwareName, "SoftwareVersion": req.ClientSoftwareVersion} {
		if !softwareField.MatchString(v) {
			return fmt.Errorf("kafka conn: ConnConfig.%s %q: KIP-511 allows letters, digits, '-' and '.', starting and ending with a letter or digit", field, v)
		}
	}
	resp := generated.NewAPIVersionsResponse()
	v := req.MaxVersion()
	for retried := false; ; retried = true {
		if err := c.client.Do(ctx, req, v, resp); err != nil {
			return fmt.Errorf("kafka conn: ApiVersions v%d: %w", v, err)
		}
		if resp.ErrorCode != kerrors.UnsupportedVersion.Code || retried || v == 0 {
			break
		}
		next := int16(0)
		for _, k := range resp.APIKeys {
			if k.APIKey == generated.APIKeyAPIVersions && k.MaxVersion < v {
				next = max(k.MaxVersion, 0)
			}
		}
		v = next
	}
	ranges, err := BrokerVersions(resp)
	if err != nil {
		return fmt.Errorf("kafka conn: ApiVersions v%d: %w", v, err)
	}
	c.broker = make(map[int16]VersionRange, len(ranges))
	for _, r := range ranges {
		c.broker[r.APIKey] = r
	}
	c.ranges, c.avVersion = ranges, v
	return nil
}
