package proxy

import (
	"context"
	"fmt"
	"log"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
)

// countingListener counts the connections it accepts.
type countingListener struct {
	net.Listener
	accepted atomic.Int32
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.accepted.Add(1)
	}
	return c, err
}

// TestUpstreamReauthentication: behind a broker whose sessions live 1.5 s
// (connections.max.reauth.ms, KIP-368), which closes a connection at the
// first request after its session expired, the proxy logs in again on its
// connection before the session ends, with requests of the client in
// flight around it, and every request is answered, on one connection.
func TestUpstreamReauthentication(t *testing.T) {
	const lifetime = 1500 * time.Millisecond
	var logins atomic.Int32
	handler := wire.HandlerFunc(func(ctx context.Context, peer *wire.Peer, req *wire.Request) (runtime.APIMessage, error) {
		body, ok := req.Body.(*generated.BrokerHeartbeatRequest)
		if !ok || peer.Principal != "proxy" {
			return nil, fmt.Errorf("%s from %q", req.Body.SpecName(), peer.Principal)
		}
		resp := generated.NewBrokerHeartbeatResponse()
		resp.BrokerEpoch = body.BrokerEpoch + 1
		return resp, nil
	})
	srv, err := wire.NewServer(handler, wire.ServerOptions{NewRequest: testRequests, SASL: &wire.SASLConfig{
		Plain: func(user, password string) bool {
			logins.Add(1)
			return user == "proxy" && password == "proxy-secret"
		},
		MaxReauth: lifetime,
	}})
	require.NoError(t, err)
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ln := &countingListener{Listener: raw}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	t.Cleanup(func() {
		require.NoError(t, srv.Close())
		<-served
	})

	p, err := New(Config{Listen: "127.0.0.1:0", Upstream: []string{raw.Addr().String()},
		UpstreamSASL: wire.PlainAuth("proxy", "proxy-secret"),
		NewRequest:   testRequests, NewResponse: testResponses, Logger: log.New(&lockedBuffer{}, "", 0)})
	require.NoError(t, err)
	require.NoError(t, p.Start())
	t.Cleanup(func() { require.NoError(t, p.Close()) })
	cl := dial(t, p.Addr().String())

	// Rounds of five pipelined requests, 50 ms apart, for three lifetimes.
	end := time.Now().Add(3 * lifetime)
	var answered int
	for round := int64(0); time.Now().Before(end); round++ {
		var wg sync.WaitGroup
		errs := make([]error, 5)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				req := generated.NewBrokerHeartbeatRequest()
				req.BrokerEpoch = round*10 + int64(i)
				resp := generated.NewBrokerHeartbeatResponse()
				if errs[i] = cl.Do(ctx, req, 0, resp); errs[i] == nil && resp.BrokerEpoch != req.BrokerEpoch+1 {
					errs[i] = fmt.Errorf("epoch %d answered %d", req.BrokerEpoch, resp.BrokerEpoch)
				}
			}()
		}
		wg.Wait()
		for i, err := range errs {
			require.NoError(t, err, "round %d, request %d", round, i)
		}
		answered += len(errs)
		time.Sleep(50 * time.Millisecond)
	}
	assert.GreaterOrEqual(t, logins.Load(), int32(3), "the first login and at least two more")
	assert.Equal(t, int32(1), ln.accepted.Load(), "one connection to the broker throughout")
	t.Logf("%d requests answered, %d logins, %d connection(s) to the broker", answered, logins.Load(), ln.accepted.Load())
}
