package kfakerun

import (
	"github.com/kafkagen/kafkagen/interop/internal/certs"
	"github.com/kafkagen/kafkagen/interop/internal/scenario"
	"github.com/twmb/franz-go/pkg/kfake"
)

// WrongPasswordSkipped is why the wrong-password steps do not run against
// kfake: it closes the connection on a wrong password instead of answering
// SASL_AUTHENTICATION_FAILED, so the clients cannot report that code.
const WrongPasswordSkipped = "kfake closes the connection on a wrong password instead of answering SASL_AUTHENTICATION_FAILED"

// RunSecured runs a client's secured steps (its SecureSteps) against a
// kfake secured as protocol (with mechanism for SASL), with certificates
// made in dir, as Run does; the wrong-password step is left out
// (WrongPasswordSkipped).
func RunSecured(logf func(format string, args ...any), dir, protocol, mechanism string,
	steps func(broker string, n int, sec scenario.Security) []scenario.Step, opts ...kfake.Opt) error {
	sec, secured, err := secured(dir, protocol, mechanism)
	if err != nil {
		return err
	}
	skip := map[string]string{sec.Label() + "-wrong-password": WrongPasswordSkipped}
	return Run(logf, func(broker string, n int) []scenario.Step { return steps(broker, n, sec) }, skip, append(secured, opts...)...)
}

// secured returns the Security a client connects with to a kfake secured
// as protocol with mechanism, and kfake's options for it.
func secured(dir, protocol, mechanism string) (scenario.Security, []kfake.Opt, error) {
	sec := scenario.Security{Protocol: protocol}
	var opts []kfake.Opt
	if sec.UsesTLS() {
		files, err := certs.Write(dir)
		if err != nil {
			return sec, nil, err
		}
		cfg, err := files.ServerConfig()
		if err != nil {
			return sec, nil, err
		}
		sec.CAFile = files.CA
		opts = append(opts, kfake.TLS(cfg))
	}
	if sec.UsesSASL() {
		sec.Mechanism, sec.User, sec.Password = mechanism, "interop", "interop-secret"
		opts = append(opts, kfake.EnableSASL(), kfake.Superuser(mechanism, sec.User, sec.Password))
	}
	return sec, opts, sec.Check()
}
