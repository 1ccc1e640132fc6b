package main

import (
	"fmt"
	"log"
	"reflect"
	"strings"
	"sync/atomic"

	"github.com/kafkagen/kafkagen/proxy"
	"github.com/kafkagen/kafkagen/proxy/acl"
	"github.com/kafkagen/kafkagen/proxy/gateway"
	"github.com/kafkagen/kafkagen/proxy/quota"
)

// policyGateway is what a configuration file adds to the proxy: authorization,
// quotas and metrics, with the users, ACLs and quotas reloaded on SIGHUP
// while connections stay up.
type policyGateway struct {
	path    string
	logger  *log.Logger
	cfg     atomic.Pointer[fileConfig]
	users   *gateway.Users // sasl's, authenticating clients; nil without sasl
	auth    *acl.Authorizer
	quotas  *quota.Quotas
	metrics *metrics
	// principal names an exchange's principal (configidentity.go); not reloaded.
	principal func(*proxy.Exchange) string
}

// newGateway makes the policy part of a configuration file's proxy; users
// are the credentials its SASL layer authenticates against (nil without
// sasl), which a reload replaces.
func newGateway(path string, c *fileConfig, users *gateway.Users, logger *log.Logger) (*policyGateway, error) {
	g := &policyGateway{path: path, logger: logger, principal: c.principalOf(), users: users}
	policy, err := c.policy()
	if err != nil {
		return nil, err
	}
	if g.auth, err = acl.NewAuthorizer(policy); err != nil {
		return nil, err
	}
	limits, err := c.quotaLimits()
	if err != nil {
		return nil, err
	}
	if g.quotas, err = quota.New(limits); err != nil {
		return nil, err
	}
	g.cfg.Store(c)
	g.metrics = newMetrics(g.clusterOfConn, g.clusterOfKey)
	return g, nil
}

// filters are the authorization filter, then the quota filter; both go
// before the tenant's, which prefixes the names they check.
func (g *policyGateway) filters() ([]proxy.Filter, error) {
	auth, err := acl.NewFilter(g.auth, g.principal, aclTyped())
	if err != nil {
		return nil, err
	}
	auth.OnRefuse = func(x *proxy.Exchange, code int16) { g.metrics.refused(g.principal(x), x.Header.APIKey, code) }
	quotas, err := quota.NewFilter(g.quotas, g.quotaKey)
	if err != nil {
		return nil, err
	}
	quotas.OnThrottle = g.metrics.throttled
	return []proxy.Filter{auth, quotas}, nil
}

// quotaKey is what an exchange's use counts against: its virtual cluster's
// shared quota when there is one, else its principal's.
func (g *policyGateway) quotaKey(x *proxy.Exchange) string {
	p := g.principal(x)
	c := g.cfg.Load()
	if vc := c.clusterOf(p); vc != "" {
		for _, q := range c.Quotas {
			if q.VirtualCluster == vc {
				return quotaKeyOfCluster(vc)
			}
		}
	}
	return p
}

// clusterOfKey is the virtual cluster label of a principal or quota key.
func (g *policyGateway) clusterOfKey(key string) string {
	if vc, ok := strings.CutPrefix(key, quotaKeyOfCluster("")); ok {
		return vc
	}
	return g.cfg.Load().clusterOf(key)
}

// clusterOfConn is a connection's virtual cluster label: known only for
// the stand-in's fixed principal until the identity layer names the
// principal of each connection.
func (g *policyGateway) clusterOfConn(*proxy.ConnInfo) string {
	c := g.cfg.Load()
	if c.StandIn.PrincipalFromClientID {
		return ""
	}
	p := c.StandIn.Principal
	if p == "" {
		p = anonymous
	}
	return c.clusterOf(acl.PrincipalName(p))
}

// reload reads the file again and applies its users, ACLs and quotas; on
// any error it keeps all of the old ones. Keys that need a restart are
// logged when they changed.
func (g *policyGateway) reload() error {
	c, err := readConfig(g.path)
	if err != nil {
		return err
	}
	policy, _ := c.policy() // checked by readConfig
	limits, _ := c.quotaLimits()
	// Derive the new users' keys first: a password that cannot be used
	// refuses the whole reload.
	var users *gateway.Users
	if g.users != nil && c.SASL != nil {
		passwords, err := c.saslUsers()
		if err != nil {
			return err
		}
		if users, err = gateway.NewUsers(passwords); err != nil {
			return fmt.Errorf("sasl: %w", err)
		}
	}
	if err := g.auth.Reload(policy); err != nil {
		return err
	}
	if err := g.quotas.Reload(limits); err != nil {
		return err
	}
	n := 0
	if users != nil {
		g.users.Replace(users)
		n = users.Len()
	}
	old := g.cfg.Swap(c)
	if changed := restartKeys(old, c); changed != "" {
		g.logger.Printf("reload: %s changed; that needs a restart, the old value stays in force", changed)
	}
	g.logger.Printf("reload: %d users, %d ACLs, %d quotas from %s", n, len(policy.ACLs), len(limits), g.path)
	return nil
}

// restartKeys names the keys of a reloaded file that only a restart applies.
func restartKeys(old, c *fileConfig) string {
	var keys []string
	for _, k := range []struct {
		name string
		a, b any
	}{
		{"listen", old.Listen, c.Listen}, {"upstream", old.Upstream, c.Upstream}, {"metrics", old.Metrics, c.Metrics},
		{"topicPrefix", old.TopicPrefix, c.TopicPrefix}, {"allowApis", old.AllowAPIs, c.AllowAPIs}, {"log", old.Log, c.Log},
		{"tls", old.TLS, c.TLS}, {"upstreamTLS", old.UpstreamTLS, c.UpstreamTLS}, {"upstreamSASL", old.UpstreamSASL, c.UpstreamSASL},
		{"standInIdentity", old.StandIn, c.StandIn}, {"virtualClusters", old.VirtualClusters, c.VirtualClusters},
		{"sasl (but its users)", saslServing(old.SASL), saslServing(c.SASL)},
	} {
		if !reflect.DeepEqual(k.a, k.b) {
			keys = append(keys, k.name)
		}
	}
	return strings.Join(keys, ", ")
}

// saslServing is what of the sasl key a restart applies: whether it is
// there, its mechanisms, the nonce exception and the OAUTHBEARER check;
// the users are reloaded.
func saslServing(s *saslConfig) any {
	if s == nil {
		return nil
	}
	return saslConfig{Mechanisms: s.Mechanisms, AcceptRepeatedScramNonce: s.AcceptRepeatedScramNonce, OAuthBearer: s.OAuthBearer}
}
