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
// broker must refuse with its SASL_AUTHENTICATION_FAILED message. With
// SASL but not SCRAM, a last step shows why kcat cannot use SCRAM here
// (scramNonce), or, against a server that accepts librdkafka's repeated
// nonce, that it can (scramNonceAccepted).
func SecureSteps(broker string, n int, sec scenario.Security) []scenario.Step {
	c := client{broker: broker, n: n, sec: sec}
	steps := scenario.SecureSteps(sec, func(ctx context.Context, step string) (string, error) {
		return c.produceConsume(ctx, step, "-X", "acks=1")
	}, c.wrongPassword)
	if sec.UsesSASL() && !strings.HasPrefix(sec.Mechanism, "SCRAM-") {
		step := sec.Label() + "-scram-sha-512-nonce"
		run := c.scramNonce
		if sec.RepeatedScramNonceAccepted {
			run = c.scramNonceAccepted
		}
		steps = append(steps, scenario.Step{Name: step, Run: func(ctx context.Context) (string, error) {
			return run(ctx, step)
		}})
	}
	return steps
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
// the broker's SASL_AUTHENTICATION_FAILED answer to its SaslAuthenticate
// into the local error _AUTHENTICATION, logged as "SASL authentication
// error: " and the broker's message, and kcat gives up when the metadata
// timeout (-m) ends.
func (c client) wrongPassword(ctx context.Context, step string) (string, error) {
	bad := c
	bad.sec = c.sec.WithPassword(scenario.WrongPassword)
	err := bad.refused(ctx, step)
	if err == nil {
		return "", errors.New("a wrong password was accepted")
	}
	return bad.expectRefusal(err, "a wrong password")
}

// scramNonce lists metadata with SCRAM-SHA-512 and the right password,
// which the broker refuses: librdkafka before 2.6.1 (Debian 12 has 2.0.2)
// puts its client nonce once more in front of the server's in the SCRAM
// client-final message, and a broker that checks that nonce as RFC 5802
// says and Kafka 4 does (the example broker) refuses the proof. The step
// fails once kcat authenticates, so that its run then moves to SCRAM.
func (c client) scramNonce(ctx context.Context, step string) (string, error) {
	scram := c
	scram.sec.Mechanism = scenario.ScramSHA512
	err := scram.refused(ctx, step)
	if err == nil {
		return "", errors.New("kcat authenticated with SCRAM-SHA-512: librdkafka no longer repeats its SCRAM nonce, run kcat with SCRAM-SHA-512 (interop/cmd/interop/clients_secure.go)")
	}
	return scram.expectRefusal(err, "SCRAM-SHA-512 with the right password (librdkafka 2.0.2 repeats its client nonce)")
}

// scramNonceAccepted lists metadata with SCRAM-SHA-512 and the right
// password from a server that accepts librdkafka's repeated client nonce
// (kafkaproxy with acceptRepeatedScramNonce): kcat must authenticate.
func (c client) scramNonceAccepted(ctx context.Context, step string) (string, error) {
	scram := c
	scram.sec.Mechanism = scenario.ScramSHA512
	out, err := scram.run(ctx, step, nil, "-L")
	if err != nil {
		return "", fmt.Errorf("SCRAM-SHA-512 with librdkafka's repeated nonce, which the server says it accepts: %w", err)
	}
	if !strings.Contains(string(out), "Metadata for all topics") {
		return "", fmt.Errorf("SCRAM-SHA-512 with librdkafka's repeated nonce: kcat -L printed no metadata: %q", out)
	}
	return "SCRAM-SHA-512 with librdkafka's repeated nonce accepted: metadata listed", nil
}

// refused lists metadata with logging on (-v after -q: librdkafka's
// errors are printed) and a short metadata timeout; its error holds what
// kcat printed.
func (c client) refused(ctx context.Context, step string) error {
	_, err := c.run(ctx, step, nil, "-v", "-L", "-m", "2")
	return err
}

// expectRefusal checks that kcat's error reports the broker's
// SASL_AUTHENTICATION_FAILED message for c's mechanism.
func (c client) expectRefusal(err error, what string) (string, error) {
	want := "SASL authentication error: " + c.sec.AuthFailedMessage()
	if !strings.Contains(err.Error(), want) {
		return "", fmt.Errorf("%s got %v, want librdkafka's %q", what, err, want)
	}
	return what + " refused: " + lineFrom(err.Error(), want), nil
}

// lineFrom is text from the first substr on, to the end of that line.
func lineFrom(text, substr string) string {
	rest := text[max(strings.Index(text, substr), 0):]
	line, _, _ := strings.Cut(rest, "\n")
	return line
}
