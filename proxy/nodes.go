package proxy

import (
	"fmt"
	"net"
	"strconv"
	"sync"
)

// nodes maps broker node ids to the proxy's ports and to the brokers' real
// addresses, learned from the responses before they are rewritten, and opens
// the port of a node the first time it is seen.
type nodes struct {
	host string // the proxy's host, as clients reach it
	base int    // the bootstrap port; node N is on base+1+N
	// open opens the port of node if it is not open yet.
	open func(node int32) error

	mu    sync.Mutex
	addrs map[int32]string // node id -> the broker's HOST:PORT
}

func newNodes(host string, base int, open func(node int32) error) *nodes {
	return &nodes{host: host, base: base, open: open, addrs: map[int32]string{}}
}

// port is the proxy's port for node, or an error when it does not fit.
func (n *nodes) port(node int32) (int32, error) {
	p := int64(n.base) + 1 + int64(node)
	if node < 0 || p > 65535 {
		return 0, fmt.Errorf("node id %d does not fit the proxy's ports: node N is served on %d+1+N, and ports end at 65535", node, n.base)
	}
	return int32(p), nil
}

// upstream is the real address of node, if it has been learned.
func (n *nodes) upstream(node int32) (string, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	a, ok := n.addrs[node]
	return a, ok
}

// rewrite learns the real address of node from host and port and replaces
// them with the proxy's, opening the node's port the first time. An
// endpoint with no node (a negative id) or no address (an empty host or a
// negative port, as in error answers) is left as it is.
func (n *nodes) rewrite(node int32, host *string, port *int32) error {
	if node < 0 || *host == "" || *port < 0 {
		return nil
	}
	p, err := n.port(node)
	if err != nil {
		return err
	}
	n.mu.Lock()
	n.addrs[node] = net.JoinHostPort(*host, strconv.Itoa(int(*port)))
	n.mu.Unlock()
	if err := n.open(node); err != nil {
		return err
	}
	*host, *port = n.host, p
	return nil
}
