package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/twmb/franz-go/pkg/kfake"
)

// The processes the benchmark runs besides kafkaproxy: the floor it is
// measured against, and the broker.

// relayMain is the floor: a plain TCP relay, io.Copy both ways (which
// splices on Linux), one broker connection per client connection. With a
// certificate and key it is the floor of the gateway: TLS toward the client
// (the same TLS settings as kafkaproxy's, gateway.ServerTLS), plain TCP to
// the broker, the bytes copied and nothing decoded.
func relayMain(listen, upstream, certFile, keyFile string) error {
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return err
	}
	if certFile != "" {
		cert, err := tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			return err
		}
		ln = tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
	}
	fmt.Printf("listening on %s\n", ln.Addr())
	go func() {
		waitForSignal()
		ln.Close()
	}()
	for {
		c, err := ln.Accept()
		if errors.Is(err, net.ErrClosed) {
			return nil
		}
		if err != nil {
			return err
		}
		go func() {
			defer c.Close()
			u, err := net.Dial("tcp", upstream)
			if err != nil {
				return
			}
			defer u.Close()
			done := make(chan struct{}, 2)
			go func() { _, _ = io.Copy(u, c); done <- struct{}{} }()
			go func() { _, _ = io.Copy(c, u); done <- struct{}{} }()
			<-done
		}()
	}
}

// brokerMain is a one-node kfake holding the benchmark's topic, plain and
// with the tenant's prefix.
func brokerMain() error {
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, benchTopic, tenantPrefix+benchTopic))
	if err != nil {
		return err
	}
	defer c.Close()
	fmt.Printf("listening on %s\n", c.ListenAddrs()[0])
	waitForSignal()
	return nil
}

func waitForSignal() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	<-ctx.Done()
}
