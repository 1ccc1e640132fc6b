package proxy

import (
	"crypto/tls"
	"errors"
	"fmt"
	"github.com/kafkagen/kafkagen/wire"
	"log"
	"net"
	"strconv"
	"time"

	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/frames"
)

// Timeouts bound how long a connection waits on its peers.
type Timeouts struct {
	// Dial bounds connecting to a broker (default 10s).
	Dial time.Duration
	// Read bounds each read of a frame the proxy reads whole, for the
	// filters (default 30s): a peer that stops sending inside one is cut
	// off before it holds the frame's buffer for long. A frame relayed as
	// bytes holds nothing but the fixed buffer, and is bounded by Idle.
	Read time.Duration
	// Write bounds each write (default 30s): a peer that stops reading
	// is cut off instead of holding the proxy's buffers.
	Write time.Duration
	// Idle bounds the wait for the next frame, and for more of a frame
	// relayed as bytes (default 10 minutes, Kafka's
	// connections.max.idle.ms).
	Idle time.Duration
	// Auth bounds a client's TLS handshake and SASL authentication, from
	// its connection to its last SaslAuthenticate (default 10s): a client
	// that never finishes is cut off.
	Auth time.Duration
}

// Config configures a Proxy.
type Config struct {
	// Listen is the bootstrap address, HOST:PORT. With RewriteAddresses,
	// the broker with node id N is served on port PORT+1+N of the same
	// host, so PORT must be fixed (not 0) and the ports above it free.
	Listen string
	// Upstream lists the brokers to bootstrap from, HOST:PORT; connections
	// to the bootstrap port go to the first that answers, in turn.
	Upstream []string
	// NewRequest and NewResponse are a generated package's: the proxy
	// decodes what it and its filters need with them, and advertises only
	// the apis and versions they read. Required. The package must hold
	// ApiVersions, and with RewriteAddresses Metadata and FindCoordinator
	// (New refuses it otherwise); Kafka's clients also need Metadata to
	// start, and whatever apis they use.
	NewRequest, NewResponse func(apiKey int16) runtime.APIMessage
	// RewriteAddresses replaces the broker addresses of responses with the
	// proxy's own (Listen's host, a port per node id), so that clients
	// reach every broker through the proxy. The real addresses are learned
	// from the responses before they are rewritten.
	RewriteAddresses bool
	// EndpointAPIs are the api keys whose responses the address rewriting
	// decodes; nil means DefaultEndpointAPIs.
	EndpointAPIs []int16
	// Filters see the requests and responses they ask for, requests in
	// order and responses in reverse order.
	Filters []Filter
	// MaxFrameSize is the largest request accepted and the largest frame
	// decoded (default frames.DefaultMaxFrameSize); responses relayed
	// undecoded may be longer.
	MaxFrameSize int
	// MaxInFlight bounds the requests of one connection waiting for their
	// responses (default 1000): past it the proxy stops reading the client.
	MaxInFlight int
	Timeouts    Timeouts
	// Bridge, when set, translates requests at versions the broker does
	// not serve (package proxy/bridge); the proxy then asks each broker
	// connection's versions before relaying anything on it.
	Bridge Bridge
	// Logger receives one line per connection that ends with an error,
	// saying what happened and what to check; nil logs to standard error
	// (log.Default()). To discard them, give log.New(io.Discard, "", 0).
	Logger *log.Logger

	// Identity (identity.go). TLS, when set, runs TLS toward clients on
	// every port. SASL, when set, authenticates clients at the proxy: a
	// client's bytes reach a broker only once it has authenticated, its
	// SASL frames (KIP-368 re-authentications included) never do, and
	// ConnInfo.Principal names it to the filters.
	TLS  *tls.Config
	SASL *wire.SASLConfig
	// UpstreamTLS and UpstreamSASL are how the proxy connects to the
	// brokers, with its own credentials (upstream.go).
	UpstreamTLS  *tls.Config
	UpstreamSASL wire.SASLMechanism
	// OnAdmit, when set, is told of each client connection's admission:
	// err nil once it authenticated (info.Principal set; at once without
	// TLS and SASL), else why it was refused (for metrics of
	// authentication failures).
	OnAdmit func(info *ConnInfo, err error)
	// Observer, when set, sees every connection and exchange (metrics).
	Observer Observer
}

// DefaultEndpointAPIs are the api keys of Kafka 4.0 whose responses carry
// broker addresses (a node id, a string host and an int32 port): Produce,
// Fetch, Metadata, FindCoordinator, DescribeCluster, ShareFetch,
// ShareAcknowledge and UpdateRaftVoter. The raft apis between controllers
// (Vote, BeginQuorumEpoch, EndQuorumEpoch, DescribeQuorum, FetchSnapshot)
// give listeners with uint16 ports, which runtime.Endpoints does not visit
// and clients do not connect to.
var DefaultEndpointAPIs = []int16{0, 1, 3, 10, 60, 78, 79, 82}

// withDefaults fills in the zero values and checks what must be given.
func (c Config) withDefaults() (Config, error) {
	if c.NewRequest == nil || c.NewResponse == nil {
		return c, errors.New("proxy: Config.NewRequest and NewResponse are required (a generated package's)")
	}
	if len(c.Upstream) == 0 {
		return c, errors.New("proxy: Config.Upstream lists no broker")
	}
	for _, u := range c.Upstream {
		if _, _, err := net.SplitHostPort(u); err != nil {
			return c, fmt.Errorf("proxy: upstream %q: %w", u, err)
		}
	}
	host, port, err := net.SplitHostPort(c.Listen)
	if err != nil {
		return c, fmt.Errorf("proxy: listen address %q: %w", c.Listen, err)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return c, fmt.Errorf("proxy: listen address %q: port %q is not a number from 0 to 65535", c.Listen, port)
	} else if n == 0 && c.RewriteAddresses {
		return c, fmt.Errorf("proxy: listen address %q: address rewriting serves node N on port PORT+1+N, so PORT cannot be 0", c.Listen)
	}
	if host == "" {
		return c, fmt.Errorf("proxy: listen address %q: give the host clients reach the proxy at (such as 127.0.0.1)", c.Listen)
	}
	if c.Logger == nil {
		c.Logger = log.Default()
	}
	if c.EndpointAPIs == nil {
		c.EndpointAPIs = DefaultEndpointAPIs
	}
	if c.MaxFrameSize <= 0 {
		c.MaxFrameSize = frames.DefaultMaxFrameSize
	}
	if c.MaxInFlight <= 0 {
		c.MaxInFlight = 1000
	}
	c.Timeouts.Dial = orDefault(c.Timeouts.Dial, 10*time.Second)
	c.Timeouts.Read = orDefault(c.Timeouts.Read, 30*time.Second)
	c.Timeouts.Write = orDefault(c.Timeouts.Write, 30*time.Second)
	c.Timeouts.Idle = orDefault(c.Timeouts.Idle, 10*time.Minute)
	c.Timeouts.Auth = orDefault(c.Timeouts.Auth, 10*time.Second)
	if c.SASL != nil {
		if _, err := wire.NewSASLSession(c.SASL, nil); err != nil {
			return c, fmt.Errorf("proxy: SASL: %w", err)
		}
	}
	return c, nil
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}
