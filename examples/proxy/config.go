package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kafkagen/kafkagen/proxy/acl"
	"github.com/kafkagen/kafkagen/proxy/quota"
)

// fileConfig is kafkaproxy's configuration file (-config FILE): the keys of
// the flags, and the gateway's (README.md, "Configuration file"). Decoding is
// strict: a key not here is an error naming it and its line.
type fileConfig struct {
	Listen           string   `yaml:"listen"`
	Upstream         []string `yaml:"upstream"`
	RewriteAddresses *bool    `yaml:"rewriteAddresses"`
	TopicPrefix      string   `yaml:"topicPrefix"`
	AllowAPIs        []string `yaml:"allowApis"`
	Log              string   `yaml:"log"`

	// Identity and tenancy: parsed and checked here, served by the
	// identity layer (see identity.go).
	UpstreamSASL    *upstreamSASL    `yaml:"upstreamSASL"`
	UpstreamTLS     *tlsFiles        `yaml:"upstreamTLS"`
	TLS             *tlsFiles        `yaml:"tls"`
	SASL            *saslConfig      `yaml:"sasl"`
	VirtualClusters []virtualCluster `yaml:"virtualClusters"`
	// StandIn names the principal while no identity layer is plugged in.
	StandIn standInIdentity `yaml:"standInIdentity"`

	SuperUsers                []string     `yaml:"superUsers"`
	AllowEveryoneIfNoACLFound bool         `yaml:"allowEveryoneIfNoAclFound"`
	ACLs                      []aclEntry   `yaml:"acls"`
	Quotas                    []quotaEntry `yaml:"quotas"`
	Metrics                   string       `yaml:"metrics"`
}

type upstreamSASL struct {
	Mechanism string `yaml:"mechanism"`
	Username  string `yaml:"username"`
	Password  string `yaml:"password"`
}

type tlsFiles struct {
	CertFile   string `yaml:"certFile"`
	KeyFile    string `yaml:"keyFile"`
	CAFile     string `yaml:"caFile"`
	ServerName string `yaml:"serverName"`
}

type saslConfig struct {
	Mechanisms               []string          `yaml:"mechanisms"`
	Users                    map[string]string `yaml:"users"`
	UsersFile                string            `yaml:"usersFile"`
	AcceptRepeatedScramNonce bool              `yaml:"acceptRepeatedScramNonce"`
	OAuthBearer              *oauthBearer      `yaml:"oauthBearer"`
}

// oauthBearer is how OAUTHBEARER tokens are checked (jwt.go), the keys of
// the flags -oauth-keys, -oauth-audience and -oauth-issuer.
type oauthBearer struct {
	KeysFile string `yaml:"keysFile"`
	Audience string `yaml:"audience"`
	Issuer   string `yaml:"issuer"`
}

type virtualCluster struct {
	Name        string   `yaml:"name"`
	Principals  []string `yaml:"principals"`
	TopicPrefix string   `yaml:"topicPrefix"`
	Upstream    []string `yaml:"upstream"`
}

type standInIdentity struct {
	// Principal of every connection (default ANONYMOUS, Kafka's name for
	// an unauthenticated client).
	Principal string `yaml:"principal"`
	// PrincipalFromClientID takes each request's client id as its
	// principal: for tests only, since any client can claim any id.
	PrincipalFromClientID bool `yaml:"principalFromClientId"`
}

type aclEntry struct {
	Principal    string   `yaml:"principal"`
	ResourceType string   `yaml:"resourceType"`
	PatternType  string   `yaml:"patternType"`
	Name         string   `yaml:"name"`
	Operations   []string `yaml:"operations"`
	Permission   string   `yaml:"permission"`
}

type quotaEntry struct {
	Principal             string  `yaml:"principal"`
	VirtualCluster        string  `yaml:"virtualCluster"`
	ProduceBytesPerSecond float64 `yaml:"produceBytesPerSecond"`
	FetchBytesPerSecond   float64 `yaml:"fetchBytesPerSecond"`
	RequestPercentage     float64 `yaml:"requestPercentage"`
}

// saslMechanisms are the mechanisms the proxy may offer clients.
var saslMechanisms = []string{"PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER"}

// readConfig reads and checks a configuration file.
func readConfig(path string) (*fileConfig, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c, err := parseConfig(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// parseConfig decodes strictly and checks the result.
func parseConfig(data []byte) (*fileConfig, error) {
	var c fileConfig
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("the file is empty")
		}
		return nil, strictError(err)
	}
	var extra any
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, errors.New("more than one YAML document; give one")
	}
	if err := c.check(); err != nil {
		return nil, err
	}
	return &c, nil
}

// strictError rewords yaml's "field x not found in type main.fileConfig"
// as an unknown key.
func strictError(err error) error {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "yaml: unmarshal errors:\n  ")
	if i := strings.Index(msg, " not found in type "); i >= 0 {
		msg = strings.Replace(msg[:i], "field ", "unknown key ", 1)
	}
	return errors.New(msg)
}

// check validates every key, naming it in the error.
func (c *fileConfig) check() error {
	if c.Listen == "" || len(c.Upstream) == 0 {
		return errors.New("listen and upstream are required")
	}
	if _, port, err := net.SplitHostPort(c.Listen); err != nil || port == "0" && c.rewrite() {
		return fmt.Errorf("listen: %q: want HOST:PORT with a fixed port (node N is served on PORT+1+N)", c.Listen)
	}
	if err := checkAddrs("upstream", c.Upstream); err != nil {
		return err
	}
	if c.AllowAPIs != nil {
		if _, err := apiKeys(strings.Join(c.AllowAPIs, ",")); err != nil {
			return fmt.Errorf("allowApis: %w", err)
		}
	}
	if c.Metrics != "" {
		if _, _, err := net.SplitHostPort(c.Metrics); err != nil {
			return fmt.Errorf("metrics: %q is not HOST:PORT", c.Metrics)
		}
	}
	for _, check := range []func() error{c.checkIdentity, c.checkVirtualClusters} {
		if err := check(); err != nil {
			return err
		}
	}
	if _, err := c.policy(); err != nil {
		return err
	}
	_, err := c.quotaLimits()
	return err
}

func (c *fileConfig) rewrite() bool { return c.RewriteAddresses == nil || *c.RewriteAddresses }

func checkAddrs(key string, addrs []string) error {
	for i, a := range addrs {
		if _, _, err := net.SplitHostPort(a); err != nil {
			return fmt.Errorf("%s[%d]: %q is not HOST:PORT", key, i, a)
		}
	}
	return nil
}

// policy is the ACL part of the configuration.
func (c *fileConfig) policy() (acl.Policy, error) {
	p := acl.Policy{SuperUsers: c.SuperUsers, AllowEveryoneIfNoACLFound: c.AllowEveryoneIfNoACLFound}
	for i, e := range c.ACLs {
		a, err := e.acl()
		if err != nil {
			return p, fmt.Errorf("acls[%d]: %w", i, err)
		}
		p.ACLs = append(p.ACLs, a)
	}
	// The authorizer's own checks (principal, names, cluster name), with
	// the same key paths.
	_, err := acl.NewAuthorizer(p)
	return p, err
}

func (e aclEntry) acl() (acl.ACL, error) {
	a := acl.ACL{Principal: e.Principal, Name: e.Name}
	var err error
	if a.ResourceType, err = acl.ParseResourceType(e.ResourceType); err != nil {
		return a, fmt.Errorf("resourceType: %w", err)
	}
	if a.PatternType, err = acl.ParsePatternType(e.PatternType); err != nil {
		return a, fmt.Errorf("patternType: %w", err)
	}
	if a.Permission, err = acl.ParsePermission(e.Permission); err != nil {
		return a, fmt.Errorf("permission: %w", err)
	}
	for j, s := range e.Operations {
		o, err := acl.ParseOperation(s)
		if err != nil {
			return a, fmt.Errorf("operations[%d]: %w", j, err)
		}
		a.Operations = append(a.Operations, o)
	}
	return a, nil
}

// quotaLimits are the quotas by the key the quota filter counts under: the
// principal, or "virtualCluster:NAME" for a virtual cluster's shared one.
func (c *fileConfig) quotaLimits() (map[string]quota.Limits, error) {
	limits := map[string]quota.Limits{}
	for i, q := range c.Quotas {
		var key string
		switch {
		case q.Principal != "" && q.VirtualCluster != "":
			return nil, fmt.Errorf("quotas[%d]: give principal or virtualCluster, not both", i)
		case q.Principal != "":
			key = acl.PrincipalName(q.Principal)
		case q.VirtualCluster != "":
			if c.virtualCluster(q.VirtualCluster) == nil {
				return nil, fmt.Errorf("quotas[%d]: virtualCluster %q is not one of virtualClusters", i, q.VirtualCluster)
			}
			key = quotaKeyOfCluster(q.VirtualCluster)
		default:
			return nil, fmt.Errorf("quotas[%d]: give principal or virtualCluster", i)
		}
		if _, dup := limits[key]; dup {
			return nil, fmt.Errorf("quotas[%d]: a second quota for %s", i, key)
		}
		l := quota.Limits{ProduceBytesPerSecond: q.ProduceBytesPerSecond, FetchBytesPerSecond: q.FetchBytesPerSecond, RequestPercentage: q.RequestPercentage}
		if err := l.Check(); err != nil {
			return nil, fmt.Errorf("quotas[%d]: %w", i, err)
		}
		limits[key] = l
	}
	return limits, nil
}

func quotaKeyOfCluster(name string) string { return "virtualCluster:" + name }

func (c *fileConfig) virtualCluster(name string) *virtualCluster {
	for i := range c.VirtualClusters {
		if c.VirtualClusters[i].Name == name {
			return &c.VirtualClusters[i]
		}
	}
	return nil
}
