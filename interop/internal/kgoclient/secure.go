package kgoclient

import (
	"context"
	"errors"
	"fmt"

	"github.com/kafkagen/kafkagen/interop/internal/scenario"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/sasl"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"
)

// SecureSteps returns the scenarios against a broker secured as sec: one
// codec's records produced and read back, and with SASL a wrong password
// that must get SASL_AUTHENTICATION_FAILED.
func SecureSteps(broker string, n int, sec scenario.Security) []scenario.Step {
	c := client{broker: broker, n: n, sec: sec}
	return scenario.SecureSteps(sec, func(ctx context.Context, step string) (string, error) {
		return c.produceConsumeAt(ctx, step, kgo.LeaderAck(), kgo.NoCompression())
	}, c.wrongPassword)
}

// securityOpts are the kgo options that connect as sec says.
func securityOpts(sec scenario.Security) ([]kgo.Opt, error) {
	var opts []kgo.Opt
	cfg, err := sec.TLSConfig()
	if err != nil {
		return nil, err
	}
	if cfg != nil {
		opts = append(opts, kgo.DialTLSConfig(cfg))
	}
	if sec.UsesSASL() {
		var m sasl.Mechanism
		switch sec.Mechanism {
		case scenario.Plain:
			m = plain.Auth{User: sec.User, Pass: sec.Password}.AsMechanism()
		case scenario.ScramSHA256:
			m = scram.Auth{User: sec.User, Pass: sec.Password}.AsSha256Mechanism()
		case scenario.ScramSHA512:
			m = scram.Auth{User: sec.User, Pass: sec.Password}.AsSha512Mechanism()
		default:
			return nil, fmt.Errorf("franz-go: no SASL mechanism %q here", sec.Mechanism)
		}
		opts = append(opts, kgo.SASL(m))
	}
	return opts, nil
}

// wrongPassword asks for metadata with the wrong password and checks that
// the broker refused it with SASL_AUTHENTICATION_FAILED.
func (c client) wrongPassword(ctx context.Context, step string) (string, error) {
	bad := c
	bad.sec = c.sec.WithPassword(scenario.WrongPassword)
	cl, err := bad.newClient(step)
	if err != nil {
		return "", err
	}
	defer cl.Close()
	_, err = kmsg.NewPtrMetadataRequest().RequestWith(ctx, cl)
	return c.sec.ExpectAuthFailed(err, func(err error) bool { return errors.Is(err, kerr.SaslAuthenticationFailed) })
}
