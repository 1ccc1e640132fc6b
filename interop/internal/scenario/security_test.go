package scenario

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSecurityCheck(t *testing.T) {
	for _, tc := range []struct {
		sec  Security
		want string // "" when usable
	}{
		{Security{}, ""},
		{Security{Protocol: Plaintext}, ""},
		{Security{Protocol: SSL, CAFile: "ca.pem"}, ""},
		{Security{Protocol: SASLSSL, Mechanism: ScramSHA512, User: "u", Password: "p", CAFile: "ca.pem"}, ""},
		{Security{Protocol: "TLS"}, `security protocol "TLS": want PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL`},
		{Security{Protocol: SSL}, "SSL: a CA file is needed"},
		{Security{Protocol: SASLPlaintext, Mechanism: "GSSAPI", User: "u", Password: "p"}, `SASL_PLAINTEXT: SASL mechanism "GSSAPI": want PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512`},
		{Security{Protocol: SASLPlaintext, Mechanism: Plain, User: "u"}, "SASL_PLAINTEXT: a SASL user and password are needed"},
		{Security{Protocol: SASLSSL, Mechanism: Plain, User: "u", Password: "p"}, "SASL_SSL: a CA file is needed"},
	} {
		err := tc.sec.Check()
		if tc.want == "" {
			assert.NoError(t, err, "%+v", tc.sec)
		} else {
			assert.EqualError(t, err, tc.want, "%+v", tc.sec)
		}
	}
}

func TestSecurityNames(t *testing.T) {
	for _, tc := range []struct {
		sec          Security
		label, text  string
		tls, sasl    bool
		authFailedIn string
	}{
		{Security{Protocol: SSL}, "ssl", "SSL", true, false, ""},
		{Security{Protocol: SASLPlaintext, Mechanism: Plain, User: "u"}, "sasl-plaintext-plain", "SASL_PLAINTEXT with PLAIN as u", false, true,
			"Authentication failed: Invalid username or password"},
		{Security{Protocol: SASLSSL, Mechanism: ScramSHA512, User: "u"}, "sasl-ssl-scram-sha-512", "SASL_SSL with SCRAM-SHA-512 as u", true, true,
			"Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512"},
	} {
		assert.Equal(t, tc.label, tc.sec.Label())
		assert.Equal(t, tc.text, tc.sec.String())
		assert.Equal(t, tc.tls, tc.sec.UsesTLS(), tc.label)
		assert.Equal(t, tc.sasl, tc.sec.UsesSASL(), tc.label)
		if tc.sasl {
			assert.Equal(t, tc.authFailedIn, tc.sec.AuthFailedMessage())
		}
	}
	assert.Equal(t, "sasl-ssl", Security{Protocol: SASLSSL}.Label(), "a protocol's own label, for its broker")
}

func TestSecureSteps(t *testing.T) {
	produced := func(_ context.Context, step string) (string, error) { return "produced in " + step, nil }
	refused := func(_ context.Context, step string) (string, error) { return "refused in " + step, nil }

	steps := SecureSteps(Security{Protocol: SASLSSL, Mechanism: ScramSHA256, User: "u"}, produced, refused)
	require.Len(t, steps, 2)
	assert.Equal(t, "sasl-ssl-scram-sha-256-none", steps[0].Name)
	detail, err := steps[0].Run(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "produced in sasl-ssl-scram-sha-256-none over SASL_SSL with SCRAM-SHA-256 as u", detail)
	assert.Equal(t, "sasl-ssl-scram-sha-256-wrong-password", steps[1].Name)
	detail, err = steps[1].Run(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "refused in sasl-ssl-scram-sha-256-wrong-password", detail)

	steps = SecureSteps(Security{Protocol: SSL}, produced, refused)
	require.Len(t, steps, 1, "no password to get wrong without SASL")
	assert.Equal(t, "ssl-none", steps[0].Name)
}

// errAuth stands for a client's SASL_AUTHENTICATION_FAILED error.
var errAuth = errors.New("SASL_AUTHENTICATION_FAILED: SASL Authentication failed.")

func TestExpectAuthFailed(t *testing.T) {
	sec := Security{Protocol: SASLPlaintext, Mechanism: Plain}
	is58 := func(err error) bool { return errors.Is(err, errAuth) }
	for _, tc := range []struct {
		err  error
		want string // "" when the check passes
	}{
		{nil, "a wrong password was accepted"},
		{errors.New("EOF"), "a wrong password got EOF, want SASL_AUTHENTICATION_FAILED (58)"},
		{errAuth, "SASL_AUTHENTICATION_FAILED without the broker's message"},
		{fmt.Errorf("%w: Authentication failed: Invalid username or password", errAuth), ""},
	} {
		detail, err := sec.ExpectAuthFailed(tc.err, is58)
		if tc.want == "" {
			require.NoError(t, err)
			assert.Equal(t, "a wrong password refused: "+tc.err.Error(), detail)
			continue
		}
		assert.ErrorContains(t, err, tc.want)
	}
}

func TestTLSConfig(t *testing.T) {
	cfg, err := Security{Protocol: SASLPlaintext}.TLSConfig()
	require.NoError(t, err)
	assert.Nil(t, cfg, "no TLS without it in the protocol")

	dir := t.TempDir()
	_, err = Security{Protocol: SSL, CAFile: filepath.Join(dir, "missing.pem")}.TLSConfig()
	assert.ErrorContains(t, err, "CA file: open ")
	notPEM := filepath.Join(dir, "not.pem")
	require.NoError(t, os.WriteFile(notPEM, []byte("hello"), 0o600))
	_, err = Security{Protocol: SSL, CAFile: notPEM}.TLSConfig()
	assert.EqualError(t, err, "CA file "+notPEM+": no PEM certificate in it")
}
