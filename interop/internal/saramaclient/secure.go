package saramaclient

import (
	"context"
	"errors"
	"fmt"

	"github.com/IBM/sarama"
	"github.com/kafkagen/kafkagen/interop/internal/scenario"
	"github.com/xdg-go/scram"
)

// SecureSteps returns the scenarios against a broker secured as sec: one
// codec's records produced and read back at sarama's default version, and
// with SASL a wrong password that must get SASL_AUTHENTICATION_FAILED.
func SecureSteps(broker string, n int, sec scenario.Security) []scenario.Step {
	tlsConfig, err := sec.TLSConfig()
	if err != nil {
		return scenario.Failing(sec.Label(), err)
	}
	c := client{broker: broker, n: n, sec: sec, tls: tlsConfig}
	return scenario.SecureSteps(sec, func(ctx context.Context, step string) (string, error) {
		return c.produceConsume(ctx, protocols[0], step, "none", false)
	}, c.wrongPassword)
}

// secure sets cfg's TLS and SASL as the client's security says. sarama
// authenticates with SaslHandshake v1 and SaslAuthenticate, as a client of
// Kafka 1.0 and later does.
func (c client) secure(cfg *sarama.Config) {
	if c.tls != nil {
		cfg.Net.TLS.Enable = true
		cfg.Net.TLS.Config = c.tls
	}
	if !c.sec.UsesSASL() {
		return
	}
	cfg.Net.SASL.Enable = true
	cfg.Net.SASL.Handshake = true
	cfg.Net.SASL.Version = sarama.SASLHandshakeV1
	cfg.Net.SASL.User, cfg.Net.SASL.Password = c.sec.User, c.sec.Password
	switch c.sec.Mechanism {
	case scenario.Plain:
		cfg.Net.SASL.Mechanism = sarama.SASLTypePlaintext
	case scenario.ScramSHA256:
		cfg.Net.SASL.Mechanism = sarama.SASLTypeSCRAMSHA256
		cfg.Net.SASL.SCRAMClientGeneratorFunc = func() sarama.SCRAMClient { return &scramClient{hash: scram.SHA256} }
	case scenario.ScramSHA512:
		cfg.Net.SASL.Mechanism = sarama.SASLTypeSCRAMSHA512
		cfg.Net.SASL.SCRAMClientGeneratorFunc = func() sarama.SCRAMClient { return &scramClient{hash: scram.SHA512} }
	default:
		// sarama's own validation then refuses the configuration, naming it.
		cfg.Net.SASL.Mechanism = sarama.SASLMechanism(c.sec.Mechanism)
	}
}

// scramClient is the SCRAM conversation sarama leaves to its user, on
// xdg-go/scram.
type scramClient struct {
	hash scram.HashGeneratorFcn
	conv *scram.ClientConversation
}

func (s *scramClient) Begin(user, password, authzID string) error {
	cl, err := s.hash.NewClient(user, password, authzID)
	if err != nil {
		return fmt.Errorf("scram client: %w", err)
	}
	s.conv = cl.NewConversation()
	return nil
}

func (s *scramClient) Step(challenge string) (string, error) { return s.conv.Step(challenge) }

func (s *scramClient) Done() bool { return s.conv.Done() }

// wrongPassword opens a client with the wrong password and checks that the
// broker refused it with SASL_AUTHENTICATION_FAILED.
func (c client) wrongPassword(_ context.Context, step string) (string, error) {
	bad := c
	bad.sec = c.sec.WithPassword(scenario.WrongPassword)
	cfg := bad.config(protocols[0], step)
	cfg.Metadata.Retry.Max = 0
	cl, err := sarama.NewClient([]string{c.broker}, cfg)
	if err == nil {
		cl.Close()
	}
	return c.sec.ExpectAuthFailed(err, func(err error) bool { return errors.Is(err, sarama.ErrSASLAuthenticationFailed) })
}
