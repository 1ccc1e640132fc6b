package wire_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// serve is a minimal server loop: read a request, answer it, and let
// Answer decide what Kafka does with requests that cannot be served.
func serve(conn net.Conn) error {
	defer conn.Close()
	sc := wire.NewServerConn(conn, wire.ServerConfig{NewRequest: generated.NewRequest})
	for {
		req, err := sc.ReadRequest()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			if err = sc.Answer(err); err != nil {
				return err // Kafka closes the connection here
			}
			continue
		}
		switch body := req.Body.(type) {
		case *generated.APIVersionsRequest:
			// The versions this server serves: every request of its package.
			resp := generated.NewAPIVersionsResponse()
			for _, r := range sc.Supported(generated.APIKeys()) {
				resp.APIKeys = append(resp.APIKeys, generated.APIVersionsResponseAPIVersion{APIKey: r.APIKey, MinVersion: r.MinVersion, MaxVersion: r.MaxVersion})
			}
			if err := sc.WriteResponse(req, resp); err != nil {
				return err
			}
		case *generated.StopReplicaRequest:
			resp := generated.NewStopReplicaResponse()
			for _, p := range body.Partitions {
				resp.PartitionErrors = append(resp.PartitionErrors, generated.StopReplicaResponseStopReplicaPartitionError{
					TopicName: p.TopicName, PartitionIndex: p.PartitionIndex,
				})
			}
			if err := sc.WriteResponse(req, resp); err != nil {
				return err
			}
		default:
			return fmt.Errorf("no handler for %s", body.SpecName())
		}
	}
}

// listen serves one connection on 127.0.0.1 with serve, until stop.
func listen() (addr string, stop func()) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	go func() {
		conn, err := ln.Accept()
		if err == nil {
			_ = serve(conn)
		}
	}()
	return ln.Addr().String(), func() { ln.Close() }
}

// A server on 127.0.0.1 and a client calling it.
func Example() {
	addr, stop := listen()
	defer stop()

	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		panic(err)
	}
	client := wire.NewClient(conn, wire.ClientConfig{ClientID: runtime.NewNullString("example")})
	defer client.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req := generated.NewStopReplicaRequest()
	req.Partitions = []generated.StopReplicaRequestStopReplicaPartition{{TopicName: "orders", PartitionIndex: 3}}
	resp := generated.NewStopReplicaResponse()
	if err := client.Do(ctx, req, 0, resp); err != nil {
		panic(err)
	}
	for _, p := range resp.PartitionErrors {
		fmt.Printf("%s-%d: %v\n", p.TopicName, p.PartitionIndex, kerrors.ErrorCode(p.ErrorCode))
	}
	// Output:
	// orders-3: <nil>
}

// Dial a broker (here a stub on 127.0.0.1): the connection asks ApiVersions
// and each call goes at the highest version both sides support.
func ExampleDial() {
	addr, stop := listen()
	defer stop()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := wire.Dial(ctx, addr, wire.ConnConfig{ClientID: "example"})
	if err != nil {
		panic(err)
	}
	defer conn.Close()
	fmt.Println("ApiVersions answered at", conn.APIVersions().ReadAt)

	req := generated.NewStopReplicaRequest()
	req.Partitions = []generated.StopReplicaRequestStopReplicaPartition{{TopicName: "orders", PartitionIndex: 3}}
	sv, _ := conn.Version(req)
	resp := generated.NewStopReplicaResponse()
	if err := conn.Do(ctx, req, resp); err != nil {
		panic(err)
	}
	fmt.Printf("StopReplica v%d: %s-%d\n", sv, resp.PartitionErrors[0].TopicName, resp.PartitionErrors[0].PartitionIndex)
	// Output:
	// ApiVersions answered at 4
	// StopReplica v0: orders-3
}

// Response error codes become errors that errors.Is understands.
func ExampleErrorCode() {
	err := kerrors.ErrorCode(6)
	fmt.Println(errors.Is(err, kerrors.NotLeaderOrFollower), kerrors.IsRetriable(err))
	fmt.Println(kerrors.ErrorCode(0) == nil)
	// Output:
	// true true
	// true
}

// Picking the version of each request from a broker's ApiVersions answer.
func ExampleNegotiate() {
	broker := []wire.VersionRange{{APIKey: 5, MinVersion: 0, MaxVersion: 3}, {APIKey: 50, MinVersion: 1, MaxVersion: 4}}
	n := wire.Negotiate(broker, generated.NewRequest)
	v, err := n.Version(5)
	fmt.Println(v, err)
	_, err = n.Version(50)
	fmt.Println(err)
	// Output:
	// 0 <nil>
	// BrokerHeartbeatRequest: the broker supports v1-v4, the package v0-v0: no version in common
}
