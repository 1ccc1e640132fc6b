package main

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kafkagen/kafkagen/proxy"
	"github.com/kafkagen/kafkagen/proxy/acl"
	"github.com/kafkagen/kafkagen/wire"
)

// The identity keys of a configuration file: this file checks them (so a
// configuration is refused whole and early) and names each exchange's
// principal; fileidentity.go turns them into the gateway the flags build
// too. With sasl, the principal is the user the client authenticated as;
// without it, the stand-in identity (standInIdentity) names one.

// anonymous is Kafka's principal of an unauthenticated client.
const anonymous = "ANONYMOUS"

// principalOf is the principal function the policy filters share.
func (c *fileConfig) principalOf() func(*proxy.Exchange) string {
	if c.SASL != nil {
		// The user the client authenticated as at the proxy
		// (fileidentity.go).
		return func(x *proxy.Exchange) string { return acl.PrincipalName(x.Conn.Principal) }
	}
	if c.StandIn.PrincipalFromClientID {
		return func(x *proxy.Exchange) string { return x.Header.ClientID.Value }
	}
	p := c.StandIn.Principal
	if p == "" {
		p = anonymous
	}
	p = acl.PrincipalName(p)
	return func(*proxy.Exchange) string { return p }
}

// clusterOf is the virtual cluster of a principal ("" for none).
func (c *fileConfig) clusterOf(principal string) string {
	for _, vc := range c.VirtualClusters {
		if slices.Contains(vc.Principals, principal) {
			return vc.Name
		}
	}
	return ""
}

// checkIdentity checks the keys of TLS, SASL and the upstream login.
func (c *fileConfig) checkIdentity() error {
	if c.StandIn.PrincipalFromClientID && c.StandIn.Principal != "" {
		return errors.New("standInIdentity: give principal or principalFromClientId, not both")
	}
	if t := c.TLS; t != nil {
		if t.CertFile == "" || t.KeyFile == "" {
			return errors.New("tls: certFile and keyFile are required")
		}
		if err := filesExist("tls", t); err != nil {
			return err
		}
	}
	if t := c.UpstreamTLS; t != nil {
		if (t.CertFile == "") != (t.KeyFile == "") {
			return errors.New("upstreamTLS: give certFile and keyFile together (a client certificate), or neither")
		}
		if err := filesExist("upstreamTLS", t); err != nil {
			return err
		}
	}
	if u := c.UpstreamSASL; u != nil {
		if !slices.Contains(saslMechanisms[:3], u.Mechanism) {
			return fmt.Errorf("upstreamSASL.mechanism: %q is not one of PLAIN, SCRAM-SHA-256, SCRAM-SHA-512", u.Mechanism)
		}
		if u.Username == "" || u.Password == "" {
			return errors.New("upstreamSASL: username and password are required")
		}
	}
	if s := c.SASL; s != nil {
		if len(s.Mechanisms) == 0 {
			return fmt.Errorf("sasl.mechanisms: list one or more of %s", strings.Join(saslMechanisms, ", "))
		}
		for i, m := range s.Mechanisms {
			if !slices.Contains(saslMechanisms, m) {
				return fmt.Errorf("sasl.mechanisms[%d]: %q is not one of %s", i, m, strings.Join(saslMechanisms, ", "))
			}
		}
		if s.Users != nil && s.UsersFile != "" {
			return errors.New("sasl: give users or usersFile, not both")
		}
		if _, err := c.saslUsers(); err != nil {
			return err
		}
		if _, err := c.oauthValidator(); err != nil {
			return err
		}
	}
	return nil
}

// oauthValidator is the token check of sasl.oauthBearer (jwt.go), nil
// without it. The key and OAUTHBEARER among sasl.mechanisms go together: a
// mechanism with no check could not start, and a check no mechanism serves
// would be a setting that silently does nothing. The keys file is read
// here, so a file naming a missing or bad one is refused before the proxy
// starts; a reload does not read it again (a restart key).
func (c *fileConfig) oauthValidator() (*jwtValidator, error) {
	s := c.SASL
	if s == nil {
		return nil, nil
	}
	listed := slices.Contains(s.Mechanisms, wire.SASLOAuthBearer)
	o := s.OAuthBearer
	switch {
	case o == nil && listed:
		return nil, errors.New("sasl.mechanisms: OAUTHBEARER needs sasl.oauthBearer {keysFile, audience, issuer}")
	case o == nil:
		return nil, nil
	case !listed:
		return nil, errors.New("sasl.oauthBearer: OAUTHBEARER is not in sasl.mechanisms")
	case o.KeysFile == "":
		return nil, errors.New("sasl.oauthBearer.keysFile: required (PEM public keys the tokens are signed with)")
	case o.Audience == "":
		return nil, errors.New("sasl.oauthBearer.audience: required: a token for another service must not log in here")
	}
	v, err := loadJWTValidator(o.KeysFile, o.Audience, o.Issuer)
	if err != nil {
		return nil, fmt.Errorf("sasl.oauthBearer.keysFile: %w", err)
	}
	return v, nil
}

// saslUsers are the users and passwords of sasl.users or sasl.usersFile (a
// YAML map of the same form), read again at each reload.
func (c *fileConfig) saslUsers() (map[string]string, error) {
	s := c.SASL
	if s == nil || s.UsersFile == "" {
		if s != nil {
			return s.Users, nil
		}
		return nil, nil
	}
	data, err := os.ReadFile(s.UsersFile)
	if err != nil {
		return nil, fmt.Errorf("sasl.usersFile: %w", err)
	}
	var users map[string]string
	if err := yaml.Unmarshal(data, &users); err != nil {
		return nil, fmt.Errorf("sasl.usersFile %s: want a map of user to password: %w", s.UsersFile, err)
	}
	return users, nil
}

func filesExist(key string, t *tlsFiles) error {
	for _, f := range []struct{ name, path string }{{"certFile", t.CertFile}, {"keyFile", t.KeyFile}, {"caFile", t.CAFile}} {
		if f.path == "" {
			continue
		}
		if _, err := os.Stat(f.path); err != nil {
			return fmt.Errorf("%s.%s: %w", key, f.name, err)
		}
	}
	return nil
}

// checkVirtualClusters: names given and distinct, each principal in one
// cluster, and no prefix that another begins with (its tenant would see the
// other's topics).
func (c *fileConfig) checkVirtualClusters() error {
	if len(c.VirtualClusters) > 0 && c.TopicPrefix != "" {
		return errors.New("topicPrefix and virtualClusters: give one (a virtual cluster has its own topicPrefix)")
	}
	owner := map[string]string{}
	for i, vc := range c.VirtualClusters {
		key := fmt.Sprintf("virtualClusters[%d]", i)
		if vc.Name == "" || vc.TopicPrefix == "" {
			return fmt.Errorf("%s: name and topicPrefix are required", key)
		}
		if c.virtualCluster(vc.Name) != &c.VirtualClusters[i] {
			return fmt.Errorf("%s: name %q is given twice", key, vc.Name)
		}
		for _, p := range vc.Principals {
			if other, ok := owner[p]; ok {
				return fmt.Errorf("%s: principal %q is already in virtual cluster %q", key, p, other)
			}
			owner[p] = vc.Name
		}
		for _, other := range c.VirtualClusters[:i] {
			if strings.HasPrefix(vc.TopicPrefix, other.TopicPrefix) || strings.HasPrefix(other.TopicPrefix, vc.TopicPrefix) {
				return fmt.Errorf("%s: topicPrefix %q overlaps %q of virtual cluster %q", key, vc.TopicPrefix, other.TopicPrefix, other.Name)
			}
		}
		if err := checkAddrs(key+".upstream", vc.Upstream); err != nil {
			return err
		}
	}
	return nil
}
