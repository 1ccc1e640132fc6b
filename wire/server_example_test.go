package wire_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
)

// A server with limits for a handler, and a client calling it.
func ExampleServer() {
	handler := wire.HandlerFunc(func(ctx context.Context, peer *wire.Peer, req *wire.Request) (runtime.APIMessage, error) {
		switch body := req.Body.(type) {
		case *generated.BrokerHeartbeatRequest:
			resp := generated.NewBrokerHeartbeatResponse()
			resp.BrokerEpoch = body.BrokerEpoch + 1
			return resp, nil
		}
		return nil, fmt.Errorf("no handler for %s", req.Body.SpecName()) // closes the connection
	})
	srv, err := wire.NewServer(handler, wire.ServerOptions{
		NewRequest: generated.NewRequest,
		Limits: wire.Limits{
			MaxConnectionsPerIP: 100,
			RequestReadTimeout:  10 * time.Second,
			ConnectionsMaxIdle:  time.Minute,
		},
	})
	if err != nil {
		panic(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		panic(err)
	}
	client := wire.NewClient(conn, wire.ClientConfig{ClientID: runtime.NewNullString("example")})
	defer client.Close()
	req := generated.NewBrokerHeartbeatRequest()
	req.BrokerEpoch = 41
	resp := generated.NewBrokerHeartbeatResponse()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := client.Do(ctx, req, 0, resp); err != nil {
		panic(err)
	}
	fmt.Println("broker epoch", resp.BrokerEpoch)

	_ = srv.Shutdown(ctx)
	fmt.Println(errors.Is(<-served, wire.ErrServerClosed))
	// Output:
	// broker epoch 42
	// true
}
