//go:build reliability

package main

import (
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	rt "github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/frames"
)

// Raw connections for the attacks: no wire.Client, so that the test's side
// keeps no buffers of its own and can send what a client would not.

// exchange writes frame on conn and returns a copy of the answer, within
// a minute (a 100 MiB frame on a loaded machine).
func exchange(conn net.Conn, frame []byte) ([]byte, error) {
	if err := conn.SetDeadline(time.Now().Add(time.Minute)); err != nil {
		return nil, err
	}
	if _, err := conn.Write(frame); err != nil {
		return nil, err
	}
	answer, err := frames.NewFrameReader(conn, 0).Next()
	return append([]byte{}, answer...), err
}

// frameOf encodes a request frame, size prefix included.
func frameOf(clientID string, correlation int32, req rt.APIMessage, version int16) ([]byte, error) {
	h := frames.RequestHeader{APIKey: req.APIKey(), APIVersion: version, CorrelationID: correlation, ClientID: rt.NewNullString(clientID)}
	return frames.AppendRequest(nil, &h, req)
}

// inParallel runs f(0) to f(n-1) at once and returns the first error.
func inParallel(n int, f func(i int) error) error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = f(i) }()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("connection %d: %w", i, err)
		}
	}
	return nil
}

// openConns opens exactly n connections, closed when the test ends.
func openConns(t *testing.T, addr string, n int) []net.Conn {
	t.Helper()
	conns, _ := dialMany(t, addr, n, 16)
	require.Len(t, conns, n, "connections opened")
	return conns
}

// exchangeOnEach sends frame on every connection at once and returns the
// answers.
func exchangeOnEach(t *testing.T, conns []net.Conn, frame []byte) [][]byte {
	t.Helper()
	answers := make([][]byte, len(conns))
	require.NoError(t, inParallel(len(conns), func(i int) (err error) {
		answers[i], err = exchange(conns[i], frame)
		return err
	}))
	return answers
}

// idleNote waits for the RSS to settle with the attack's connections still
// open and idle, and says how far over the baseline it is.
func idleNote(t *testing.T, b *rowBroker, conns int) string {
	t.Helper()
	rss := b.settledRSS(t)
	return fmt.Sprintf(", %.0f MiB over the baseline with the %d connections idle", b.overBaseline(rss), conns)
}
