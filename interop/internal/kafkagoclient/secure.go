package kafkagoclient

import (
	"context"
	"errors"
	"fmt"

	"github.com/kafkagen/kafkagen/interop/internal/scenario"
	"github.com/segmentio/kafka-go"
	"github.com/segmentio/kafka-go/sasl"
	"github.com/segmentio/kafka-go/sasl/plain"
	"github.com/segmentio/kafka-go/sasl/scram"
)

// SecureSteps returns the scenarios against a broker secured as sec: one
// codec's records produced and read back, and with SASL a wrong password
// that must get SASL_AUTHENTICATION_FAILED.
func SecureSteps(broker string, n int, sec scenario.Security) []scenario.Step {
	c := client{broker: broker, n: n}
	var err error
	if c.tls, err = sec.TLSConfig(); err == nil {
		c.sasl, err = mechanism(sec)
	}
	if err != nil {
		return scenario.Failing(sec.Label(), err)
	}
	wrong, err := mechanism(sec.WithPassword(scenario.WrongPassword))
	if err != nil {
		return scenario.Failing(sec.Label(), err)
	}
	return scenario.SecureSteps(sec, func(ctx context.Context, step string) (string, error) {
		return c.produceConsume(ctx, step, "none")
	}, func(ctx context.Context, step string) (string, error) {
		bad := c
		bad.sasl = wrong
		return bad.wrongPassword(ctx, step, sec)
	})
}

// mechanism is kafka-go's SASL mechanism for sec; nil without SASL.
func mechanism(sec scenario.Security) (sasl.Mechanism, error) {
	if !sec.UsesSASL() {
		return nil, nil
	}
	switch sec.Mechanism {
	case scenario.Plain:
		return plain.Mechanism{Username: sec.User, Password: sec.Password}, nil
	case scenario.ScramSHA256:
		return scram.Mechanism(scram.SHA256, sec.User, sec.Password)
	case scenario.ScramSHA512:
		return scram.Mechanism(scram.SHA512, sec.User, sec.Password)
	}
	return nil, fmt.Errorf("kafka-go: no SASL mechanism %q here", sec.Mechanism)
}

// wrongPassword asks for metadata with the client's (wrong) password and
// checks that the broker refused it with SASL_AUTHENTICATION_FAILED.
// kafka-go reports a connection closed during authentication as that
// error too, so the broker's message is what shows the broker answered.
func (c client) wrongPassword(ctx context.Context, step string, sec scenario.Security) (string, error) {
	_, err := c.adminClient(step).Metadata(ctx, &kafka.MetadataRequest{})
	return sec.ExpectAuthFailed(err, func(err error) bool { return errors.Is(err, kafka.SASLAuthenticationFailed) })
}
