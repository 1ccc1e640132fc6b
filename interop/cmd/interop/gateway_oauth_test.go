package main

import (
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/wire"
)

// Each bad token fails for the reason its row names, and the valid one
// passes, when checked as kafkaproxy checks tokens (examples/proxy/jwt.go:
// golang-jwt, the key of the file it is given, the audience and issuer,
// an expiry required, asymmetric methods only): the attack table tests
// what it says it tests.
func TestBadTokens(t *testing.T) {
	file := filepath.Join(t.TempDir(), "oauth-keys.pem")
	s, err := newTokenSigner(file)
	require.NoError(t, err)
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	block, rest := pem.Decode(data)
	require.NotNil(t, block)
	assert.Equal(t, "PUBLIC KEY", block.Type)
	assert.Empty(t, rest)
	key, err := x509.ParsePKIXPublicKey(block.Bytes)
	require.NoError(t, err)
	check := func(token string) (string, error) {
		parsed, err := jwt.Parse(token, func(*jwt.Token) (any, error) { return key, nil },
			jwt.WithAudience(oauthAudience), jwt.WithIssuer(oauthIssuer), jwt.WithExpirationRequired(),
			jwt.WithValidMethods([]string{"ES256", "RS256", "EdDSA"}))
		if err != nil {
			return "", err
		}
		return parsed.Claims.GetSubject()
	}
	now := time.Now()
	valid, err := s.mint(tokenCase{}, tenantOAuth, now)
	require.NoError(t, err)
	sub, err := check(valid)
	require.NoError(t, err)
	assert.Equal(t, tenantOAuth, sub)

	require.Len(t, badTokens, 5)
	for _, tc := range badTokens {
		token, err := s.mint(tc, tenantOAuth, now)
		require.NoError(t, err, tc.name)
		_, err = check(token)
		assert.ErrorContains(t, err, tc.reason, tc.name)
	}
}

// A login is held when refused at SaslAuthenticate with
// SASL_AUTHENTICATION_FAILED for the reason asked.
func TestRefusedAtAuthenticate(t *testing.T) {
	refused := func(code int16, request, message string) error {
		return fmt.Errorf("dial: %w", &wire.SASLError{Mechanism: "OAUTHBEARER", Request: request, Code: code, Message: message})
	}
	const expired = "Authentication failed: invalid token: token has invalid claims: token is expired"
	handshake := refused(33, "SaslHandshake", "")
	tests := []struct {
		name, reason string
		err          error
		want         attempt
	}{
		{"refused for the reason", "token is expired", refused(58, "SaslAuthenticate", expired),
			attempt{Held: true, Detail: "SASL_AUTHENTICATION_FAILED: " + expired}},
		{"refused, any reason", "", refused(58, "SaslAuthenticate", "Authentication failed: Invalid username or password"),
			attempt{Held: true, Detail: "SASL_AUTHENTICATION_FAILED: Authentication failed: Invalid username or password"}},
		{"refused for another reason", "token has invalid audience", refused(58, "SaslAuthenticate", expired),
			attempt{Detail: `SASL_AUTHENTICATION_FAILED, but not for "token has invalid audience": ` + expired}},
		{"refused at the handshake", "", handshake, attempt{Detail: "want SASL_AUTHENTICATION_FAILED at SaslAuthenticate, got " + handshake.Error()}},
		{"cut", "", errors.New("EOF"), attempt{Detail: "want SASL_AUTHENTICATION_FAILED at SaslAuthenticate, got EOF"}},
		{"let in", "token is expired", nil, attempt{Detail: "authenticated"}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, refusedAtAuthenticate(nil, tt.err, tt.reason), tt.name)
	}
}
