package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"os"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
)

// OAUTHBEARER at the gateway: kafkaproxy checks each token, a JWT, against
// the public half of a key pair made for the run, for oauthAudience from
// oauthIssuer, with an expiry required (examples/proxy/jwt.go). The
// harness keeps the private half in memory and mints the tokens. One valid
// token logs tenantOAuth in (oauthControl): the control that shows the
// refusals of the others (badTokens) are refusals of the token, not of a
// setup where no token could pass.

const (
	oauthAudience = "kafkagen-interop-gateway"
	oauthIssuer   = "https://issuer.interop.invalid"
	// oauthControlTopic is the topic tenantOAuth creates and writes
	// oauthControlRecords records to, which the broker must then hold
	// under its prefix.
	oauthControlTopic   = "oauth-control"
	oauthControlRecords = 3
)

// tokenSigner mints the run's tokens: key's public half, in file, is the
// one kafkaproxy trusts; stranger is another pair, which it does not know.
type tokenSigner struct {
	key, stranger *ecdsa.PrivateKey
	file          string
}

// newTokenSigner makes both pairs (ECDSA P-256, for ES256) and writes
// key's public half to file as a PEM PUBLIC KEY block
// (sasl.oauthBearer.keysFile).
func newTokenSigner(file string) (*tokenSigner, error) {
	s := tokenSigner{file: file}
	var err error
	if s.key, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader); err != nil {
		return nil, err
	}
	if s.stranger, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader); err != nil {
		return nil, err
	}
	der, err := x509.MarshalPKIXPublicKey(&s.key.PublicKey)
	if err != nil {
		return nil, err
	}
	return &s, os.WriteFile(file, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), 0o600)
}

// tokenCase is a way to make a token: the zero value makes a valid one.
type tokenCase struct {
	name string
	// edit changes the valid token's claims.
	edit func(c jwt.MapClaims, now time.Time)
	// stranger signs with the key kafkaproxy does not trust; unsigned
	// makes an "alg": "none" token with no signature.
	stranger, unsigned bool
	// reason is what the proxy's refusal must name: golang-jwt's words,
	// which its SASL_AUTHENTICATION_FAILED message quotes.
	reason string
}

// badTokens are the tokens of tenantOAuth's subject that must be refused
// at SaslAuthenticate, each for one fault.
var badTokens = []tokenCase{
	{name: "expired a minute ago", edit: func(c jwt.MapClaims, now time.Time) { c["exp"] = now.Add(-time.Minute).Unix() },
		reason: "token is expired"},
	{name: "for another audience", edit: func(c jwt.MapClaims, _ time.Time) { c["aud"] = "another-service" },
		reason: "token has invalid audience"},
	{name: "signed by another key", stranger: true, reason: "verification error"},
	{name: "from another issuer", edit: func(c jwt.MapClaims, _ time.Time) { c["iss"] = "https://attacker.invalid" },
		reason: "token has invalid issuer"},
	{name: "unsigned (alg none)", unsigned: true, reason: "signing method none is invalid"},
}

// tokenClaims are a valid token's claims for subject: the audience and
// issuer kafkaproxy wants, expiring in ten minutes.
func tokenClaims(subject string, now time.Time) jwt.MapClaims {
	return jwt.MapClaims{"sub": subject, "aud": oauthAudience, "iss": oauthIssuer,
		"iat": now.Unix(), "exp": now.Add(10 * time.Minute).Unix()}
}

// mint makes the token of tc for subject.
func (s *tokenSigner) mint(tc tokenCase, subject string, now time.Time) (string, error) {
	claims := tokenClaims(subject, now)
	if tc.edit != nil {
		tc.edit(claims, now)
	}
	switch {
	case tc.unsigned:
		return jwt.NewWithClaims(jwt.SigningMethodNone, claims).SignedString(jwt.UnsafeAllowNoneSignatureType)
	case tc.stranger:
		return jwt.NewWithClaims(jwt.SigningMethodES256, claims).SignedString(s.stranger)
	}
	return jwt.NewWithClaims(jwt.SigningMethodES256, claims).SignedString(s.key)
}

// bearer authenticates with OAUTHBEARER, sending token.
func bearer(token string) wire.SASLMechanism {
	return wire.OAuthBearerAuth(func(context.Context) (string, map[string]string, error) { return token, nil, nil })
}

// tokenAttempt logs in with the token of tc for subject: held when
// refused with SASL_AUTHENTICATION_FAILED for tc's reason.
func tokenAttempt(ctx context.Context, d gatewayDialer, s *tokenSigner, tc tokenCase, subject string) attempt {
	token, err := s.mint(tc, subject, time.Now())
	if err != nil {
		return attempt{Detail: "minting the token: " + err.Error()}
	}
	c, err := d.dialWith(ctx, bearer(token), "gateway-auth")
	return refusedAtAuthenticate(c, err, tc.reason)
}

// oauthControl logs tenant in with a valid token, creates
// oauthControlTopic, writes to it and reads its metadata, all through its
// virtual cluster. It returns the topic the broker must hold, and a line
// saying what happened.
func oauthControl(ctx context.Context, d gatewayDialer, s *tokenSigner, tenant gatewayTenant) (map[string]expectedTopic, string, error) {
	token, err := s.mint(tokenCase{}, tenant.Name, time.Now())
	if err != nil {
		return nil, "", err
	}
	c, err := d.dialWith(ctx, bearer(token), "gateway-oauth-control")
	if err != nil {
		return nil, "", fmt.Errorf("%s cannot log in with a valid token: %w", tenant.Name, err)
	}
	defer c.Close()
	if code, err := createTopic(ctx, c, oauthControlTopic); err != nil || code != 0 {
		return nil, "", fmt.Errorf("%s creates %s: code %d, %v", tenant.Name, oauthControlTopic, code, err)
	}
	if code, err := produceTo(ctx, c, oauthControlTopic, oauthControlRecords); err != nil || code != 0 {
		return nil, "", fmt.Errorf("%s writes to %s: code %d, %v", tenant.Name, oauthControlTopic, code, err)
	}
	t, err := metadataOf(ctx, c, oauthControlTopic, runtime.UUID{}, false)
	if err != nil || t.ErrorCode != 0 || t.Name.Value != oauthControlTopic || t.TopicID == (runtime.UUID{}) {
		return nil, "", fmt.Errorf("%s's metadata of %s: %+v, %v", tenant.Name, oauthControlTopic, t, err)
	}
	line := fmt.Sprintf("%s logged in with a valid OAUTHBEARER token, created %s, wrote %d records and read its metadata (id %v)",
		tenant.Name, oauthControlTopic, oauthControlRecords, t.TopicID)
	return map[string]expectedTopic{tenant.Prefix() + oauthControlTopic: {oauthControlTopic, oauthControlRecords}}, line, nil
}
