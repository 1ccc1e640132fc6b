package wire

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generated"
)

// connTestPKI is a certificate authority made at test time, with a server
// certificate for 127.0.0.1 and a client certificate, both signed by it.
type connTestPKI struct {
	roots          *x509.CertPool
	server, client tls.Certificate
}

func newConnTestPKI(t *testing.T) *connTestPKI {
	key := func() *ecdsa.PrivateKey {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		require.NoError(t, err)
		return k
	}
	caKey := key()
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "kafkagen test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	require.NoError(t, err)
	ca, err := x509.ParseCertificate(caDER)
	require.NoError(t, err)
	leaf := func(serial int64, cn string, usage x509.ExtKeyUsage, ips []net.IP) tls.Certificate {
		k := key()
		tmpl := &x509.Certificate{
			SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: cn},
			NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
			KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{usage}, IPAddresses: ips,
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &k.PublicKey, caKey)
		require.NoError(t, err)
		return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: k}
	}
	p := &connTestPKI{roots: x509.NewCertPool()}
	p.roots.AddCert(ca)
	p.server = leaf(2, "broker", x509.ExtKeyUsageServerAuth, []net.IP{net.IPv4(127, 0, 0, 1)})
	p.client = leaf(3, "kafkagen-client", x509.ExtKeyUsageClientAuth, nil)
	return p
}

// TLS with the server name taken from the address (an IP here) and a
// client certificate the broker requires; then SCRAM over it.
func TestDialTLS(t *testing.T) {
	pki := newConnTestPKI(t)
	b := startConnBroker(t, func(b *connBroker) {
		b.tls = &tls.Config{Certificates: []tls.Certificate{pki.server}, ClientCAs: pki.roots, ClientAuth: tls.RequireAndVerifyClientCert}
		b.passwords = map[string]string{"alice": "secret"}
	})
	mech, err := ScramSHA512Auth("alice", "secret")
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cfg := &tls.Config{RootCAs: pki.roots, Certificates: []tls.Certificate{pki.client}}
	c, err := Dial(ctx, b.addr(), ConnConfig{TLS: cfg, SASL: mech})
	require.NoError(t, err)
	defer c.Close()
	assert.Empty(t, cfg.ServerName, "the caller's config is cloned, not changed")
	require.NoError(t, c.Do(ctx, stopReplica(), generated.NewStopReplicaResponse()))
	b.mu.Lock()
	assert.Equal(t, "kafkagen-client", b.clientCN)
	b.mu.Unlock()

	_, err = Dial(ctx, b.addr(), ConnConfig{TLS: &tls.Config{RootCAs: x509.NewCertPool()}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "kafka dial "+b.addr()+": TLS handshake:")
}
