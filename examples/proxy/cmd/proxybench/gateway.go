package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/kafkagen/kafkagen/wire"
)

// -gateway: kafkaproxy as a multi-tenant gateway (issue 28) against the
// floor of a gateway, a relay that terminates TLS toward the client and
// copies bytes to the broker over plain TCP, decoding nothing.

// The benchmark's user at the gateway, and the ACL that lets it do the
// load (READ and WRITE imply DESCRIBE, for Metadata).
const (
	benchUser     = "bench"
	benchPassword = "bench-secret"
)

// gatewayModes are -gateway's modes: the floors and kafkaproxy plainly for
// context, then the TLS relay and kafkaproxy with TLS, SASL (SCRAM-SHA-512,
// once per connection) and a virtual cluster's prefix, without and with
// ACLs. The {placeholders} are filled by files.expand.
var gatewayModes = []mode{
	{name: "relay", relay: true},
	{name: "proxy", args: []string{"-rewrite-addresses=false"}},
	{name: "tls-relay", relay: true, tls: true},
	{name: "gateway", tls: true, sasl: true, follow: true, prefix: tenantPrefix, args: []string{
		"-tls-cert", "{cert}", "-tls-key", "{key}", "-users-file", "{users}", "-sasl-mechanisms", "SCRAM-SHA-512",
		"-virtual-cluster", "t1=" + tenantPrefix + ":" + benchUser}},
	{name: "gateway+acl", tls: true, sasl: true, follow: true, prefix: tenantPrefix, config: gatewayConfig},
}

// gatewayConfig is the -config file of gateway+acl: the gateway's identity
// and virtual cluster, and ACLs (in the tenant's names) allowing the load
// and nothing else.
const gatewayConfig = `listen: {listen}
upstream: [{upstream}]
tls: {certFile: {cert}, keyFile: {key}}
sasl:
  mechanisms: [SCRAM-SHA-512]
  users: {` + benchUser + `: ` + benchPassword + `}
virtualClusters:
  - {name: t1, principals: [` + benchUser + `], topicPrefix: "` + tenantPrefix + `"}
allowEveryoneIfNoAclFound: false
acls:
  - {principal: ` + benchUser + `, resourceType: topic, patternType: literal, name: ` + benchTopic + `,
     operations: [read, write], permission: allow}
`

// files are what the gateway modes read: a certificate for 127.0.0.1 and
// its key, made at run time, and the users file of -users-file.
type files struct {
	dir, cert, key, users string
	clientTLS             *tls.Config // trusts the certificate
}

// newFiles writes the certificate, its key and the users file into dir.
func newFiles(dir string) (*files, error) {
	f := &files{dir: dir, cert: filepath.Join(dir, "cert.pem"), key: filepath.Join(dir, "key.pem"), users: filepath.Join(dir, "users.txt")}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, IsCA: true, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, err
	}
	for _, w := range []struct {
		path string
		data []byte
	}{
		{f.cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})},
		{f.key, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER})},
		{f.users, []byte(benchUser + ":" + benchPassword + "\n")},
	} {
		if err := os.WriteFile(w.path, w.data, 0o600); err != nil {
			return nil, err
		}
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	roots := x509.NewCertPool()
	roots.AddCert(cert)
	f.clientTLS = &tls.Config{RootCAs: roots, ServerName: "127.0.0.1", MinVersion: tls.VersionTLS12}
	return f, nil
}

// expand fills a mode's {placeholders}.
func (f *files) expand(s, listen, upstream string) string {
	return strings.NewReplacer("{cert}", f.cert, "{key}", f.key, "{users}", f.users,
		"{listen}", listen, "{upstream}", upstream).Replace(s)
}

// configFile writes a mode's -config file for one run and returns its path.
func (f *files) configFile(m mode, listen, upstream string) (string, error) {
	path := filepath.Join(f.dir, "kafkaproxy.yaml")
	return path, os.WriteFile(path, []byte(f.expand(m.config, listen, upstream)), 0o600)
}

// security is how a client connects to a mode: TLS, and SASL at the
// gateway.
func (f *files) security(m mode) (security, error) {
	var s security
	if m.tls {
		s.tls = f.clientTLS
	}
	if m.sasl {
		mech, err := wire.ScramSHA512Auth(benchUser, benchPassword)
		if err != nil {
			return s, fmt.Errorf("SCRAM-SHA-512 for %s: %w", benchUser, err)
		}
		s.sasl = mech
	}
	return s, nil
}

// security is a client's TLS (nil: none) and SASL mechanism (nil: none).
type security struct {
	tls  *tls.Config
	sasl wire.SASLMechanism
}
