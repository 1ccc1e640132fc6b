package wire

import (
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
)

// testCertificate makes a self-signed certificate for 127.0.0.1 and
// returns the server's TLS config and a client config trusting it.
func testCertificate(t *testing.T) (server, client *tls.Config) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	template := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "kafkagen test broker"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore:    time.Now().Add(-time.Minute),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, template, template, &key.PublicKey, key)
	require.NoError(t, err)
	cert, err := x509.ParseCertificate(der)
	require.NoError(t, err)
	roots := x509.NewCertPool()
	roots.AddCert(cert)
	server = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key, Leaf: cert}}, MinVersion: tls.VersionTLS12}
	client = &tls.Config{RootCAs: roots, ServerName: "127.0.0.1", MinVersion: tls.VersionTLS12}
	return server, client
}

// dialTLS connects with TLS, with the same deadline as dial.
func dialTLS(t *testing.T, addr string, cfg *tls.Config) net.Conn {
	t.Helper()
	conn, err := tls.DialWithDialer(&net.Dialer{Timeout: 5 * time.Second}, "tcp", addr, cfg)
	require.NoError(t, err)
	require.NoError(t, conn.SetDeadline(time.Now().Add(20*time.Second)))
	t.Cleanup(func() { conn.Close() })
	return conn
}

func TestServerTLS(t *testing.T) {
	serverTLS, clientTLS := testCertificate(t)
	h := &echoHandler{peers: make(chan Peer, 10)}
	ts := startServer(t, h, ServerOptions{TLS: serverTLS, Limits: Limits{RequestReadTimeout: 300 * time.Millisecond}})

	conn := dialTLS(t, ts.addr, clientTLS)
	pipeline(t, conn, 5)
	drain(t, conn, 5)
	p := <-h.peers
	require.NotNil(t, p.TLS)
	assert.True(t, p.TLS.HandshakeComplete)

	// A client that does not speak TLS is closed at the read timeout.
	plain := dial(t, ts.addr)
	assert.ErrorIs(t, ts.nextEnd(t).err, ErrRequestTimeout)
	requireClosed(t, plain)

	// One that speaks Kafka to a TLS port fails the handshake.
	plain = dial(t, ts.addr)
	send(t, plain, 50, 0, 1, heartbeat(1))
	end := ts.nextEnd(t)
	assert.ErrorContains(t, end.err, "TLS handshake")
	requireClosed(t, plain)

	// The connection stays usable across read deadlines that pass while it
	// is idle (the server gives its buffers back after idleRelease).
	time.Sleep(idleRelease + 100*time.Millisecond)
	beat(t, conn, 7)
}

// SASL_SSL: SCRAM over TLS.
func TestServerSASLOverTLS(t *testing.T) {
	serverTLS, clientTLS := testCertificate(t)
	h := &echoHandler{peers: make(chan Peer, 10)}
	ts := startServer(t, h, ServerOptions{TLS: serverTLS, SASL: &SASLConfig{Scram: scramUsers(t)}})
	conn := dialTLS(t, ts.addr, clientTLS)
	c := &saslClient{conn: conn, handshakeVersion: 1, authVersion: 2}
	code, msg := c.login(t, SASLScramSHA512, "bob", "bob-secret")
	require.Zero(t, code, msg)
	beat(t, conn, 9)
	p := <-h.peers
	assert.Equal(t, "bob", p.Principal)
	assert.NotNil(t, p.TLS)
}
