package proxy

import (
	"fmt"

	"github.com/kafkagen/kafkagen/runtime"
)

// endpointRewriter replaces the broker addresses of responses with the
// proxy's, learning the real ones first, through the generated
// VisitEndpoints (runtime.Endpoints).
type endpointRewriter struct {
	nodes *nodes
	keys  map[int16]bool
}

func newEndpointRewriter(n *nodes, keys []int16) *endpointRewriter {
	e := &endpointRewriter{nodes: n, keys: map[int16]bool{}}
	for _, k := range keys {
		e.keys[k] = true
	}
	return e
}

// Wants asks for the responses of the apis that carry broker addresses.
func (e *endpointRewriter) Wants(key, _ int16) (requests, responses bool) {
	return false, e.keys[key]
}

// Response rewrites every broker address of the response.
func (e *endpointRewriter) Response(x *Exchange) error {
	m, ok := x.Response.(runtime.Endpoints)
	if !ok {
		return fmt.Errorf("%s has no VisitEndpoints: generate the package with a kafkagen that emits it", x.Response.SpecName())
	}
	var err error
	m.VisitEndpoints(x.ResponseVersion, func(node int32, host *string, port *int32) {
		if err != nil {
			return
		}
		oldHost, oldPort := *host, *port
		if err = e.nodes.rewrite(node, host, port); err == nil && (*host != oldHost || *port != oldPort) {
			x.Edited()
		}
	})
	return err
}
