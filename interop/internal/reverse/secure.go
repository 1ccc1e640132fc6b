package reverse

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkagen/kafkagen/interop/internal/loopbacktls"
	"github.com/kafkagen/kafkagen/wire"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// The SASL user of the secure run, and the session lifetime kfake gives
// (connections.max.reauth.ms).
const (
	scramUser     = "kafkagen"
	scramPassword = "interop-secret"
	sessionMs     = 1500
)

// Secure starts kfake with TLS (a certificate made now for 127.0.0.1) and
// SASL (a SCRAM-SHA-512 user, sessions of 1.5 s) and runs over SASL_SSL:
// the highest-versions pass, a connection kept past two session lifetimes
// (it must re-authenticate on the same connection, KIP-368), and a wrong
// password, which must be refused.
func Secure(ctx context.Context, n int) (string, error) {
	serverTLS, clientTLS, err := loopbacktls.Configs()
	if err != nil {
		return "", fmt.Errorf("TLS certificates: %w", err)
	}
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.TLS(serverTLS), kfake.EnableSASL(),
		kfake.Superuser(wire.SASLScramSHA512, scramUser, scramPassword),
		kfake.BrokerConfigs(map[string]string{"connections.max.reauth.ms": strconv.Itoa(sessionMs)}))
	if err != nil {
		return "", fmt.Errorf("kfake: %w", err)
	}
	defer cluster.Close()
	var handshakes atomic.Int32
	cluster.ControlKey(int16(kmsg.SASLHandshake), func(kmsg.Request) (kmsg.Response, error, bool) {
		handshakes.Add(1)
		return nil, nil, false // counted, then served by kfake
	})
	mech, err := wire.ScramSHA512Auth(scramUser, scramPassword)
	if err != nil {
		return "", err
	}
	cfg := wire.ConnConfig{TLS: clientTLS, SASL: mech}
	addr := cluster.ListenAddrs()[0]
	const topic = "kafkagen-reverse-sasl-ssl"
	detail, err := pass(ctx, addr, topic, n, highest, cfg)
	if err != nil {
		return "", fmt.Errorf("SASL_SSL: %w", err)
	}
	renewed, err := reauthenticated(ctx, addr, topic, cfg, &handshakes)
	if err != nil {
		return "", fmt.Errorf("SASL_SSL re-authentication: %w", err)
	}
	refused, err := wrongPassword(ctx, addr, cfg)
	if err != nil {
		return "", fmt.Errorf("SASL_SSL wrong password: %w", err)
	}
	return fmt.Sprintf("SASL_SSL with SCRAM-SHA-512: %s; %s; %s", detail, renewed, refused), nil
}

// reauthenticated keeps one connection busy for two session lifetimes and
// counts the SaslHandshake requests kfake received meanwhile: each one past
// the first is a re-authentication on that connection.
func reauthenticated(ctx context.Context, addr, topic string, cfg wire.ConnConfig, handshakes *atomic.Int32) (string, error) {
	before := handshakes.Load()
	s, err := dial(ctx, addr, "kafkagen-reverse-reauth", highest, cfg)
	if err != nil {
		return "", err
	}
	defer s.close()
	calls := 0
	for end := time.Now().Add(2 * sessionMs * time.Millisecond); time.Now().Before(end); calls++ {
		if _, _, err := metadata(ctx, s, topic); err != nil {
			return "", fmt.Errorf("after %d calls: %w", calls, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	renewals := handshakes.Load() - before - 1
	if renewals < 1 {
		return "", fmt.Errorf("%d Metadata calls over %d ms of %d ms sessions, and no re-authentication", calls, 2*sessionMs, sessionMs)
	}
	return fmt.Sprintf("%d Metadata calls on one connection over %d ms, re-authenticated %d times (sessions of %d ms)", calls, 2*sessionMs, renewals, sessionMs), nil
}

// wrongPassword dials with a wrong password and says how kfake refused it.
// Kafka answers SASL_AUTHENTICATION_FAILED (58) with a message, then
// closes; kfake closes without answering, which the Conn reports as such.
func wrongPassword(ctx context.Context, addr string, cfg wire.ConnConfig) (string, error) {
	wrong, err := wire.ScramSHA512Auth(scramUser, "wrong-"+scramPassword)
	if err != nil {
		return "", err
	}
	cfg.SASL = wrong
	c, err := wire.Dial(ctx, addr, cfg)
	if err == nil {
		c.Close()
		return "", errors.New("a wrong password was accepted")
	}
	var se *wire.SASLError
	if errors.As(err, &se) && errors.Is(err, kerrors.SaslAuthenticationFailed) {
		return "a wrong password refused with SASL_AUTHENTICATION_FAILED (58): " + se.Message, nil
	}
	if strings.Contains(err.Error(), "the broker closed the connection during SaslAuthenticate") {
		return "a wrong password: kfake closed the connection without answering SASL_AUTHENTICATION_FAILED", nil
	}
	return "", fmt.Errorf("refused, but not as an authentication failure: %w", err)
}
