package main

import (
	"crypto/rand"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kafkagen/kafkagen/wire"

	"github.com/kafkagen/kafkagen/interop/internal/scenario"
)

// The gateway run's tenants: one virtual cluster per real client run, and
// six more: three for the attacks, two for the quota run and one that logs
// in with OAUTHBEARER. Each tenant's user (or token subject) is its name,
// and its cluster's topics are under "<name>." at the broker.
const (
	// tenantA owns the topic the others attack.
	tenantA = "tenant-a"
	// tenantB attacks it. Both are super users, so the ACL filter lets
	// everything through and the virtual clusters alone must hold: they
	// also keep Fetch v13+ and DeleteTopics v6+, the versions naming topics
	// by id, which the ACL filter refuses to everyone else.
	tenantB = "tenant-b"
	// tenantNobody has no ACL at all: Kafka's authorizer refuses it
	// everything (allowEveryoneIfNoAclFound is false).
	tenantNobody = "nobody"
	// gatewayUpstreamUser is the proxy's own user at the broker, the only
	// one the broker knows.
	gatewayUpstreamUser = "kafkaproxy"
	// tenantThrottled has a produce quota (quotaLimit) and produces flat
	// out beside tenantFullSpeed, which has none (gateway_quota.go).
	tenantThrottled = "quota-held"
	tenantFullSpeed = "full-speed"
	// tenantOAuth has no password: it logs in with an OAUTHBEARER token
	// whose subject it is (gateway_oauth.go).
	tenantOAuth = "oauth-user"
)

// gatewayRuns are the real clients' runs through the gateway, all over
// SASL_SSL, each in a virtual cluster of its own. kcat runs SCRAM-SHA-512
// too: librdkafka 2.0.2 repeats its client nonce, which the example broker
// refuses and the gateway accepts with acceptRepeatedScramNonce.
var gatewayRuns = []securedRun{
	{"kcat", scenario.SASLSSL, scenario.Plain},
	{"kcat", scenario.SASLSSL, scenario.ScramSHA512},
	{"kafka-python", scenario.SASLSSL, scenario.Plain},
	{"kafkajs", scenario.SASLSSL, scenario.ScramSHA256},
	{"franz-go", scenario.SASLSSL, scenario.ScramSHA512},
	{"sarama", scenario.SASLSSL, scenario.ScramSHA256},
	{"kafka-go", scenario.SASLSSL, scenario.Plain},
}

// gatewayTenant is one principal of the gateway with its virtual cluster.
type gatewayTenant struct {
	Name string // the user, the virtual cluster and, with ".", its prefix
	// Password is made per run; "" for a tenant that can log in with an
	// OAUTHBEARER token only (no SASL user).
	Password string
	Run      *securedRun // the client run in this cluster; nil for the others
	// OwnACLs: every operation on every topic, group and transactional id
	// of its cluster and on the cluster.
	OwnACLs bool
	// ProduceQuota is its produce quota in bytes per second; 0: none.
	ProduceQuota float64
}

// Prefix is the tenant's topic prefix at the broker.
func (t gatewayTenant) Prefix() string { return t.Name + "." }

// tenantName names the virtual cluster of a client run:
// "kafkajs-scram-sha-256".
func tenantName(r securedRun) string {
	return r.Client + "-" + strings.ToLower(r.Mechanism)
}

// gatewayTenants are the tenants of runs, the three attack tenants, the
// two of the quota run and the OAUTHBEARER one, each with a fresh password
// but the last.
func gatewayTenants(runs []securedRun) []gatewayTenant {
	var out []gatewayTenant
	for i := range runs {
		out = append(out, gatewayTenant{Name: tenantName(runs[i]), Password: rand.Text(), Run: &runs[i], OwnACLs: true})
	}
	for _, name := range []string{tenantA, tenantB, tenantNobody} {
		out = append(out, gatewayTenant{Name: name, Password: rand.Text()})
	}
	return append(out,
		gatewayTenant{Name: tenantThrottled, Password: rand.Text(), OwnACLs: true, ProduceQuota: quotaLimit},
		gatewayTenant{Name: tenantFullSpeed, Password: rand.Text(), OwnACLs: true},
		gatewayTenant{Name: tenantOAuth, OwnACLs: true})
}

// gatewayFiles are the files the proxy's configuration names.
type gatewayFiles struct {
	Cert, Key        string // the proxy's certificate toward clients
	UpstreamPassword string // the proxy's password at the broker
	OAuthKeys        string // the PEM public key OAUTHBEARER tokens are checked with
}

// The configuration file's keys the run uses (examples/proxy/README.md,
// "Configuration file"), written with the YAML library so that names and
// passwords are quoted as YAML wants.
type (
	proxyFileConfig struct {
		Listen          string            `yaml:"listen"`
		Upstream        []string          `yaml:"upstream"`
		TLS             proxyTLS          `yaml:"tls"`
		SASL            proxySASL         `yaml:"sasl"`
		UpstreamSASL    proxyUpstreamSASL `yaml:"upstreamSASL"`
		VirtualClusters []proxyCluster    `yaml:"virtualClusters"`
		SuperUsers      []string          `yaml:"superUsers"`
		AllowEveryone   bool              `yaml:"allowEveryoneIfNoAclFound"`
		ACLs            []proxyACL        `yaml:"acls"`
		Quotas          []proxyQuota      `yaml:"quotas"`
		Metrics         string            `yaml:"metrics"`
	}
	proxyTLS struct {
		CertFile string `yaml:"certFile"`
		KeyFile  string `yaml:"keyFile"`
	}
	proxySASL struct {
		Mechanisms               []string          `yaml:"mechanisms"`
		Users                    map[string]string `yaml:"users"`
		AcceptRepeatedScramNonce bool              `yaml:"acceptRepeatedScramNonce"`
		OAuthBearer              proxyOAuthBearer  `yaml:"oauthBearer"`
	}
	proxyOAuthBearer struct {
		KeysFile string `yaml:"keysFile"`
		Audience string `yaml:"audience"`
		Issuer   string `yaml:"issuer"`
	}
	proxyUpstreamSASL struct {
		Mechanism string `yaml:"mechanism"`
		Username  string `yaml:"username"`
		Password  string `yaml:"password"`
	}
	proxyCluster struct {
		Name        string   `yaml:"name"`
		Principals  []string `yaml:"principals"`
		TopicPrefix string   `yaml:"topicPrefix"`
	}
	proxyACL struct {
		Principal    string   `yaml:"principal"`
		ResourceType string   `yaml:"resourceType"`
		PatternType  string   `yaml:"patternType"`
		Name         string   `yaml:"name"`
		Operations   []string `yaml:"operations"`
		Permission   string   `yaml:"permission"`
	}
	proxyQuota struct {
		Principal             string  `yaml:"principal"`
		ProduceBytesPerSecond float64 `yaml:"produceBytesPerSecond"`
	}
)

// gatewayConfig is kafkaproxy's configuration file for the run: TLS and
// SASL (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, librdkafka's repeated nonce
// accepted; OAUTHBEARER with tokens signed by the key of files.OAuthKeys,
// for oauthAudience from oauthIssuer) toward clients, its own
// SCRAM-SHA-512 login to the broker, a virtual cluster per tenant, tenants
// A and B super users, and for each tenant with OwnACLs every operation on
// every topic, group and transactional id of its cluster and on the
// cluster (names as the tenant sees them, so "*" is its own cluster's).
// The nobody tenant gets no ACL. A tenant's ProduceQuota is its quota.
// /metrics is served on metrics.
func gatewayConfig(listen, metrics, upstream string, files gatewayFiles, tenants []gatewayTenant) ([]byte, error) {
	c := proxyFileConfig{
		Listen:   listen,
		Metrics:  metrics,
		Upstream: []string{upstream},
		TLS:      proxyTLS{CertFile: files.Cert, KeyFile: files.Key},
		SASL: proxySASL{
			Mechanisms:               []string{scenario.Plain, scenario.ScramSHA256, scenario.ScramSHA512, wire.SASLOAuthBearer},
			Users:                    map[string]string{},
			AcceptRepeatedScramNonce: true,
			OAuthBearer:              proxyOAuthBearer{KeysFile: files.OAuthKeys, Audience: oauthAudience, Issuer: oauthIssuer},
		},
		UpstreamSASL: proxyUpstreamSASL{Mechanism: scenario.ScramSHA512, Username: gatewayUpstreamUser, Password: files.UpstreamPassword},
		SuperUsers:   []string{tenantA, tenantB},
	}
	for _, t := range tenants {
		if strings.ContainsAny(t.Name, ".*:") || t.Name == "" {
			return nil, fmt.Errorf("tenant name %q: want a name without '.', '*' or ':'", t.Name)
		}
		if t.Password != "" {
			c.SASL.Users[t.Name] = t.Password
		}
		c.VirtualClusters = append(c.VirtualClusters, proxyCluster{Name: t.Name, Principals: []string{t.Name}, TopicPrefix: t.Prefix()})
		if t.ProduceQuota > 0 {
			c.Quotas = append(c.Quotas, proxyQuota{Principal: t.Name, ProduceBytesPerSecond: t.ProduceQuota})
		}
		if !t.OwnACLs {
			continue
		}
		for _, resource := range []struct{ kind, name string }{
			{"topic", "*"}, {"group", "*"}, {"transactionalId", "*"}, {"cluster", "kafka-cluster"},
		} {
			c.ACLs = append(c.ACLs, proxyACL{Principal: t.Name, ResourceType: resource.kind, PatternType: "literal",
				Name: resource.name, Operations: []string{"all"}, Permission: "allow"})
		}
	}
	return yaml.Marshal(c)
}
