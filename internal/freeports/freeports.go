// Package freeports finds runs of free TCP ports on 127.0.0.1 for servers
// that must be told their ports before they open them: a kafkaproxy serves
// node N on its bootstrap port + 1 + N and opens that port only when a
// response first names node N, seconds after the port was chosen.
//
// The ports come from outside the kernel's ephemeral range
// (/proc/sys/net/ipv4/ip_local_port_range on Linux). A port found free
// inside that range may be handed to any outgoing connection or any
// listener on port 0 before the server binds it; a gateway test failed once
// with "bind: address already in use" that way. Outside it, only another
// caller choosing a port by number can collide, and the random start makes
// that unlikely.
package freeports

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
)

// lowest is the lowest port Run hands out: well above the ports services
// register (Kafka's 9092, ZooKeeper's 2181).
const lowest = 10000

// Run returns a port p of 127.0.0.1 such that p to p+n-1 were all free. They
// are closed again when it returns.
func Run(n int) (int, error) {
	if n < 1 {
		return 0, fmt.Errorf("freeports: want at least one port, not %d", n)
	}
	lo, hi := ephemeralRange()
	var spans [][2]int // [first, last] bases outside [lo, hi]
	if lo-n > lowest {
		spans = append(spans, [2]int{lowest, lo - n})
	}
	if hi+1 <= 65536-n {
		spans = append(spans, [2]int{hi + 1, 65536 - n})
	}
	if len(spans) == 0 {
		return 0, fmt.Errorf("freeports: the ephemeral range %d-%d leaves no run of %d ports", lo, hi, n)
	}
	for range 100 {
		s := spans[rand.IntN(len(spans))]
		base := s[0] + rand.IntN(s[1]-s[0]+1)
		if allFree(base, n) {
			return base, nil
		}
	}
	return 0, fmt.Errorf("freeports: no run of %d free ports on 127.0.0.1 outside %d-%d", n, lo, hi)
}

// allFree reports whether ports base to base+n-1 can all be listened on.
func allFree(base, n int) bool {
	held := make([]net.Listener, 0, n)
	defer func() {
		for _, ln := range held {
			ln.Close()
		}
	}()
	for i := range n {
		ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(base+i))
		if err != nil {
			return false
		}
		held = append(held, ln)
	}
	return true
}

// ephemeralRange is the kernel's range of ports for outgoing connections and
// port-0 listeners: Linux's setting when it can be read, else the range
// IANA suggests (and macOS and Windows use).
func ephemeralRange() (lo, hi int) {
	lo, hi = 49152, 65535
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return lo, hi
	}
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return lo, hi
	}
	l, err1 := strconv.Atoi(f[0])
	h, err2 := strconv.Atoi(f[1])
	if err1 != nil || err2 != nil || l > h {
		return lo, hi
	}
	return l, h
}
