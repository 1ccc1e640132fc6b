package proxy

import (
	"encoding/json"
	"strings"
)

// redacted replaces a secret in the log.
const redacted = `"<redacted>"`

// secretFields are the JSON keys of Kafka's messages that hold secrets:
// SaslAuthenticate's authBytes (passwords in PLAIN, proofs in SCRAM),
// AlterUserScramCredentials' salt and saltedPassword, and the delegation
// token apis' hmac.
var secretFields = map[string]bool{"authBytes": true, "salt": true, "saltedPassword": true, "hmac": true}

// secretConfigWords mark the config names whose values are secrets
// (ssl.keystore.password, sasl.jaas.config, ssl.keystore.key...).
var secretConfigWords = []string{"password", "secret", "jaas", "keystore.key", "credential", "token"}

// redactJSON returns message JSON with the values of secret fields, and the
// "value" of any object whose "name" is a secret config's, replaced by
// "<redacted>". The input is the output of a generated AppendJSON:
// well-formed, with an object's "name" before its "value".
func redactJSON(in []byte) []byte {
	r := redactor{in: in, out: make([]byte, 0, len(in))}
	r.value(false)
	return append(r.out, r.in[r.i:]...)
}

type redactor struct {
	in, out []byte
	i       int
}

// value copies the value at i, or writes redacted in its place.
func (r *redactor) value(secret bool) {
	r.space()
	start := len(r.out)
	if r.i >= len(r.in) {
		return
	}
	switch r.in[r.i] {
	case '{':
		r.object()
	case '[':
		r.copy(1)
		for r.space(); r.i < len(r.in) && r.in[r.i] != ']'; r.space() {
			r.value(false)
			if r.space(); r.i < len(r.in) && r.in[r.i] == ',' {
				r.copy(1)
			}
		}
		r.copy(1)
	case '"':
		r.str()
	default:
		for r.i < len(r.in) && !strings.ContainsRune(",}] \n\t\r", rune(r.in[r.i])) {
			r.copy(1)
		}
	}
	if secret && string(r.out[start:]) != "null" {
		r.out = append(r.out[:start], redacted...)
	}
}

// object copies an object, redacting its secrets.
func (r *redactor) object() {
	r.copy(1)
	var name string
	for r.space(); r.i < len(r.in) && r.in[r.i] != '}'; r.space() {
		keyAt := len(r.out)
		r.str()
		var key string
		_ = json.Unmarshal(r.out[keyAt:], &key)
		r.space()
		r.copy(1) // ':'
		valueAt := len(r.out)
		r.value(secretFields[key] || key == "value" && secretConfig(name))
		if key == "name" {
			_ = json.Unmarshal(r.out[valueAt:], &name)
		}
		if r.space(); r.i < len(r.in) && r.in[r.i] == ',' {
			r.copy(1)
		}
	}
	r.copy(1)
}

// str copies a string, escapes included.
func (r *redactor) str() {
	r.copy(1)
	for r.i < len(r.in) && r.in[r.i] != '"' {
		if r.in[r.i] == '\\' {
			r.copy(1)
		}
		r.copy(1)
	}
	r.copy(1)
}

// space copies white space.
func (r *redactor) space() {
	for r.i < len(r.in) && strings.IndexByte(" \n\t\r", r.in[r.i]) >= 0 {
		r.copy(1)
	}
}

// copy copies n bytes (fewer at the end of the input).
func (r *redactor) copy(n int) {
	n = min(n, len(r.in)-r.i)
	r.out = append(r.out, r.in[r.i:r.i+n]...)
	r.i += n
}

// secretConfig reports whether a config name says its value is a secret.
func secretConfig(name string) bool {
	name = strings.ToLower(name)
	for _, w := range secretConfigWords {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}
