package proxy

import (
	"io"
	"net"
	"syscall"
)

// peeker looks at the bytes waiting in a TCP socket without taking them
// (recv with MSG_PEEK), so that a long frame can be spliced whole, its head
// included, after the pump has read its header: one system call fewer, and
// one write fewer to the other side, than reading the head and splicing the
// rest.
type peeker struct {
	raw  syscall.RawConn
	try  func(fd uintptr) bool // p.once, made once: a method value allocates
	into []byte
	n    int
	err  error
}

// newPeeker returns a peeker of c, or nil when c is not a TCP connection.
func newPeeker(c net.Conn) *peeker {
	tc, ok := c.(*net.TCPConn)
	if !ok {
		return nil
	}
	raw, err := tc.SyscallConn()
	if err != nil {
		return nil
	}
	p := &peeker{raw: raw}
	p.try = p.once
	return p
}

// peek copies into b the first bytes waiting, waiting for some (within the
// connection's read deadline), and leaves them waiting. At the end of the
// stream it returns io.EOF.
func (p *peeker) peek(b []byte) (int, error) {
	p.into, p.n, p.err = b, 0, nil
	if err := p.raw.Read(p.try); err != nil {
		return 0, err
	}
	return p.n, p.err
}

func (p *peeker) once(fd uintptr) bool {
	n, _, err := syscall.Recvfrom(int(fd), p.into, syscall.MSG_PEEK)
	switch {
	case err == syscall.EAGAIN || err == syscall.EINTR:
		return false // wait until readable, or try again
	case err != nil:
		p.err = err
	case n == 0:
		p.err = io.EOF
	default:
		p.n = n
	}
	return true
}
