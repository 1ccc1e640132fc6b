package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/sasl"
	"github.com/twmb/franz-go/pkg/sasl/oauth"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"

	"github.com/kafkagen/kafkagen/examples/proxy/kafkamsg"
	"github.com/kafkagen/kafkagen/wire"
	"github.com/kafkagen/kafkagen/wire/frames"
)

// upstreamWatch counts what the brokers' listener receives: the
// connections it accepts and the bytes read from them.
type upstreamWatch struct {
	accepted atomic.Int64
	bytes    atomic.Int64
}

func (w *upstreamWatch) listen(network, address string) (net.Listener, error) {
	ln, err := net.Listen(network, address)
	return watchedListener{ln, w}, err
}

type watchedListener struct {
	net.Listener
	w *upstreamWatch
}

func (l watchedListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.w.accepted.Add(1)
		c = watchedConn{c, l.w}
	}
	return c, err
}

type watchedConn struct {
	net.Conn
	w *upstreamWatch
}

func (c watchedConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	c.w.bytes.Add(int64(n))
	return n, err
}

// jwtKey signs test tokens; its public half is in the file the proxy reads.
type jwtKey struct {
	key  *ecdsa.PrivateKey
	file string
}

func newJWTKey(t *testing.T) jwtKey {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	der, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	require.NoError(t, err)
	k := jwtKey{key: key, file: filepath.Join(t.TempDir(), "jwt-keys.pem")}
	writePEM(t, k.file, "PUBLIC KEY", der)
	return k
}

// token is a JWT for subject and audience, expiring in ttl (negative: in
// the past).
func (k jwtKey) token(t *testing.T, subject, audience string, ttl time.Duration) string {
	return k.sign(t, jwt.MapClaims{"sub": subject, "aud": audience, "exp": time.Now().Add(ttl).Unix(), "iat": time.Now().Unix()})
}

// sign is a JWT of claims, signed with ES256.
func (k jwtKey) sign(t *testing.T, claims jwt.MapClaims) string {
	s, err := jwt.NewWithClaims(jwt.SigningMethodES256, claims).SignedString(k.key)
	require.NoError(t, err)
	return s
}

func writeFile(t *testing.T, name, content string) string {
	file := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(file, []byte(content), 0o600))
	return file
}

// gatewaySetup is kfake behind TLS and SASL (the proxy's own user only),
// and kafkaproxy in front with TLS, SASL users, an OAUTHBEARER key and a
// virtual cluster per principal.
type gatewaySetup struct {
	pki       testPKI
	jwt       jwtKey
	cluster   *kfake.Cluster
	upstream  *upstreamWatch
	bootstrap string
}

func startGateway(t *testing.T, extra ...string) gatewaySetup {
	g := gatewaySetup{pki: newTestPKI(t), jwt: newJWTKey(t), upstream: &upstreamWatch{}}
	g.cluster = startCluster(t, 1, kfake.EnableSASL(), kfake.Superuser("PLAIN", "proxy", "proxy-secret"),
		kfake.TLS(g.pki.server), kfake.ListenFn(g.upstream.listen))
	args := []string{"-tls-cert", g.pki.certFile, "-tls-key", g.pki.keyFile,
		"-users-file", writeFile(t, "users", "# test users\nalice:alice-secret\nbob:bob-secret\n"),
		"-oauth-keys", g.jwt.file, "-oauth-audience", "kafka", "-auth-timeout", "1s",
		"-virtual-cluster", "a=a.:alice", "-virtual-cluster", "b=b.:bob", "-virtual-cluster", "c=c.:carol",
		"-upstream-sasl", "PLAIN", "-upstream-user", "proxy", "-upstream-password-file", writeFile(t, "pw", "proxy-secret\n"),
		"-upstream-ca", g.pki.caFile}
	g.bootstrap = startKafkaproxy(t, g.cluster, append(args, extra...)...)
	return g
}

// direct is a client of the brokers themselves, as the proxy's user.
func (g gatewaySetup) direct(t *testing.T, opts ...kgo.Opt) *kgo.Client {
	return client(t, g.cluster.ListenAddrs()[0], append(opts, kgo.DialTLSConfig(g.pki.client.Clone()),
		kgo.SASL(plain.Auth{User: "proxy", Pass: "proxy-secret"}.AsMechanism()))...)
}

// franz-go over TLS with SASL through the gateway, a principal per virtual
// cluster and a mechanism each: each sees only its own topic under its own
// name, and the brokers hold it under the cluster's prefix with exactly the
// records sent.
func TestGatewayTenants(t *testing.T) {
	g := startGateway(t)
	tenants := []struct {
		name, prefix string
		mechanism    sasl.Mechanism
	}{
		{"alice SCRAM-SHA-512", "a.", scram.Auth{User: "alice", Pass: "alice-secret"}.AsSha512Mechanism()},
		{"bob PLAIN", "b.", plain.Auth{User: "bob", Pass: "bob-secret"}.AsMechanism()},
		{"carol OAUTHBEARER", "c.", oauth.Auth{Token: g.jwt.token(t, "carol", "kafka", time.Hour)}.AsMechanism()},
	}
	for _, tn := range tenants {
		t.Run(tn.name, func(t *testing.T) {
			cl := client(t, g.bootstrap, kgo.DialTLSConfig(g.pki.client.Clone()), kgo.SASL(tn.mechanism),
				kgo.ConsumeTopics("orders"), kgo.FetchMaxWait(200*time.Millisecond))
			createTopic(t, cl, "orders")
			sent := produce(t, cl, "orders", 5)
			assert.Equal(t, values(sent), consume(t, cl, 5))
			assert.Equal(t, []string{"orders"}, topicNames(metadata(t, cl)), "the tenant sees its topic only")

			direct := g.direct(t, kgo.ConsumeTopics(tn.prefix+"orders"))
			assert.Equal(t, values(sent), consume(t, direct, 5), "the brokers hold the records under %sorders", tn.prefix)
		})
	}
	assert.Equal(t, []string{"a.orders", "b.orders", "c.orders"}, topicNames(metadata(t, g.direct(t))))
}

// What must be refused before authentication is refused, bounded in time,
// and none of it reaches the brokers: once the gateway has asked the
// brokers' versions (its first client), no connection is opened to them
// and no byte is sent for clients that never authenticate.
func TestGatewayRefusals(t *testing.T) {
	g := startGateway(t)
	warm := client(t, g.bootstrap, kgo.DialTLSConfig(g.pki.client.Clone()),
		kgo.SASL(plain.Auth{User: "bob", Pass: "bob-secret"}.AsMechanism()))
	metadata(t, warm)
	warm.Close()
	time.Sleep(200 * time.Millisecond) // the proxy closes its side
	accepted, bytes := g.upstream.accepted.Load(), g.upstream.bytes.Load()
	require.Positive(t, accepted, "the watch sees the gateway's connections")

	refusedClient := func(t *testing.T, mechanism sasl.Mechanism) error {
		cl := client(t, g.bootstrap, kgo.DialTLSConfig(g.pki.client.Clone()), kgo.SASL(mechanism),
			kgo.RetryTimeout(time.Second), kgo.RequestRetries(0))
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, err := kmsg.NewPtrMetadataRequest().RequestWith(ctx, cl)
		return err
	}
	t.Run("wrong password", func(t *testing.T) {
		err := refusedClient(t, scram.Auth{User: "alice", Pass: "wrong"}.AsSha256Mechanism())
		require.Error(t, err)
		assert.Contains(t, err.Error(), "SASL_AUTHENTICATION_FAILED")
	})
	t.Run("unknown user", func(t *testing.T) {
		require.ErrorContains(t, refusedClient(t, plain.Auth{User: "mallory", Pass: "x"}.AsMechanism()), "SASL_AUTHENTICATION_FAILED")
	})
	t.Run("expired token", func(t *testing.T) {
		err := refusedClient(t, oauth.Auth{Token: g.jwt.token(t, "carol", "kafka", -time.Minute)}.AsMechanism())
		require.ErrorContains(t, err, "SASL_AUTHENTICATION_FAILED")
		assert.Contains(t, err.Error(), "expired")
	})
	t.Run("token for another audience", func(t *testing.T) {
		err := refusedClient(t, oauth.Auth{Token: g.jwt.token(t, "carol", "elsewhere", time.Hour)}.AsMechanism())
		require.ErrorContains(t, err, "SASL_AUTHENTICATION_FAILED")
	})
	t.Run("never finishes SASL", func(t *testing.T) {
		conn := g.tlsConn(t)
		hs := kafkamsg.NewSaslHandshakeRequest()
		hs.Mechanism = "PLAIN"
		frame, err := frames.AppendRequest(nil, &frames.RequestHeader{APIKey: kafkamsg.APIKeySaslHandshake, APIVersion: 1, CorrelationID: 1}, hs)
		require.NoError(t, err)
		_, err = conn.Write(frame)
		require.NoError(t, err)
		answer, err := frames.NewFrameReader(conn, 1<<10).Next()
		require.NoError(t, err)
		resp := kafkamsg.NewSaslHandshakeResponse()
		_, err = resp.Decode(answer[4:], 1)
		require.NoError(t, err)
		require.Zero(t, resp.ErrorCode, "PLAIN is enabled")
		// Then nothing: the proxy ends it at -auth-timeout (1s after the
		// connection began).
		start := time.Now()
		assertClosedWithin(t, conn, start, 5*time.Second)
		assert.GreaterOrEqual(t, time.Since(start), 500*time.Millisecond, "closed by the timeout, not at once")
	})
	t.Run("garbage before authentication", func(t *testing.T) {
		conn := g.tlsConn(t)
		_, err := conn.Write([]byte("GET / HTTP/1.1\r\nHost: kafka\r\n\r\n"))
		require.NoError(t, err)
		assertClosedWithin(t, conn, time.Now(), 5*time.Second)
	})
	t.Run("a request before authentication", func(t *testing.T) {
		conn := g.tlsConn(t)
		frame, err := frames.AppendRequest(nil, &frames.RequestHeader{APIKey: kafkamsg.APIKeyMetadata, APIVersion: 12, CorrelationID: 1},
			kafkamsg.NewMetadataRequest())
		require.NoError(t, err)
		_, err = conn.Write(frame)
		require.NoError(t, err)
		assertClosedWithin(t, conn, time.Now(), 5*time.Second)
	})
	t.Run("plaintext to the TLS port", func(t *testing.T) {
		conn, err := net.Dial("tcp", g.bootstrap)
		require.NoError(t, err)
		defer conn.Close()
		var size [4]byte
		binary.BigEndian.PutUint32(size[:], 1<<30)
		_, _ = conn.Write(size[:])
		assertClosedWithin(t, conn, time.Now(), 5*time.Second)
	})
	assert.Equal(t, accepted, g.upstream.accepted.Load(), "no connection to the brokers for clients that did not authenticate")
	assert.Equal(t, bytes, g.upstream.bytes.Load(), "no byte to the brokers for clients that did not authenticate")
}

// tlsConn is a TLS connection to the gateway, closed when the test ends.
func (g gatewaySetup) tlsConn(t *testing.T) *tls.Conn {
	d := &net.Dialer{Timeout: 5 * time.Second}
	conn, err := tls.DialWithDialer(d, "tcp", g.bootstrap, g.pki.client.Clone())
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	return conn
}

// assertClosedWithin checks that the proxy closes conn within limit of
// start: a read ends with the end of the stream, not the test's deadline.
func assertClosedWithin(t *testing.T, conn net.Conn, start time.Time, limit time.Duration) {
	t.Helper()
	_ = conn.SetReadDeadline(start.Add(limit))
	_, err := io.Copy(io.Discard, conn)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("the connection was still open after %v", limit)
	}
	assert.Less(t, time.Since(start), limit)
}

// KIP-368 through the gateway: sessions last -max-reauth (2s); kafkagen's
// own client (wire.Conn, which never reconnects) re-authenticates on its
// connection and keeps being served past the lifetime, while a client that
// does not re-authenticate is cut off at its first request after it.
func TestGatewayReauthentication(t *testing.T) {
	g := startGateway(t, "-max-reauth", "2s")
	mechanism, err := wire.ScramSHA256Auth("alice", "alice-secret")
	require.NoError(t, err)
	conn, err := wire.Dial(testContext(t), g.bootstrap, wire.ConnConfig{TLS: g.pki.client.Clone(), SASL: mechanism})
	require.NoError(t, err)
	defer conn.Close()
	deadline := time.Now().Add(3500 * time.Millisecond)
	calls := 0
	for ; time.Now().Before(deadline); calls++ {
		resp := kafkamsg.NewMetadataResponse()
		require.NoError(t, conn.DoAt(testContext(t), kafkamsg.NewMetadataRequest(), 12, resp), "call %d, %v in", calls, time.Until(deadline))
		time.Sleep(250 * time.Millisecond)
	}
	t.Logf("%d calls on one connection across 3.5s of 2s sessions", calls)
	assert.Greater(t, calls, 10)

	stale, err := wire.Dial(testContext(t), g.bootstrap, wire.ConnConfig{TLS: g.pki.client.Clone(), SASL: wire.PlainAuth("bob", "bob-secret")})
	require.NoError(t, err)
	defer stale.Close()
	// Its own calls would re-authenticate; the raw Client's do not.
	time.Sleep(2500 * time.Millisecond)
	err = stale.Client().Do(testContext(t), kafkamsg.NewMetadataRequest(), 12, kafkamsg.NewMetadataResponse())
	require.Error(t, err, "a request after the session expired closes the connection")
}
