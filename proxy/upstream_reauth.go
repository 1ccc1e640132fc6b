package proxy

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
)

// Re-authentication toward the brokers (KIP-368). A broker with
// connections.max.reauth.ms set gives the proxy's login a lifetime
// (SessionLifetimeMs) and closes the connection at the first request after
// it that does not start a new authentication. So, once a connection's
// session is due (wire.ReauthAfter: 85% to 95% of the lifetime), the request
// pump holds the client's next request back and logs in again on the same
// connection: SaslHandshake, then SaslAuthenticate, with the proxy's
// credentials. Requests already relayed stay in flight: the broker answers
// them first, since it serves a connection's requests in order, and the
// response pump relays them as usual; the frames that come once none is in
// flight are the answers to the proxy's own requests, which it hands to the
// request pump instead of the client (wire/conn_sasl.go states the same
// facts for a client).

// upstreamLogin is the proxy's SASL session on a connection to a broker.
type upstreamLogin struct {
	// due is when to authenticate again; zero: the session does not
	// expire. The request pump's only.
	due time.Time
	// answers, set while the request pump re-authenticates, takes the
	// broker's answers to it from the response pump.
	answers atomic.Pointer[chan []byte]
}

// start notes a login whose session lives lifetime (0: for ever).
func (l *upstreamLogin) start(lifetime time.Duration) {
	l.due = time.Time{}
	if lifetime > 0 {
		l.due = time.Now().Add(wire.ReauthAfter(lifetime))
	}
}

// isDue reports whether the session must be renewed before the next
// request goes to the broker.
func (l *upstreamLogin) isDue() bool {
	return !l.due.IsZero() && time.Now().After(l.due)
}

// reauthCorrelationID is the correlation id of the proxy's own requests:
// they are alone in flight, so it need not differ from the client's.
const reauthCorrelationID = -1

// reauthenticateUpstream logs in to the broker again on the connection.
func (rp *requestPump) reauthenticateUpstream() error {
	c := rp.c
	if err := c.toBroker.flush(); err != nil {
		return err
	}
	answers := make(chan []byte, 1)
	c.upstreamLogin.answers.Store(&answers)
	defer c.upstreamLogin.answers.Store(nil)
	call := func(req, resp runtime.APIMessage) error {
		out, err := appendOwnRequest(rp.out[:0], req, 1, reauthCorrelationID)
		if err != nil {
			return err
		}
		rp.out = out
		if err := c.toBroker.write(out); err != nil {
			return err
		}
		select {
		case frame := <-answers:
			return decodeOwnAnswer(frame[4:], req, resp, 1, reauthCorrelationID)
		case <-c.done:
			return c.err
		}
	}
	lifetime, err := loginUpstream(c.p.cfg.UpstreamSASL, time.Now().Add(c.p.cfg.Timeouts.Dial), call)
	if err != nil {
		return fmt.Errorf("logging in to %s again (KIP-368): %w", c.info.Upstream, err)
	}
	c.upstreamLogin.start(lifetime)
	return nil
}

// handOverLogin gives the response of size bytes to a re-authentication
// waiting for it, reporting whether it was one: while the request pump
// re-authenticates, a response that comes with no request of the client in
// flight answers the proxy's own.
func (rp *responsePump) handOverLogin(size int) (bool, error) {
	c := rp.c
	answers := c.upstreamLogin.answers.Load()
	if answers == nil {
		return false, nil
	}
	c.pending.Lock()
	clientsTurn := c.pending.pairing.Len() > 0
	c.pending.Unlock()
	if clientsTurn {
		return false, nil
	}
	frame, err := c.toClient.frame(size)
	if err != nil {
		return true, err
	}
	select {
	case *answers <- append([]byte(nil), frame...):
		return true, nil
	case <-c.done:
		return true, c.err
	}
}
