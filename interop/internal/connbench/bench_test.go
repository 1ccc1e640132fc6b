// Package connbench measures what wire.Conn costs over the bare
// wire.Client, and how long a TLS + SCRAM connection takes to set up next
// to franz-go's. The numbers and how to run them are in
// docs/benchmarks.md ("Client connections").
package connbench

import (
	"context"
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/scram"

	"github.com/kafkagen/kafkagen/conformance/gen/clients"
	"github.com/kafkagen/kafkagen/interop/internal/loopbacktls"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire"
)

// metadataStub serves ApiVersions and a canned one-topic Metadata answer
// on 127.0.0.1 until the benchmark ends: a peer fast enough that the
// client side's cost shows.
func metadataStub(b testing.TB) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ln.Close() })
	meta := clients.NewMetadataResponse()
	meta.Brokers = []clients.MetadataResponseBroker{{NodeID: 0, Host: "127.0.0.1", Port: 9092}}
	meta.Topics = []clients.MetadataResponseTopic{{Name: runtime.NewNullString("bench"),
		Partitions: []clients.MetadataResponsePartition{{LeaderID: 0, ReplicaNodes: []int32{0}, IsrNodes: []int32{0}}}}}
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go serveMetadata(conn, meta)
		}
	}()
	return ln.Addr().String()
}

func serveMetadata(conn net.Conn, meta *clients.MetadataResponse) {
	defer conn.Close()
	sc := wire.NewServerConn(conn, wire.ServerConfig{NewRequest: clients.NewRequest})
	versions := clients.NewAPIVersionsResponse()
	for _, r := range sc.Supported(clients.APIKeys()) {
		versions.APIKeys = append(versions.APIKeys, clients.APIVersionsResponseAPIVersion{APIKey: r.APIKey, MinVersion: r.MinVersion, MaxVersion: r.MaxVersion})
	}
	for {
		req, err := sc.ReadRequest()
		if errors.Is(err, io.EOF) || err != nil && sc.Answer(err) != nil {
			return
		}
		if err != nil {
			continue
		}
		resp := runtime.APIMessage(meta)
		if req.Header.APIKey == clients.APIKeyAPIVersions {
			resp = versions
		}
		if err := sc.WriteResponse(req, resp); err != nil {
			return
		}
	}
}

// The stub answers what the pipelined benchmark asks, through both paths.
func TestBenchmarkPeers(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := wire.Dial(ctx, metadataStub(t), wire.ConnConfig{})
	require.NoError(t, err)
	defer conn.Close()
	v, err := conn.Version(clients.NewMetadataRequest())
	require.NoError(t, err)
	for _, viaClient := range []bool{false, true} {
		resp := clients.NewMetadataResponse()
		if viaClient {
			err = conn.Client().Do(ctx, clients.NewMetadataRequest(), v, resp)
		} else {
			err = conn.Do(ctx, clients.NewMetadataRequest(), resp)
		}
		require.NoError(t, err)
		require.Len(t, resp.Topics, 1)
		assert.Equal(t, "bench", resp.Topics[0].Name.Value)
	}
}

// BenchmarkMetadataPipelined is one Metadata round trip while 16
// goroutines share one connection: through a Conn (version picked per
// call, the re-authentication gate) and through the bare Client at the
// same version, in one run.
func BenchmarkMetadataPipelined(b *testing.B) {
	addr := metadataStub(b)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	conn, err := wire.Dial(ctx, addr, wire.ConnConfig{ClientID: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	version, err := conn.Version(clients.NewMetadataRequest())
	if err != nil {
		b.Fatal(err)
	}
	calls := map[string]func(req, resp runtime.APIMessage) error{
		"conn":   func(req, resp runtime.APIMessage) error { return conn.Do(ctx, req, resp) },
		"client": func(req, resp runtime.APIMessage) error { return conn.Client().Do(ctx, req, version, resp) },
	}
	for _, impl := range []string{"client", "conn"} {
		b.Run("impl="+impl, func(b *testing.B) {
			call := calls[impl]
			b.SetParallelism(8) // x GOMAXPROCS goroutines
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				req := clients.NewMetadataRequest()
				req.Topics = []clients.MetadataRequestTopic{{Name: runtime.NewNullString("bench")}}
				resp := clients.NewMetadataResponse()
				for pb.Next() {
					if err := call(req, resp); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}

// BenchmarkSetupTLSSCRAM is the setup of one connection to kfake over TLS
// with SCRAM-SHA-512, until it can carry a request: kafkagen's wire.Dial
// (TCP, TLS, ApiVersions, SaslHandshake, SaslAuthenticate twice) with a
// mechanism made per connection (the salted password computed each time)
// or kept (computed once), and franz-go's client (kgo) until its first
// request (Ping) is answered.
func BenchmarkSetupTLSSCRAM(b *testing.B) {
	serverTLS, clientTLS, err := loopbacktls.Configs()
	if err != nil {
		b.Fatal(err)
	}
	const user, password = "bench", "bench-secret"
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.TLS(serverTLS), kfake.EnableSASL(),
		kfake.Superuser(wire.SASLScramSHA512, user, password))
	if err != nil {
		b.Fatal(err)
	}
	defer cluster.Close()
	addr := cluster.ListenAddrs()[0]
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	dial := func(b *testing.B, mech wire.SASLMechanism) {
		conn, err := wire.Dial(ctx, addr, wire.ConnConfig{TLS: clientTLS, SASL: mech})
		if err != nil {
			b.Fatal(err)
		}
		conn.Close()
	}
	b.Run("impl=kafkagen/mechanism=per-connection", func(b *testing.B) {
		for b.Loop() {
			mech, err := wire.ScramSHA512Auth(user, password)
			if err != nil {
				b.Fatal(err)
			}
			dial(b, mech)
		}
	})
	b.Run("impl=kafkagen/mechanism=kept", func(b *testing.B) {
		mech, err := wire.ScramSHA512Auth(user, password)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			dial(b, mech)
		}
	})
	b.Run("impl=kgo", func(b *testing.B) {
		mech := scram.Auth{User: user, Pass: password}.AsSha512Mechanism()
		for b.Loop() {
			cl, err := kgo.NewClient(kgo.SeedBrokers(addr), kgo.DialTLSConfig(clientTLS), kgo.SASL(mech))
			if err != nil {
				b.Fatal(err)
			}
			if err := cl.Ping(ctx); err != nil {
				b.Fatal(err)
			}
			cl.Close()
		}
	})
}
