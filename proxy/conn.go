package proxy

import (
	"errors"
	"github.com/kafkagen/kafkagen/wire"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kafkagen/kafkagen/wire/frames"
)

// errDrained ends a connection that finished its requests during Shutdown.
var errDrained = errors.New("drained")

// errProxyClosed ends the connections of a proxy being closed: the end the
// operator asked for, not logged.
var errProxyClosed = errors.New("proxy closed")

// conn is one client connection and its connection to a broker. Two
// goroutines serve it: the request pump (client to broker) and the response
// pump (broker to client).
type conn struct {
	p                *Proxy
	info             ConnInfo
	client, upstream net.Conn
	toBroker         *relay // read by the request pump
	toClient         *relay // read by the response pump
	// session is the client's SASL session (Config.SASL), nil without.
	session *wire.SASLSession
	// upstreamLogin is the proxy's own session with the broker
	// (Config.UpstreamSASL; upstream_reauth.go).
	upstreamLogin upstreamLogin

	// out is the client's side of the connection: the response pump holds
	// it whenever it has bytes to write there, the request pump to answer a
	// request itself. midFrame (under out) says the response pump is inside
	// a frame, waiting for more of it.
	out      sync.Mutex
	midFrame bool

	pending pending
	// bridge translates versions the broker does not serve (nil: none).
	bridge BridgeConn

	// capacity holds a token per request waiting for its response or local
	// answer waiting for its turn: past MaxInFlight the request pump waits.
	capacity chan struct{}

	draining atomic.Bool
	done     chan struct{}
	once     sync.Once
	err      error
}

// pending is what the two pumps share about the requests in flight.
type pending struct {
	sync.Mutex
	pairing *frames.Pairing
	slots   []slot   // by Seq modulo MaxInFlight
	locals  []answer // answers the proxy made, waiting for the responses before them
}

// slot is what the response pump needs to know of a request in flight.
type slot struct {
	filters uint64    // the filters that want the response
	x       *Exchange // set when a filter saw the request or wants the response
	bridged *bridged  // set when the bridge translated the request
	// started and requestBytes are stamped for Config.Observer only.
	started      time.Time
	requestBytes int32
}

// answer is a response frame the proxy made, to be written before the
// response of the request numbered before. It holds a capacity token.
type answer struct {
	before uint64
	frame  []byte
}

func newConn(p *Proxy, info ConnInfo, client, upstream net.Conn) *conn {
	c := &conn{p: p, info: info, client: client, upstream: upstream,
		capacity: make(chan struct{}, p.cfg.MaxInFlight), done: make(chan struct{})}
	c.pending.pairing = frames.NewPairing(p.cfg.NewRequest, p.cfg.NewResponse, p.cfg.MaxInFlight)
	c.pending.slots = make([]slot, p.cfg.MaxInFlight)
	c.toBroker = newRelay(client, upstream, "client", &p.cfg.Timeouts)
	c.toClient = newRelay(upstream, client, "broker", &p.cfg.Timeouts)
	c.toClient.unlock, c.toClient.lock = c.out.Unlock, c.out.Lock
	return c
}

// run serves the connection until either side ends it, and returns why (nil
// for a clean end: a peer closing between frames, or a drain).
func (c *conn) run() error {
	requests := &requestPump{c: c}
	responses := &responsePump{c: c}
	relayed := make(chan struct{})
	go func() {
		defer close(relayed)
		c.close(responses.run())
	}()
	c.close(requests.run())
	<-relayed
	err := c.err
	if errors.Is(err, io.EOF) || errors.Is(err, errDrained) || errors.Is(err, errProxyClosed) {
		return nil
	}
	return err
}

// close ends the connection with err (the first one wins) and closes both
// sockets, which ends both pumps.
func (c *conn) close(err error) {
	c.once.Do(func() {
		c.err = err
		c.client.Close()
		c.upstream.Close()
		close(c.done)
	})
}

// drain stops reading requests; the connection ends once the requests read
// have been answered.
func (c *conn) drain() {
	c.draining.Store(true)
	// Wake the request pump if it waits for the next request.
	_ = c.client.SetReadDeadline(time.Now())
	c.checkDrained()
}

// checkDrained ends a draining connection with nothing left in flight.
func (c *conn) checkDrained() {
	if !c.draining.Load() {
		return
	}
	c.pending.Lock()
	idle := c.pending.pairing.Len() == 0 && len(c.pending.locals) == 0
	c.pending.Unlock()
	if idle {
		c.close(errDrained)
	}
}

// acquire takes a capacity token, waiting while MaxInFlight are taken.
func (c *conn) acquire() error {
	select {
	case c.capacity <- struct{}{}:
		return nil
	default:
	}
	select {
	case c.capacity <- struct{}{}:
		return nil
	case <-c.done:
		return c.err
	}
}

// release returns n capacity tokens.
func (c *conn) release(n int) {
	for range n {
		<-c.capacity
	}
}

// answerLocally sends frame, a response the proxy made, to the client in
// its turn: now if nothing is in flight, else after the responses of the
// requests sent before it.
func (c *conn) answerLocally(frame []byte) error {
	// The token first, without holding the client's side, which the
	// response pump needs to make room.
	if err := c.acquire(); err != nil {
		return err
	}
	c.out.Lock()
	defer c.out.Unlock()
	c.pending.Lock()
	now := c.pending.pairing.Len() == 0 && !c.midFrame
	if !now {
		c.pending.locals = append(c.pending.locals, answer{before: c.pending.pairing.NextSeq(), frame: append([]byte(nil), frame...)})
	}
	next := c.pending.pairing.NextSeq()
	c.pending.Unlock()
	if !now {
		return nil
	}
	c.release(1)
	if err := c.writeLocals(next); err != nil {
		return err
	}
	return c.toClient.write(frame)
}

// writeLocals writes the waiting answers due before the response of request
// number seq. The caller holds out.
func (c *conn) writeLocals(seq uint64) error {
	for {
		c.pending.Lock()
		if len(c.pending.locals) == 0 || c.pending.locals[0].before > seq {
			c.pending.Unlock()
			return nil
		}
		a := c.pending.locals[0]
		c.pending.locals = c.pending.locals[1:]
		c.pending.Unlock()
		c.release(1)
		if err := c.toClient.output(a.frame); err != nil {
			return err
		}
	}
}
