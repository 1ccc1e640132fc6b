package wire

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mutePeer accepts connections on 127.0.0.1 and runs greet on each (then
// holds it open, reading nothing) until the test ends.
func mutePeer(t *testing.T, greet func(net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	var (
		mu    sync.Mutex
		conns []net.Conn
		done  = make(chan struct{})
	)
	go func() {
		defer close(done)
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, conn)
			mu.Unlock()
			greet(conn)
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return ln.Addr().String()
}

// Dial with a context that has no deadline returns once the request
// timeout has passed, whatever the peer does after accepting: silent
// through the TLS handshake or ApiVersions, or garbage instead of TLS.
func TestDialTimesOutWithoutADeadline(t *testing.T) {
	silent := func(net.Conn) {}
	garbage := func(c net.Conn) { c.Write([]byte("this is not a TLS server hello\n")) }
	tests := []struct {
		name        string
		greet       func(net.Conn)
		tls         bool
		wantErr     string // after "kafka dial ADDR: "
		wantTimeout bool   // the error is the deadline's
	}{
		{name: "TLS, silent peer", greet: silent, tls: true, wantErr: "TLS handshake: context deadline exceeded", wantTimeout: true},
		{name: "TLS, garbage peer", greet: garbage, tls: true, wantErr: "TLS handshake: tls: first record does not look like a TLS handshake"},
		{name: "plaintext, silent peer", greet: silent, wantErr: "kafka conn: ApiVersions v4: kafka client: ApiVersionsRequest v4 (correlation id 0): context deadline exceeded", wantTimeout: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			addr := mutePeer(t, tt.greet)
			cfg := ConnConfig{RequestTimeout: 200 * time.Millisecond}
			if tt.tls {
				cfg.TLS = &tls.Config{MinVersion: tls.VersionTLS12}
			}
			result := make(chan error, 1)
			go func() {
				c, err := Dial(context.Background(), addr, cfg)
				if c != nil {
					c.Close()
				}
				result <- err
			}()
			select {
			case err := <-result:
				require.Error(t, err)
				assert.Equal(t, "kafka dial "+addr+": "+tt.wantErr, err.Error())
				assert.Equal(t, tt.wantTimeout, errors.Is(err, context.DeadlineExceeded), "%v", err)
			case <-time.After(20 * time.Second): // a guard against hanging, not a measure
				t.Fatal("Dial still blocked 20 s after a 200 ms request timeout")
			}
		})
	}
}

// A negative request timeout leaves Dial to the caller's context.
func TestDialNegativeTimeoutUsesTheContext(t *testing.T) {
	addr := mutePeer(t, func(net.Conn) {})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := Dial(ctx, addr, ConnConfig{RequestTimeout: -1, TLS: &tls.Config{MinVersion: tls.VersionTLS12}})
	require.Error(t, err)
	assert.Equal(t, "kafka dial "+addr+": TLS handshake: context deadline exceeded", err.Error())
}
