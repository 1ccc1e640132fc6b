// Package ports finds room on 127.0.0.1 for a kafkaproxy, which serves node
// N on its bootstrap port + 1 + N.
package ports

import (
	"fmt"
	"net"
	"strconv"
)

// Free finds a port of 127.0.0.1 with n-1 free ports above it. The ports
// are closed again when it returns, so another process may take one
// first; callers retry on that.
func Free(n int) (int, error) {
	for range 50 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, err
		}
		base := ln.Addr().(*net.TCPAddr).Port
		ln.Close()
		free := base+n <= 65535
		for i := 1; i < n && free; i++ {
			l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(base+i))
			free = err == nil
			if free {
				l.Close()
			}
		}
		if free {
			return base, nil
		}
	}
	return 0, fmt.Errorf("no run of %d free ports on 127.0.0.1", n)
}
