package kcatclient

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/kafkagen/kafkagen/interop/internal/scenario"
)

// SecureSteps returns the scenarios against a broker secured as sec: its
// records produced and read back, and with SASL a wrong password that the
// broker must refuse with its SASL_AUTHENTICATION_FAILED message.
func SecureSteps(broker string, n int, sec scenario.Security) []scenario.Step {
	c := client{broker: broker, n: n, sec: sec}
	return scenario.SecureSteps(sec, func(ctx context.Context, step string) (string, error) {
		return c.produceConsume(ctx, step, "-X", "acks=1")
	}, c.wrongPassword)
}

// securityArgs are librdkafka's settings for sec.
func securityArgs(sec scenario.Security) []string {
	if !sec.Secured() {
		return nil
	}
	args := []string{"-X", "security.protocol=" + strings.ToLower(sec.Protocol)}
	if sec.UsesTLS() {
		args = append(args, "-X", "ssl.ca.location="+sec.CAFile)
	}
	if sec.UsesSASL() {
		args = append(args, "-X", "sasl.mechanisms="+sec.Mechanism,
			"-X", "sasl.username="+sec.User, "-X", "sasl.password="+sec.Password)
	}
	return args
}

// wrongPassword lists metadata with the wrong password. librdkafka turns
// the broker's SASL_AUTHENTICATION_FAILED into its local error
// _AUTHENTICATION, logged with the broker's message, and kcat gives up
// when the metadata timeout (-m) ends.
func (c client) wrongPassword(ctx context.Context, step string) (string, error) {
	bad := c
	bad.sec = c.sec.WithPassword(scenario.WrongPassword)
	_, err := bad.run(ctx, step, nil, "-L", "-m", "3")
	switch {
	case err == nil:
		return "", errors.New("a wrong password was accepted")
	case !strings.Contains(err.Error(), "SASL authentication error: "+c.sec.AuthFailedMessage()):
		return "", fmt.Errorf("a wrong password got %v, want librdkafka's \"SASL authentication error: %s\"", err, c.sec.AuthFailedMessage())
	}
	return "a wrong password refused: " + firstLine(err.Error(), "SASL authentication error"), nil
}

// firstLine is the first line of text holding substr, or text itself.
func firstLine(text, substr string) string {
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, substr) {
			return strings.TrimSpace(line)
		}
	}
	return text
}
