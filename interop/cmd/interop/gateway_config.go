package main

import (
	"crypto/rand"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kafkagen/kafkagen/interop/internal/scenario"
)

// The gateway run's tenants: one virtual cluster per real client run, and
// three more for the attacks. Each tenant's user is its name, and its
// cluster's topics are under "<name>." at the broker.
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
	Name     string      // the user, the virtual cluster and, with ".", its prefix
	Password string      // made per run
	Run      *securedRun // the client run in this cluster; nil for the attack tenants
}

// Prefix is the tenant's topic prefix at the broker.
func (t gatewayTenant) Prefix() string { return t.Name + "." }

// tenantName names the virtual cluster of a client run:
// "kafkajs-scram-sha-256".
func tenantName(r securedRun) string {
	return r.Client + "-" + strings.ToLower(r.Mechanism)
}

// gatewayTenants are the tenants of runs, then the three attack tenants,
// each with a fresh password.
func gatewayTenants(runs []securedRun) []gatewayTenant {
	var out []gatewayTenant
	for i := range runs {
		out = append(out, gatewayTenant{Name: tenantName(runs[i]), Password: rand.Text(), Run: &runs[i]})
	}
	for _, name := range []string{tenantA, tenantB, tenantNobody} {
		out = append(out, gatewayTenant{Name: name, Password: rand.Text()})
	}
	return out
}

// gatewayFiles are the files the proxy's configuration names.
type gatewayFiles struct {
	Cert, Key        string // the proxy's certificate toward clients
	UpstreamPassword string // the proxy's password at the broker
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
)

// gatewayConfig is kafkaproxy's configuration file for the run: TLS and
// SASL (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, librdkafka's repeated nonce
// accepted) toward clients, its own SCRAM-SHA-512 login to the broker, a
// virtual cluster per tenant, tenants A and B super users, and for each
// client's tenant every operation on every topic, group and transactional
// id of its cluster and on the cluster (names as the tenant sees them, so
// "*" is its own cluster's). The nobody tenant gets no ACL. /metrics is
// served on metrics.
func gatewayConfig(listen, metrics, upstream string, files gatewayFiles, tenants []gatewayTenant) ([]byte, error) {
	c := proxyFileConfig{
		Listen:   listen,
		Metrics:  metrics,
		Upstream: []string{upstream},
		TLS:      proxyTLS{CertFile: files.Cert, KeyFile: files.Key},
		SASL: proxySASL{
			Mechanisms:               []string{scenario.Plain, scenario.ScramSHA256, scenario.ScramSHA512},
			Users:                    map[string]string{},
			AcceptRepeatedScramNonce: true,
		},
		UpstreamSASL: proxyUpstreamSASL{Mechanism: scenario.ScramSHA512, Username: gatewayUpstreamUser, Password: files.UpstreamPassword},
		SuperUsers:   []string{tenantA, tenantB},
	}
	for _, t := range tenants {
		if strings.ContainsAny(t.Name, ".*:") || t.Name == "" {
			return nil, fmt.Errorf("tenant name %q: want a name without '.', '*' or ':'", t.Name)
		}
		c.SASL.Users[t.Name] = t.Password
		c.VirtualClusters = append(c.VirtualClusters, proxyCluster{Name: t.Name, Principals: []string{t.Name}, TopicPrefix: t.Prefix()})
		if t.Run == nil {
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
