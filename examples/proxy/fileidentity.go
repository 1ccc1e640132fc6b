package main

import (
	"errors"
	"fmt"

	"github.com/kafkagen/kafkagen/proxy/gateway"
	"github.com/kafkagen/kafkagen/wire"
)

// gatewayOf turns the identity keys of a configuration file (tls, sasl,
// upstreamTLS, upstreamSASL, virtualClusters) into the gateway the flags
// build too (identity.go): with sasl, clients authenticate at the proxy and
// the policy filters see the authenticated principal; without it the
// stand-in identity of configidentity.go applies.
func (c *fileConfig) gatewayOf() (gateway.Config, error) {
	var g gateway.Config
	var err error
	if t := c.TLS; t != nil {
		if g.TLS, err = gateway.ServerTLS(t.CertFile, t.KeyFile); err != nil {
			return g, fmt.Errorf("tls: %w", err)
		}
	}
	if s := c.SASL; s != nil {
		passwords, err := c.saslUsers()
		if err != nil {
			return g, err
		}
		// The keys are derived once here; SIGHUP replaces them
		// (policy.go).
		users, err := gateway.NewUsers(passwords)
		if err != nil {
			return g, fmt.Errorf("sasl: %w", err)
		}
		g.SASL = &gateway.SASL{Store: users, Mechanisms: s.Mechanisms, AcceptRepeatedScramNonce: s.AcceptRepeatedScramNonce}
		v, err := c.oauthValidator()
		if err != nil {
			return g, err
		}
		if v != nil {
			g.SASL.OAuthBearer = v.validate
		}
	}
	if t := c.UpstreamTLS; t != nil {
		if t.CertFile != "" {
			return g, errors.New("upstreamTLS: a client certificate (certFile, keyFile) toward the brokers is not supported yet: give caFile only")
		}
		if g.UpstreamTLS, err = gateway.ClientTLS(t.CAFile); err != nil {
			return g, fmt.Errorf("upstreamTLS: %w", err)
		}
		if t.ServerName != "" {
			g.UpstreamTLS.ServerName = t.ServerName
		}
	}
	if u := c.UpstreamSASL; u != nil {
		switch u.Mechanism {
		case wire.SASLPlain:
			g.UpstreamSASL = wire.PlainAuth(u.Username, u.Password)
		case wire.SASLScramSHA256:
			g.UpstreamSASL, err = wire.ScramSHA256Auth(u.Username, u.Password)
		case wire.SASLScramSHA512:
			g.UpstreamSASL, err = wire.ScramSHA512Auth(u.Username, u.Password)
		}
		if err != nil {
			return g, fmt.Errorf("upstreamSASL: %w", err)
		}
	}
	for _, vc := range c.VirtualClusters {
		if len(vc.Upstream) > 0 {
			return g, fmt.Errorf("virtualClusters %s: upstream: a cluster's own upstream is not supported yet (every cluster uses upstream)", vc.Name)
		}
		if vc.TopicPrefix == "" {
			continue // a cluster for metrics and shared quotas only
		}
		g.VirtualClusters = append(g.VirtualClusters, gateway.VirtualCluster{Name: vc.Name, TopicPrefix: vc.TopicPrefix, Principals: vc.Principals})
	}
	if len(g.VirtualClusters) > 0 && g.SASL == nil {
		return g, errors.New("virtualClusters with a topicPrefix need authenticated principals: give sasl")
	}
	return g, nil
}
