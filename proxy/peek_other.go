//go:build !linux

package proxy

import "net"

// peeker looks at waiting bytes without taking them where the system allows
// it; elsewhere there is none, and long frames are read head first.
type peeker struct{}

func newPeeker(net.Conn) *peeker { return nil }

func (*peeker) peek([]byte) (int, error) { return 0, nil }
