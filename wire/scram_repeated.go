package wire

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"hash"
	"strings"
)

// repeatedNonceFinal checks SCRAM's final client message in the one form
// SASLConfig.AcceptRepeatedScramNonce accepts, which the SCRAM library
// refuses: librdkafka before 2.6.1 puts its own nonce before the server's
// whole nonce (which starts with it) in r=, and signs that message. The
// server's nonce is still checked: r= must be exactly client nonce +
// server nonce. ok is false for any other message, which the library then
// reads (and refuses if its nonce is wrong). RFC 5802 section 3.
func (e *scramExchange) repeatedNonceFinal(final string) (reply []byte, ok bool, err error) {
	attrs := scramAttrs(final)
	first := scramAttrs(e.clientFirstBare())
	server := scramAttrs(e.serverFirst)
	if attrs["r"] != first["r"]+server["r"] || first["r"] == "" || !strings.HasPrefix(server["r"], first["r"]) {
		return nil, false, nil
	}
	failed := fmt.Errorf("Authentication failed during authentication due to invalid credentials with SASL mechanism %s", e.mechanism)
	withoutProof, proof64, cut := strings.Cut(final, ",p=")
	gs2 := strings.TrimSuffix(e.clientFirst, e.clientFirstBare())
	if !cut || attrs["c"] != base64.StdEncoding.EncodeToString([]byte(gs2)) {
		return nil, true, failed
	}
	proof, err := base64.StdEncoding.DecodeString(proof64)
	if err != nil {
		return nil, true, failed
	}
	user := e.conv.Username()
	creds, known := e.lookup(e.mechanism, user)
	newHash := sha256.New
	if e.mechanism == SASLScramSHA512 {
		newHash = sha512.New
	}
	authMessage := e.clientFirstBare() + "," + e.serverFirst + "," + withoutProof
	clientSignature := scramHMAC(newHash, creds.StoredKey, authMessage)
	if !known || len(proof) != len(clientSignature) {
		return nil, true, failed
	}
	clientKey := make([]byte, len(proof))
	for i := range proof {
		clientKey[i] = proof[i] ^ clientSignature[i]
	}
	h := newHash()
	h.Write(clientKey)
	if subtle.ConstantTimeCompare(h.Sum(nil), creds.StoredKey) != 1 {
		return nil, true, failed
	}
	if user == "" {
		return nil, true, errors.New("Authentication failed: no user name")
	}
	e.repeatedUser = user
	return []byte("v=" + base64.StdEncoding.EncodeToString(scramHMAC(newHash, creds.ServerKey, authMessage))), true, nil
}

// clientFirstBare is the client's first message without its GS2 header.
func (e *scramExchange) clientFirstBare() string {
	i := strings.Index(e.clientFirst, "n=")
	if i < 0 {
		return ""
	}
	return e.clientFirst[i:]
}

// scramAttrs reads a SCRAM message's comma-separated a=value attributes.
func scramAttrs(msg string) map[string]string {
	out := map[string]string{}
	for _, kv := range strings.Split(msg, ",") {
		if k, v, ok := strings.Cut(kv, "="); ok && len(k) == 1 {
			if _, dup := out[k]; !dup {
				out[k] = v
			}
		}
	}
	return out
}

func scramHMAC(newHash func() hash.Hash, key []byte, msg string) []byte {
	m := hmac.New(newHash, key)
	m.Write([]byte(msg))
	return m.Sum(nil)
}
