package proxy

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Proxy is a Kafka proxy: it accepts client connections on a bootstrap port
// (and, with address rewriting, a port per broker), connects each to a
// broker, and relays requests and responses between them, decoding only
// what its filters ask for.
type Proxy struct {
	cfg     Config
	host    string
	nodes   *nodes
	filters filterChain
	clamp   *versionClamp

	nextConn     atomic.Uint64
	nextUpstream atomic.Uint32
	versions     brokerVersions

	mu        sync.Mutex
	listeners map[int32]net.Listener // by node id, -1 for the bootstrap port
	conns     map[*conn]struct{}
	closed    bool
	wg        sync.WaitGroup
}

// New checks cfg and makes a proxy; Start opens its port. It refuses a
// generated package lacking an api the proxy needs (ApiVersions always;
// Metadata and FindCoordinator with RewriteAddresses), naming the
// kafkagen -messages list to regenerate it with.
func New(cfg Config) (*Proxy, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if err := checkPackage(cfg); err != nil {
		return nil, err
	}
	host, port, _ := net.SplitHostPort(cfg.Listen)
	base, _ := strconv.Atoi(port)
	p := &Proxy{cfg: cfg, host: host, listeners: map[int32]net.Listener{}, conns: map[*conn]struct{}{}}
	p.nodes = newNodes(host, base, p.openNode)
	filters := cfg.Filters
	if cfg.RewriteAddresses {
		// Last, next to the broker: it learns the real addresses before
		// any other filter sees the response.
		filters = append(filters[:len(filters):len(filters)], newEndpointRewriter(p.nodes, cfg.EndpointAPIs))
	}
	if p.filters, err = newFilterChain(filters); err != nil {
		return nil, err
	}
	p.clamp = newVersionClamp(cfg.NewRequest, cfg.NewResponse, p.filters.limiters)
	p.clamp.bridge = cfg.Bridge
	return p, nil
}

// Start opens the bootstrap port and serves connections in the background
// until Close or Shutdown.
func (p *Proxy) Start() error {
	ln, err := net.Listen("tcp", p.cfg.Listen)
	if err != nil {
		return fmt.Errorf("proxy: %w", err)
	}
	return p.serveOn(-1, ln)
}

// Addr is the bootstrap port's address (nil before Start).
func (p *Proxy) Addr() net.Addr {
	p.mu.Lock()
	defer p.mu.Unlock()
	if ln, ok := p.listeners[-1]; ok {
		return ln.Addr()
	}
	return nil
}

// NodeAddr is the address the proxy serves node on, once it has seen it.
func (p *Proxy) NodeAddr(node int32) (net.Addr, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	ln, ok := p.listeners[node]
	if !ok {
		return nil, false
	}
	return ln.Addr(), true
}

// openNode opens the port of a node seen in a response, once.
func (p *Proxy) openNode(node int32) error {
	p.mu.Lock()
	_, open := p.listeners[node]
	p.mu.Unlock()
	if open {
		return nil
	}
	port, err := p.nodes.port(node)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(p.host, strconv.Itoa(int(port))))
	if err != nil {
		p.mu.Lock()
		_, open = p.listeners[node] // another connection opened it first
		p.mu.Unlock()
		if open {
			return nil
		}
		return fmt.Errorf("serving node %d: %w", node, err)
	}
	return p.serveOn(node, ln)
}

// serveOn records ln as the port of node and accepts on it.
func (p *Proxy) serveOn(node int32, ln net.Listener) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		ln.Close()
		return errors.New("proxy: closed")
	}
	if _, dup := p.listeners[node]; dup {
		ln.Close()
		return nil
	}
	p.listeners[node] = ln
	p.wg.Add(1)
	go p.accept(node, ln)
	return nil
}

// accept serves the connections of one port until it is closed. Failures to
// accept (out of file descriptors, say) are waited out, as net/http does.
func (p *Proxy) accept(node int32, ln net.Listener) {
	defer p.wg.Done()
	var delay time.Duration
	for {
		c, err := ln.Accept()
		if err != nil {
			if p.isClosed() || errors.Is(err, net.ErrClosed) {
				return
			}
			delay = min(max(2*delay, 5*time.Millisecond), time.Second)
			p.logf("proxy: accepting connections on %s failed: %v; retrying in %v (out of file descriptors? raise ulimit -n)", ln.Addr(), err, delay)
			time.Sleep(delay)
			continue
		}
		delay = 0
		p.wg.Add(1)
		go p.handle(node, c)
	}
}

func (p *Proxy) isClosed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closed
}

// handle connects a client to its broker and relays until either side ends.
func (p *Proxy) handle(node int32, client net.Conn) {
	defer p.wg.Done()
	info := ConnInfo{ID: p.nextConn.Add(1), Client: client.RemoteAddr(), NodeID: node, throttle: &throttle{}}
	admitted, session, err := p.admit(client, &info)
	if p.cfg.OnAdmit != nil {
		p.cfg.OnAdmit(&info, err)
	}
	if err != nil {
		p.logf("proxy: connection %d from %s refused: %v", info.ID, info.Client, err)
		client.Close()
		return
	}
	client = admitted
	upstream, lifetime, err := p.dial(node, &info)
	if err != nil {
		p.logEnd(fmt.Sprintf("connection %d from %s", info.ID, info.Client), err)
		client.Close()
		return
	}
	c := newConn(p, info, client, upstream)
	c.session = session
	c.upstreamLogin.start(lifetime)
	if p.cfg.Bridge != nil {
		if c.bridge, err = learnBrokerVersions(p.cfg.Bridge, upstream, p.cfg.Timeouts.Read); err != nil {
			p.logf("proxy: connection %d from %s to %s: %v", info.ID, info.Client, info.Upstream, err)
			c.close(err)
			return
		}
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		c.close(errProxyClosed)
		return
	}
	p.conns[c] = struct{}{}
	p.mu.Unlock()
	if p.cfg.Observer != nil {
		p.cfg.Observer.Opened(&c.info)
	}
	err = c.run()
	if err != nil {
		p.logEnd(fmt.Sprintf("connection %d from %s to %s", info.ID, info.Client, info.Upstream), err)
	}
	if p.cfg.Observer != nil {
		p.cfg.Observer.Closed(&c.info, err)
	}
	p.mu.Lock()
	delete(p.conns, c)
	p.mu.Unlock()
}

// dial connects to the broker of node, or for the bootstrap port to the
// upstream brokers in turn until one answers, and returns the lifetime of
// the proxy's SASL session there (0: none).
func (p *Proxy) dial(node int32, info *ConnInfo) (net.Conn, time.Duration, error) {
	if node >= 0 {
		addr, ok := p.nodes.upstream(node)
		if !ok {
			return nil, 0, fmt.Errorf("node %d: %w", node, errUnknownNode)
		}
		info.Upstream = addr
		c, lifetime, err := p.dialOne(addr)
		if err != nil {
			return nil, 0, fmt.Errorf("node %d: %w", node, err)
		}
		return c, lifetime, nil
	}
	var errs []error
	first := int(p.nextUpstream.Add(1))
	for i := range p.cfg.Upstream {
		addr := p.cfg.Upstream[(first+i)%len(p.cfg.Upstream)]
		c, lifetime, err := p.dialOne(addr)
		if err == nil {
			info.Upstream = addr
			return c, lifetime, nil
		}
		errs = append(errs, err)
	}
	return nil, 0, fmt.Errorf("%w: %w", errNoUpstream, errors.Join(errs...))
}

// dialOne connects to the broker at addr, with the proxy's TLS and SASL
// toward brokers when set, and returns the SASL session's lifetime (0:
// none).
func (p *Proxy) dialOne(addr string) (net.Conn, time.Duration, error) {
	c, err := net.DialTimeout("tcp", addr, p.cfg.Timeouts.Dial)
	if err != nil || p.cfg.UpstreamTLS == nil && p.cfg.UpstreamSASL == nil {
		return c, 0, err
	}
	secured, lifetime, err := p.secureUpstream(c, addr)
	if err != nil {
		c.Close()
		return nil, 0, err
	}
	return secured, lifetime, nil
}

// Close closes every port and connection at once.
func (p *Proxy) Close() error {
	p.mu.Lock()
	p.closed = true
	for _, ln := range p.listeners {
		ln.Close()
	}
	for c := range p.conns {
		c.close(errProxyClosed)
	}
	p.mu.Unlock()
	p.wg.Wait()
	return nil
}

// Shutdown closes the ports, lets every connection finish the requests it
// has sent (reading no new one), and returns when all are done; when ctx
// ends first it closes what is left and returns ctx's error.
func (p *Proxy) Shutdown(ctx context.Context) error {
	p.mu.Lock()
	p.closed = true
	for _, ln := range p.listeners {
		ln.Close()
	}
	for c := range p.conns {
		c.drain()
	}
	p.mu.Unlock()
	done := make(chan struct{})
	go func() {
		p.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		p.Close()
		<-done
		return ctx.Err()
	}
}

func (p *Proxy) logf(format string, args ...any) {
	p.cfg.Logger.Printf(format, args...)
}
