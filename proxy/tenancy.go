package proxy

import (
	"errors"
	"fmt"
)

// VirtualCluster is what a principal sees of the brokers: a name (for
// logs, metrics and policies) and the Tenant that keeps it to its topics,
// groups, transactional ids and topic ids.
type VirtualCluster struct {
	Name   string
	Tenant *Tenant
}

// VirtualClusters is a filter that serves each connection as the virtual
// cluster of its authenticated principal (ConnInfo.Principal, Config.SASL):
// everything Tenant does, chosen per connection. A connection whose
// principal has no virtual cluster is closed at its first request that the
// tenants decode, unless Default is set.
type VirtualClusters struct {
	byPrincipal map[string]*VirtualCluster
	clusters    []*VirtualCluster
	// Default, when set, serves the principals that map to no cluster.
	Default *VirtualCluster
}

// NewVirtualClusters maps each principal of principals (principal to
// cluster name) to its cluster of clusters; a principal naming no cluster,
// and two clusters of one name, are errors.
func NewVirtualClusters(clusters []*VirtualCluster, principals map[string]string) (*VirtualClusters, error) {
	v := &VirtualClusters{byPrincipal: map[string]*VirtualCluster{}, clusters: clusters}
	byName := map[string]*VirtualCluster{}
	for _, c := range clusters {
		if c.Name == "" || c.Tenant == nil {
			return nil, fmt.Errorf("proxy: virtual cluster %q: a name and a Tenant are required", c.Name)
		}
		if byName[c.Name] != nil {
			return nil, fmt.Errorf("proxy: two virtual clusters named %q", c.Name)
		}
		byName[c.Name] = c
	}
	for principal, name := range principals {
		c, ok := byName[name]
		if !ok {
			return nil, fmt.Errorf("proxy: principal %q maps to virtual cluster %q, which is not configured", principal, name)
		}
		v.byPrincipal[principal] = c
	}
	return v, nil
}

// Lookup returns the virtual cluster of principal.
func (v *VirtualClusters) Lookup(principal string) (*VirtualCluster, bool) {
	if c, ok := v.byPrincipal[principal]; ok {
		return c, true
	}
	return v.Default, v.Default != nil
}

// errNoVirtualCluster closes a connection whose principal has none.
var errNoVirtualCluster = errors.New("the principal maps to no virtual cluster")

func (v *VirtualClusters) tenant(x *Exchange) (*Tenant, error) {
	c, ok := v.Lookup(x.Conn.Principal)
	if !ok {
		return nil, fmt.Errorf("principal %q: %w", x.Conn.Principal, errNoVirtualCluster)
	}
	return c.Tenant, nil
}

// Wants what any of the tenants wants (they differ only by prefix, in
// practice).
func (v *VirtualClusters) Wants(key, version int16) (requests, responses bool) {
	for _, c := range v.clusters {
		req, resp := c.Tenant.Wants(key, version)
		requests, responses = requests || req, responses || resp
	}
	return requests, responses
}

// Request is the request side of the principal's Tenant.
func (v *VirtualClusters) Request(x *Exchange) error {
	t, err := v.tenant(x)
	if err != nil {
		return err
	}
	return t.Request(x)
}

// Response is the response side of the principal's Tenant.
func (v *VirtualClusters) Response(x *Exchange) error {
	t, err := v.tenant(x)
	if err != nil {
		return err
	}
	return t.Response(x)
}
