package wire

import (
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/xdg-go/scram"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// connBroker is the stub broker of the Conn tests, on 127.0.0.1: it
// answers ApiVersions (up to apiVersionsMax, refusing above as Kafka
// does), SASL as Kafka does (PLAIN, SCRAM-SHA-256/512, OAUTHBEARER, an
// optional session lifetime after which it closes a connection at its
// next request that is not part of a re-authentication) and StopReplica.
// It logs every request; a request that Kafka would refuse (before
// authentication, after expiry, inside an exchange) is logged as a
// violation and closes the connection.
type connBroker struct {
	t   *testing.T
	ln  net.Listener
	tls *tls.Config

	apiVersionsMax, handshakeMax int16
	passwords                    map[string]string // user -> password, for PLAIN and SCRAM
	tokens                       map[string]bool   // OAUTHBEARER tokens accepted
	lifetime                     time.Duration
	silentFailure                bool // close on a failed authentication without answering, as kfake does
	illegalState                 bool // answer every SaslHandshake ILLEGAL_SASL_STATE

	mu         sync.Mutex
	log        []string
	violations []string
	auths      int
	clientCN   string // the client certificate's subject, over TLS
	wg         sync.WaitGroup
}

// startConnBroker serves until the test ends; configure b before Dial.
func startConnBroker(t *testing.T, configure func(b *connBroker)) *connBroker {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	b := &connBroker{t: t, ln: ln, apiVersionsMax: 4, handshakeMax: 1}
	if configure != nil {
		configure(b)
	}
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			b.wg.Add(1)
			go func() { defer b.wg.Done(); b.serve(conn) }()
		}
	}()
	t.Cleanup(func() { ln.Close(); b.wg.Wait() })
	return b
}

func (b *connBroker) addr() string { return b.ln.Addr().String() }

func (b *connBroker) record(s string) {
	b.mu.Lock()
	b.log = append(b.log, s)
	b.mu.Unlock()
}

func (b *connBroker) violation(format string, args ...any) {
	b.mu.Lock()
	b.violations = append(b.violations, fmt.Sprintf(format, args...))
	b.mu.Unlock()
}

func (b *connBroker) logged() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.log...)
}

// saslState is one connection's authentication.
type saslState struct {
	mechanism string // from the last SaslHandshake; "" outside an exchange
	scram     *scram.ServerConversation
	refused   bool      // OAUTHBEARER: the error document was sent
	done      bool      // authenticated at least once
	expires   time.Time // zero: never
}

func (b *connBroker) serve(conn net.Conn) {
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(time.Minute))
	if b.tls != nil {
		tc := tls.Server(conn, b.tls)
		if err := tc.Handshake(); err != nil {
			return
		}
		if certs := tc.ConnectionState().PeerCertificates; len(certs) > 0 {
			b.mu.Lock()
			b.clientCN = certs[0].Subject.CommonName
			b.mu.Unlock()
		}
		conn = tc
	}
	supported := []VersionRange{
		{APIKey: generated.APIKeyAPIVersions, MinVersion: 0, MaxVersion: b.apiVersionsMax},
		{APIKey: 17, MinVersion: 0, MaxVersion: b.handshakeMax},
		{APIKey: 36, MinVersion: 0, MaxVersion: 2},
		{APIKey: 5, MinVersion: 0, MaxVersion: 0},
	}
	sc := NewServerConn(conn, ServerConfig{NewRequest: generated.NewRequest, Supported: supported})
	var st saslState
	for {
		req, err := sc.ReadRequest()
		if errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed) {
			return
		}
		if err != nil {
			if err = sc.Answer(err); err != nil {
				return
			}
			b.record(fmt.Sprintf("ApiVersions v%d refused", b.apiVersionsMax+1))
			continue
		}
		name := strings.TrimSuffix(req.Body.SpecName(), "Request")
		b.record(fmt.Sprintf("%s v%d", name, req.Header.APIVersion))
		resp, closeAfter := b.answer(req, &st, sc)
		if resp == nil && closeAfter {
			return
		}
		if resp == nil {
			continue
		}
		if err := sc.WriteResponse(req, resp); err != nil || closeAfter {
			return
		}
	}
}

// answer is the response to req, and whether to close the connection
// after it (a failed authentication); nil with close closes at once, nil
// alone answers nothing.
func (b *connBroker) answer(req *Request, st *saslState, sc *ServerConn) (runtime.APIMessage, bool) {
	sasl := b.passwords != nil || b.tokens != nil
	switch body := req.Body.(type) {
	case *generated.APIVersionsRequest:
		resp := generated.NewAPIVersionsResponse()
		for _, r := range sc.Supported([]int16{generated.APIKeyAPIVersions, 17, 36, 5}) {
			resp.APIKeys = append(resp.APIKeys, generated.APIVersionsResponseAPIVersion{APIKey: r.APIKey, MinVersion: r.MinVersion, MaxVersion: r.MaxVersion})
		}
		return resp, false
	case *generated.SaslHandshakeRequest:
		resp := generated.NewSaslHandshakeResponse()
		resp.Mechanisms = []string{SASLPlain, SASLScramSHA256, SASLScramSHA512, SASLOAuthBearer}
		switch {
		case b.illegalState || st.mechanism != "" || (st.done && st.expires.IsZero()):
			resp.ErrorCode = kerrors.IllegalSaslState.Code
		case !contains(resp.Mechanisms, body.Mechanism):
			resp.ErrorCode = kerrors.UnsupportedSaslMechanism.Code
		default:
			st.mechanism = body.Mechanism
		}
		return resp, false
	case *generated.SaslAuthenticateRequest:
		if st.mechanism == "" {
			b.violation("SaslAuthenticate without a handshake")
			return nil, true
		}
		return b.authenticate(body.AuthBytes, st)
	}
	switch {
	case sasl && (!st.done || st.mechanism != ""):
		b.violation("%s v%d during or before authentication", req.Body.SpecName(), req.Header.APIVersion)
		return nil, true
	case sasl && !st.expires.IsZero() && time.Now().After(st.expires):
		b.violation("%s v%d after the session expired", req.Body.SpecName(), req.Header.APIVersion)
		return nil, true
	}
	if body, ok := req.Body.(*generated.StopReplicaRequest); ok && body.AckTimeoutMs == 0 {
		return nil, false // a request sent unanswered (Conn.Send), as Produce with acks 0
	}
	return stopReplicaAnswer(req), false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// authenticate takes one SaslAuthenticate message of the exchange st is
// in. A failure answers SASL_AUTHENTICATION_FAILED with a message and
// closes, as Kafka does.
func (b *connBroker) authenticate(msg []byte, st *saslState) (runtime.APIMessage, bool) {
	resp := generated.NewSaslAuthenticateResponse()
	fail := func(message string) (runtime.APIMessage, bool) {
		if b.silentFailure {
			return nil, true
		}
		resp.ErrorCode = kerrors.SaslAuthenticationFailed.Code
		resp.ErrorMessage = runtime.NewNullString(message)
		return resp, true
	}
	switch st.mechanism {
	case SASLPlain:
		parts := strings.Split(string(msg), "\x00")
		if len(parts) != 3 || parts[1] == "" || b.passwords[parts[1]] != parts[2] {
			return fail("Authentication failed: Invalid username or password")
		}
	case SASLScramSHA256, SASLScramSHA512:
		if st.scram == nil {
			st.scram = b.scramServer(st.mechanism).NewConversation()
		}
		out, err := st.scram.Step(string(msg))
		if err != nil {
			return fail("Authentication failed during authentication due to invalid credentials with SASL mechanism " + st.mechanism)
		}
		resp.AuthBytes = []byte(out)
		if !st.scram.Done() {
			return resp, false
		}
		st.scram = nil
	case SASLOAuthBearer:
		if st.refused {
			return fail("invalid token")
		}
		token, _, _ := strings.Cut(strings.TrimPrefix(string(msg), "n,,\x01auth=Bearer "), "\x01")
		if !b.tokens[token] {
			st.refused = true
			resp.AuthBytes = []byte(`{"status":"invalid_token"}`)
			return resp, false
		}
	}
	st.mechanism, st.done = "", true
	b.mu.Lock()
	b.auths++
	b.mu.Unlock()
	if b.lifetime > 0 {
		resp.SessionLifetimeMs = b.lifetime.Milliseconds()
		st.expires = time.Now().Add(b.lifetime)
	}
	return resp, false
}

// scramServer checks SCRAM proofs against b.passwords (salted once per
// user, 4096 iterations as Kafka's minimum).
func (b *connBroker) scramServer(mechanism string) *scram.Server {
	hash := scram.SHA256
	if mechanism == SASLScramSHA512 {
		hash = scram.SHA512
	}
	srv, err := hash.NewServer(func(user string) (scram.StoredCredentials, error) {
		password, ok := b.passwords[user]
		if !ok {
			return scram.StoredCredentials{}, fmt.Errorf("no user %q", user)
		}
		c, err := hash.NewClientUnprepped(user, password, "")
		if err != nil {
			return scram.StoredCredentials{}, err
		}
		return c.GetStoredCredentialsWithError(scram.KeyFactors{Salt: "salt of " + user, Iters: 4096})
	})
	require.NoError(b.t, err)
	return srv
}
