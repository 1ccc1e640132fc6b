// Package gateway configures a proxy.Proxy as a multi-tenant gateway: TLS
// toward clients, SASL terminated at the proxy (PLAIN, SCRAM-SHA-256/512,
// OAUTHBEARER), the proxy's own login to the brokers, and virtual clusters
// chosen by the authenticated principal. A configuration file or flags
// fill Config; Apply turns it into the proxy's settings and filters.
package gateway

import (
	"crypto/tls"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/kafkagen/kafkagen/proxy"
	"github.com/kafkagen/kafkagen/wire"
)

// Config is a gateway's identity and tenancy.
type Config struct {
	// TLS toward clients (LoadTLS makes one from files); nil: plaintext.
	TLS *tls.Config
	// SASL authenticates clients at the proxy; nil: no authentication
	// (and no principal: only a Default virtual cluster serves).
	SASL *SASL
	// UpstreamTLS and UpstreamSASL are the proxy's own way to the brokers.
	UpstreamTLS  *tls.Config
	UpstreamSASL wire.SASLMechanism
	// VirtualClusters: each principal of a cluster sees that cluster only.
	VirtualClusters []VirtualCluster
	// AuthTimeout bounds a client's TLS handshake and authentication
	// (proxy.Timeouts.Auth; 0: its default).
	AuthTimeout time.Duration
}

// SASL is the authentication of clients.
type SASL struct {
	// Mechanisms enabled, in the order SaslHandshake lists them. Empty:
	// PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512 when Users are set, and
	// OAUTHBEARER when OAuthBearer is.
	Mechanisms []string
	// Users are user names with their passwords. Apply keeps only what
	// SCRAM stores (salted keys, Users), never the password itself, and
	// checks PLAIN passwords against that too.
	Users map[string]string
	// Store, when set, takes the place of Users: credentials already
	// derived (NewUsers) that the caller can replace while the proxy runs
	// (Users.Replace, on a configuration reload).
	Store *Users
	// OAuthBearer validates an OAUTHBEARER token and returns its principal
	// and expiry (wire.SASLConfig.OAuthBearer).
	OAuthBearer func(token string) (principal string, expires time.Time, err error)
	// AcceptRepeatedScramNonce: see wire.SASLConfig; off by default.
	AcceptRepeatedScramNonce bool
	// MaxReauth is connections.max.reauth.ms (KIP-368); 0: sessions do
	// not expire.
	MaxReauth time.Duration
}

// VirtualCluster is a tenant: the principals it serves and the prefix of
// its topics, group ids and transactional ids at the brokers.
type VirtualCluster struct {
	Name        string
	Principals  []string
	TopicPrefix string
}

// Apply sets cfg's identity fields and returns the virtual clusters'
// filter, to put in cfg.Filters where tenancy belongs (after logging and
// authorization, before nothing that needs the tenant's names).
// newTenant makes a Tenant with the typed hooks of the generated package.
func (c Config) Apply(cfg *proxy.Config, newTenant func(prefix string) *proxy.Tenant) (*proxy.VirtualClusters, error) {
	cfg.TLS, cfg.UpstreamTLS, cfg.UpstreamSASL = c.TLS, c.UpstreamTLS, c.UpstreamSASL
	if c.AuthTimeout > 0 {
		cfg.Timeouts.Auth = c.AuthTimeout
	}
	if c.SASL != nil {
		sasl, err := c.SASL.config()
		if err != nil {
			return nil, err
		}
		cfg.SASL = sasl
	}
	if len(c.VirtualClusters) == 0 {
		return nil, nil
	}
	var clusters []*proxy.VirtualCluster
	principals := map[string]string{}
	for _, vc := range c.VirtualClusters {
		if vc.TopicPrefix == "" {
			return nil, fmt.Errorf("gateway: virtual cluster %q: topicPrefix is required", vc.Name)
		}
		clusters = append(clusters, &proxy.VirtualCluster{Name: vc.Name, Tenant: newTenant(vc.TopicPrefix)})
		for _, p := range vc.Principals {
			if other, dup := principals[p]; dup {
				return nil, fmt.Errorf("gateway: principal %q is in virtual clusters %q and %q", p, other, vc.Name)
			}
			principals[p] = vc.Name
		}
	}
	for i, a := range c.VirtualClusters {
		for _, b := range c.VirtualClusters[i+1:] {
			if prefixes(a.TopicPrefix, b.TopicPrefix) {
				return nil, fmt.Errorf("gateway: virtual clusters %q and %q: prefix %q and %q overlap, so one would see the other's topics",
					a.Name, b.Name, a.TopicPrefix, b.TopicPrefix)
			}
		}
	}
	return proxy.NewVirtualClusters(clusters, principals)
}

// prefixes reports whether one of a and b starts with the other.
func prefixes(a, b string) bool {
	return len(a) <= len(b) && b[:len(a)] == a || len(b) < len(a) && a[:len(b)] == b
}

// config is the wire's SASL configuration of s.
func (s *SASL) config() (*wire.SASLConfig, error) {
	out := &wire.SASLConfig{Mechanisms: slices.Clone(s.Mechanisms), OAuthBearer: s.OAuthBearer,
		AcceptRepeatedScramNonce: s.AcceptRepeatedScramNonce, MaxReauth: s.MaxReauth}
	users := s.Store
	if users == nil && len(s.Users) > 0 {
		var err error
		if users, err = NewUsers(s.Users); err != nil {
			return nil, err
		}
	}
	if users != nil {
		out.Plain, out.Scram = users.Plain, users.Scram
	}
	if len(out.Mechanisms) == 0 {
		if users != nil && users.Len() > 0 {
			out.Mechanisms = append(out.Mechanisms, wire.SASLPlain, wire.SASLScramSHA256, wire.SASLScramSHA512)
		}
		if s.OAuthBearer != nil {
			out.Mechanisms = append(out.Mechanisms, wire.SASLOAuthBearer)
		}
	}
	if len(out.Mechanisms) == 0 {
		return nil, errors.New("gateway: SASL enables no mechanism: give users, an OAUTHBEARER check, or both")
	}
	if _, err := wire.NewSASLSession(out, nil); err != nil {
		return nil, fmt.Errorf("gateway: %w", err)
	}
	return out, nil
}
