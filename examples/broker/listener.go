package main

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/kafkagen/kafkagen/wire"
)

// Listener is how the broker serves its connections: the security protocol
// (Kafka's security.protocol) and the connection layer's limits.
type Listener struct {
	Protocol string           // PLAINTEXT (the zero value), SSL, SASL_PLAINTEXT or SASL_SSL
	TLS      *tls.Config      // SSL and SASL_SSL
	SASL     *wire.SASLConfig // SASL_PLAINTEXT and SASL_SSL
	Limits   wire.Limits
}

// The security protocols, as Kafka names them.
const (
	protocolPlaintext     = "PLAINTEXT"
	protocolSSL           = "SSL"
	protocolSASLPlaintext = "SASL_PLAINTEXT"
	protocolSASLSSL       = "SASL_SSL"
)

var securityProtocols = []string{protocolPlaintext, protocolSSL, protocolSASLPlaintext, protocolSASLSSL}

// usesTLS and usesSASL say what a security protocol needs.
func usesTLS(protocol string) bool { return protocol == protocolSSL || protocol == protocolSASLSSL }
func usesSASL(protocol string) bool {
	return protocol == protocolSASLPlaintext || protocol == protocolSASLSSL
}

// checkListenerFlags checks that the security and limit flags agree with
// one another, before any file is read.
func checkListenerFlags(o *options) error {
	switch {
	case !slices.Contains(securityProtocols, o.securityProtocol):
		return fmt.Errorf("-security-protocol %q: must be one of %s", o.securityProtocol, strings.Join(securityProtocols, ", "))
	case usesTLS(o.securityProtocol) && (o.tlsCert == "" || o.tlsKey == ""):
		return fmt.Errorf("-security-protocol %s needs -tls-cert and -tls-key (PEM files)", o.securityProtocol)
	case !usesTLS(o.securityProtocol) && (o.tlsCert != "" || o.tlsKey != ""):
		return fmt.Errorf("-tls-cert and -tls-key are for -security-protocol SSL or SASL_SSL, not %s", o.securityProtocol)
	case usesSASL(o.securityProtocol) && o.saslUsers == "":
		return fmt.Errorf("-security-protocol %s needs -sasl-users FILE (one user:password a line)", o.securityProtocol)
	case !usesSASL(o.securityProtocol) && o.saslUsers != "":
		return fmt.Errorf("-sasl-users is for -security-protocol SASL_PLAINTEXT or SASL_SSL, not %s", o.securityProtocol)
	}
	for _, d := range []struct {
		name string
		ms   int64
	}{{"-connections-max-idle-ms", o.connectionsMaxIdleMs}, {"-request-read-timeout-ms", o.requestReadTimeoutMs}} {
		if d.ms < 1 && d.ms != -1 {
			return fmt.Errorf("%s %d: must be positive, or -1 for no limit", d.name, d.ms)
		}
	}
	for _, n := range []struct {
		name  string
		value int
	}{{"-max-connections", o.maxConnections}, {"-max-connections-per-ip", o.maxConnectionsPerIP}} {
		if n.value < 0 {
			return fmt.Errorf("%s %d: must be 0 (no limit) or more", n.name, n.value)
		}
	}
	if o.socketRequestMaxBytes < 1 {
		return fmt.Errorf("-socket-request-max-bytes %d: must be positive", o.socketRequestMaxBytes)
	}
	// A request counts twice toward the queued bytes: as it arrived and
	// decoded (wire copies what it decodes).
	if q, least := o.queuedMaxRequestBytes, 2*int64(o.socketRequestMaxBytes); q != 0 && q != -1 && q < least {
		return fmt.Errorf("-queued-max-request-bytes %d: must be at least %d, twice -socket-request-max-bytes (a request counts as it arrived and decoded), or 0 for that, or -1 for no limit", q, least)
	}
	return nil
}

// listener reads the files the security flags name and returns the
// listener they describe.
func (o *options) listener() (Listener, error) {
	l := Listener{Protocol: o.securityProtocol, Limits: wire.Limits{
		MaxConnections:        o.maxConnections,
		MaxConnectionsPerIP:   o.maxConnectionsPerIP,
		MaxRequestSize:        o.socketRequestMaxBytes,
		QueuedMaxRequestBytes: o.queuedMaxRequestBytes, // 0 and -1 mean to wire what they mean here
		RequestReadTimeout:    millis(o.requestReadTimeoutMs),
		ConnectionsMaxIdle:    millis(o.connectionsMaxIdleMs),
	}}
	if usesTLS(o.securityProtocol) {
		cert, err := tls.LoadX509KeyPair(o.tlsCert, o.tlsKey)
		if err != nil {
			return l, fmt.Errorf("-tls-cert %s, -tls-key %s: %w", o.tlsCert, o.tlsKey, err)
		}
		l.TLS = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	if usesSASL(o.securityProtocol) {
		users, err := readSASLUsers(o.saslUsers)
		if err != nil {
			return l, err
		}
		if l.SASL, err = wire.SASLUsers(users); err != nil {
			return l, fmt.Errorf("-sasl-users %s: %w", o.saslUsers, err)
		}
	}
	return l, nil
}

// millis is a flag's milliseconds as a duration; -1 (no limit) stays
// negative, which wire reads as no limit.
func millis(ms int64) time.Duration { return time.Duration(ms) * time.Millisecond }

// readSASLUsers reads a -sasl-users file: one user:password a line (the
// password is everything after the first colon); blank lines and lines
// starting with # are skipped.
func readSASLUsers(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("-sasl-users: %w", err)
	}
	users := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSuffix(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
			continue
		}
		user, password, ok := strings.Cut(text, ":")
		switch {
		case !ok:
			return nil, fmt.Errorf("%s:%d: expected user:password, found no colon", path, line)
		case user == "":
			return nil, fmt.Errorf("%s:%d: the user name before the colon is empty", path, line)
		case password == "":
			return nil, fmt.Errorf("%s:%d: user %q has an empty password", path, line, user)
		}
		if _, twice := users[user]; twice {
			return nil, fmt.Errorf("%s:%d: user %q is listed twice", path, line, user)
		}
		users[user] = password
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(users) == 0 {
		return nil, fmt.Errorf("%s: no user:password line", path)
	}
	return users, nil
}
