package main

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// OAUTHBEARER tokens are JWTs checked here, with golang-jwt (in this
// module, so that the kafkagen module users import stays free of it): the
// signature against the configured public keys, the expiry (required), the
// audience and, when configured, the issuer. The principal is the subject.

// jwtValidator checks tokens against keys.
type jwtValidator struct {
	keys     []crypto.PublicKey
	audience string
	issuer   string
	now      func() time.Time // for tests; nil: time.Now
}

// loadJWTValidator reads the PEM public keys (RSA, ECDSA or Ed25519, as
// PKIX "PUBLIC KEY" blocks) of file.
func loadJWTValidator(file, audience, issuer string) (*jwtValidator, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	v := &jwtValidator{audience: audience, issuer: issuer}
	for block, rest := pem.Decode(data); block != nil; block, rest = pem.Decode(rest) {
		if block.Type != "PUBLIC KEY" {
			return nil, fmt.Errorf("%s: a PEM %q block; want PUBLIC KEY", file, block.Type)
		}
		key, err := x509.ParsePKIXPublicKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		v.keys = append(v.keys, key)
	}
	if len(v.keys) == 0 {
		return nil, fmt.Errorf("%s: no PEM PUBLIC KEY block", file)
	}
	if audience == "" {
		return nil, errors.New("an OAUTHBEARER audience is required (-oauth-audience): a token for another service must not log in here")
	}
	return v, nil
}

// validate returns the subject of a valid token and when it expires.
func (v *jwtValidator) validate(token string) (string, time.Time, error) {
	opts := []jwt.ParserOption{jwt.WithAudience(v.audience), jwt.WithExpirationRequired(),
		jwt.WithValidMethods([]string{"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"})}
	if v.issuer != "" {
		opts = append(opts, jwt.WithIssuer(v.issuer))
	}
	if v.now != nil {
		opts = append(opts, jwt.WithTimeFunc(v.now))
	}
	var errs []error
	for _, key := range v.keys {
		parsed, err := jwt.Parse(token, func(t *jwt.Token) (any, error) {
			if !keyFits(t.Method, key) {
				return nil, fmt.Errorf("signed with %s, which the key does not verify", t.Method.Alg())
			}
			return key, nil
		}, opts...)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		sub, err := parsed.Claims.GetSubject()
		if err != nil || sub == "" {
			return "", time.Time{}, errors.New("the token has no subject")
		}
		exp, _ := parsed.Claims.GetExpirationTime()
		return sub, exp.Time, nil
	}
	return "", time.Time{}, errors.Join(errs...)
}

// keyFits reports whether key verifies tokens signed with method.
func keyFits(method jwt.SigningMethod, key crypto.PublicKey) bool {
	switch key.(type) {
	case *rsa.PublicKey:
		_, rs := method.(*jwt.SigningMethodRSA)
		_, ps := method.(*jwt.SigningMethodRSAPSS)
		return rs || ps
	case *ecdsa.PublicKey:
		_, ok := method.(*jwt.SigningMethodECDSA)
		return ok
	case ed25519.PublicKey:
		_, ok := method.(*jwt.SigningMethodEd25519)
		return ok
	}
	return false
}
