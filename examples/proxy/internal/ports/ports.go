// Package ports finds room on 127.0.0.1 for a kafkaproxy, which serves node
// N on its bootstrap port + 1 + N.
package ports

import "github.com/kafkagen/kafkagen/internal/freeports"

// Free finds a port of 127.0.0.1 with n-1 free ports above it, outside the
// kernel's ephemeral range so that no outgoing connection takes one before
// the proxy opens it. The ports are closed again when it returns.
func Free(n int) (int, error) { return freeports.Run(n) }
