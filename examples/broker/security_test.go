package main

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"log"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xdg-go/scram"

	"github.com/kafkagen/kafkagen/examples/broker/kafkamsg"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// testTLSFiles makes a certificate authority and a certificate for
// 127.0.0.1 it signs, now, writes the certificate chain (leaf, then the
// authority) and the leaf's key as PEM files in dir, and returns their
// paths and a client config that trusts the authority alone.
func testTLSFiles(t *testing.T, dir string) (certPath, keyPath string, client *tls.Config) {
	t.Helper()
	issue := func(serial int64, tmpl *x509.Certificate, parent *x509.Certificate, parentKey *ecdsa.PrivateKey) (*x509.Certificate, *ecdsa.PrivateKey) {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		require.NoError(t, err)
		tmpl.SerialNumber = big.NewInt(serial)
		tmpl.NotBefore, tmpl.NotAfter = time.Now().Add(-time.Minute), time.Now().Add(time.Hour)
		if parent == nil { // self-signed
			parent, parentKey = tmpl, key
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, parentKey)
		require.NoError(t, err)
		cert, err := x509.ParseCertificate(der)
		require.NoError(t, err)
		return cert, key
	}
	ca, caKey := issue(1, &x509.Certificate{Subject: pkix.Name{CommonName: "example broker test CA"}, IsCA: true,
		BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}, nil, nil)
	leaf, leafKey := issue(2, &x509.Certificate{Subject: pkix.Name{CommonName: "example broker"}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}, ca, caKey)
	keyDER, err := x509.MarshalPKCS8PrivateKey(leafKey)
	require.NoError(t, err)
	var chain []byte
	for _, c := range []*x509.Certificate{leaf, ca} {
		chain = append(chain, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Raw})...)
	}
	certPath, keyPath = filepath.Join(dir, "broker.pem"), filepath.Join(dir, "broker.key")
	require.NoError(t, os.WriteFile(certPath, chain, 0o600))
	require.NoError(t, os.WriteFile(keyPath, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600))
	roots := x509.NewCertPool()
	roots.AddCert(ca)
	return certPath, keyPath, &tls.Config{RootCAs: roots, ServerName: "127.0.0.1", MinVersion: tls.VersionTLS12}
}

// The users of the SASL tests, as a -sasl-users file holds them.
const testSASLUsers = "# test users\nalice:alice-secret\n\nbob:bob:with:colons\n"

// serveCommand runs the command's serve with args, as main does, until the
// test ends, and returns the address it listens on.
func serveCommand(t *testing.T, args ...string) string {
	t.Helper()
	o, err := parseFlags(append([]string{"-addr", "127.0.0.1:0"}, args...), io.Discard)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	stdoutR, stdoutW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, o, log.New(testWriter{t}, "", 0), stdoutW)
		stdoutW.Close()
	}()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
	})
	line, err := bufio.NewReader(stdoutR).ReadString('\n')
	require.NoError(t, err)
	go io.Copy(io.Discard, stdoutR)
	addr, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
	require.True(t, ok, line)
	return addr
}

// dialWith connects a wire client, over TLS when tlsCfg is set.
func dialWith(t *testing.T, addr string, tlsCfg *tls.Config, clientID string) *wire.Client {
	t.Helper()
	var conn net.Conn
	var err error
	dialer := &net.Dialer{Timeout: 5 * time.Second}
	if tlsCfg != nil {
		conn, err = tls.DialWithDialer(dialer, "tcp", addr, tlsCfg)
	} else {
		conn, err = dialer.Dial("tcp", addr)
	}
	require.NoError(t, err)
	cl := wire.NewClient(conn, wire.ClientConfig{ClientID: runtime.NewNullString(clientID)})
	t.Cleanup(func() { cl.Close() })
	return cl
}

// saslLogin authenticates cl with a SaslHandshake v1 and SaslAuthenticate
// v2 exchange, written from the protocol (SCRAM's messages by
// xdg-go/scram), and returns the first error code and message met.
func saslLogin(t *testing.T, cl *wire.Client, mechanism, user, password string) (int16, string) {
	t.Helper()
	hs := kafkamsg.NewSaslHandshakeRequest()
	hs.Mechanism = mechanism
	hsResp := do(t, cl, hs, 1, kafkamsg.NewSaslHandshakeResponse())
	if hsResp.ErrorCode != codeNone {
		return hsResp.ErrorCode, ""
	}
	send := func(token []byte) ([]byte, int16, string) {
		req := kafkamsg.NewSaslAuthenticateRequest()
		req.AuthBytes = token
		resp := do(t, cl, req, 2, kafkamsg.NewSaslAuthenticateResponse())
		return resp.AuthBytes, resp.ErrorCode, resp.ErrorMessage.Value
	}
	if mechanism == "PLAIN" {
		_, code, msg := send([]byte("\x00" + user + "\x00" + password))
		return code, msg
	}
	hash := scram.SHA256
	if mechanism == "SCRAM-SHA-512" {
		hash = scram.SHA512
	}
	client, err := hash.NewClient(user, password, "")
	require.NoError(t, err)
	conv := client.NewConversation()
	token, err := conv.Step("")
	require.NoError(t, err)
	for !conv.Done() {
		reply, code, msg := send([]byte(token))
		if code != codeNone {
			return code, msg
		}
		if token, err = conv.Step(string(reply)); err != nil {
			return -1, err.Error() // the server's proof did not verify
		}
	}
	return codeNone, ""
}

// metadataRoundTrip asks for the broker's metadata and checks the answer.
func metadataRoundTrip(t *testing.T, cl *wire.Client, addr string) {
	t.Helper()
	resp := do(t, cl, kafkamsg.NewMetadataRequest(), 12, kafkamsg.NewMetadataResponse())
	require.Len(t, resp.Brokers, 1)
	assert.Equal(t, addr, net.JoinHostPort(resp.Brokers[0].Host, strconv.Itoa(int(resp.Brokers[0].Port))))
}

// TestSecurityProtocols runs the command with each -security-protocol, a
// certificate and key made now, and each SASL mechanism: the client
// connects, authenticates where it must, and is served.
func TestSecurityProtocols(t *testing.T) {
	dir := t.TempDir()
	certPath, keyPath, clientTLS := testTLSFiles(t, dir)
	users := filepath.Join(dir, "users")
	require.NoError(t, os.WriteFile(users, []byte(testSASLUsers), 0o600))
	tests := []struct {
		protocol   string
		args       []string
		tls        bool
		mechanisms []string
	}{
		{protocol: "PLAINTEXT"},
		{protocol: "SSL", args: []string{"-tls-cert", certPath, "-tls-key", keyPath}, tls: true},
		{protocol: "SASL_PLAINTEXT", args: []string{"-sasl-users", users}, mechanisms: []string{"PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"}},
		{protocol: "SASL_SSL", args: []string{"-sasl-users", users, "-tls-cert", certPath, "-tls-key", keyPath}, tls: true,
			mechanisms: []string{"PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"}},
	}
	for _, tt := range tests {
		t.Run(tt.protocol, func(t *testing.T) {
			addr := serveCommand(t, append([]string{"-security-protocol", tt.protocol}, tt.args...)...)
			var cfg *tls.Config
			if tt.tls {
				cfg = clientTLS
			}
			versions := do(t, dialWith(t, addr, cfg, "versions"), kafkamsg.NewAPIVersionsRequest(), 3, kafkamsg.NewAPIVersionsResponse())
			listed := map[int16][2]int16{}
			for _, k := range versions.APIKeys {
				listed[k.APIKey] = [2]int16{k.MinVersion, k.MaxVersion}
			}
			assert.Equal(t, [2]int16{0, 1}, listed[kafkamsg.APIKeySaslHandshake], "ApiVersions lists SaslHandshake on every listener")
			assert.Equal(t, [2]int16{0, 2}, listed[kafkamsg.APIKeySaslAuthenticate])
			if tt.mechanisms == nil {
				metadataRoundTrip(t, dialWith(t, addr, cfg, "client"), addr)
				return
			}
			for _, m := range tt.mechanisms {
				for _, u := range []struct{ user, password string }{{"alice", "alice-secret"}, {"bob", "bob:with:colons"}} {
					cl := dialWith(t, addr, cfg, "client")
					code, msg := saslLogin(t, cl, m, u.user, u.password)
					require.Equal(t, codeNone, code, "%s %s: %s", m, u.user, msg)
					metadataRoundTrip(t, cl, addr)
				}
				cl := dialWith(t, addr, cfg, "wrong")
				code, msg := saslLogin(t, cl, m, "alice", "not-her-password")
				assert.Equal(t, kerrors.SaslAuthenticationFailed.Code, code, "%s with a wrong password", m)
				assert.NotEmpty(t, msg)
				assertClosed(t, cl, "%s: the connection ends after a failed authentication", m)
				cl = dialWith(t, addr, cfg, "stranger")
				code, _ = saslLogin(t, cl, m, "mallory", "alice-secret")
				assert.Equal(t, kerrors.SaslAuthenticationFailed.Code, code, "%s with an unknown user", m)
			}
			cl := dialWith(t, addr, cfg, "impatient")
			assertClosed(t, cl, "a Metadata before authentication closes the connection")
		})
	}
}

// assertClosed checks that a Metadata request on cl fails: the broker has
// closed the connection.
func assertClosed(t *testing.T, cl *wire.Client, msgAndArgs ...any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := cl.Do(ctx, kafkamsg.NewMetadataRequest(), 12, kafkamsg.NewMetadataResponse())
	require.Error(t, err, msgAndArgs...)
	assert.NotErrorIs(t, err, context.DeadlineExceeded, msgAndArgs...)
}

// TestSASLRequestsWithoutSASL: on a listener without SASL, SaslHandshake
// and SaslAuthenticate are answered ILLEGAL_SASL_STATE, as Kafka answers
// them, and the connection stays.
func TestSASLRequestsWithoutSASL(t *testing.T) {
	tb := startBroker(t, Config{})
	cl := tb.client(t, "c")
	hs := kafkamsg.NewSaslHandshakeRequest()
	hs.Mechanism = "PLAIN"
	for v := int16(0); v <= 1; v++ {
		assert.Equal(t, kerrors.IllegalSaslState.Code, do(t, cl, hs, v, kafkamsg.NewSaslHandshakeResponse()).ErrorCode)
	}
	for v := int16(0); v <= 2; v++ {
		resp := do(t, cl, kafkamsg.NewSaslAuthenticateRequest(), v, kafkamsg.NewSaslAuthenticateResponse())
		assert.Equal(t, kerrors.IllegalSaslState.Code, resp.ErrorCode)
	}
	metadataRoundTrip(t, cl, tb.addr)
}

// TestConnectionLimitFlags: the limit flags reach the connection layer.
func TestConnectionLimitFlags(t *testing.T) {
	addr := serveCommand(t, "-max-connections-per-ip", "2", "-connections-max-idle-ms", "300", "-request-read-timeout-ms", "200")
	first, second := dialWith(t, addr, nil, "1"), dialWith(t, addr, nil, "2")
	metadataRoundTrip(t, first, addr)
	metadataRoundTrip(t, second, addr)
	assertClosed(t, dialWith(t, addr, nil, "3"), "a third connection from 127.0.0.1 is closed")

	time.Sleep(600 * time.Millisecond)
	assertClosed(t, first, "idle past -connections-max-idle-ms")

	slow, err := net.DialTimeout("tcp", addr, 5*time.Second)
	require.NoError(t, err)
	defer slow.Close()
	_, err = slow.Write([]byte{0, 0}) // half a size prefix, then nothing
	require.NoError(t, err)
	require.NoError(t, slow.SetReadDeadline(time.Now().Add(5*time.Second)))
	start := time.Now()
	_, err = slow.Read(make([]byte, 1))
	assert.ErrorIs(t, err, io.EOF, "closed after -request-read-timeout-ms")
	assert.Less(t, time.Since(start), 2*time.Second)
}

func TestReadSASLUsers(t *testing.T) {
	tests := []struct {
		name, text string
		want       map[string]string
		err        string
	}{
		{name: "users", text: testSASLUsers, want: map[string]string{"alice": "alice-secret", "bob": "bob:with:colons"}},
		{name: "crlf", text: "a:b\r\n", want: map[string]string{"a": "b"}},
		{name: "no colon", text: "alice\n", err: "users:1: expected user:password"},
		{name: "empty user", text: "# x\n:pw\n", err: "users:2: the user name before the colon is empty"},
		{name: "empty password", text: "alice:\n", err: `users:1: user "alice" has an empty password`},
		{name: "twice", text: "a:b\na:c\n", err: `users:2: user "a" is listed twice`},
		{name: "none", text: "# nobody\n", err: "no user:password line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "users")
			require.NoError(t, os.WriteFile(path, []byte(tt.text), 0o600))
			got, err := readSASLUsers(path)
			if tt.err != "" {
				assert.ErrorContains(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
	_, err := readSASLUsers(filepath.Join(t.TempDir(), "missing"))
	assert.ErrorContains(t, err, "-sasl-users")
}
