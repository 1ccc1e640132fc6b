// Command broker is a single-node Kafka broker, in memory or with -data-dir
// on disk, built only on kafkagen's output: the client protocol generated
// from Kafka's spec files (package kafkamsg, made by `go generate`), the
// connection layer (wire) and the record formats (records). Real Kafka clients produce to it, consume from
// it, run consumer groups and transactions against it.
//
//	go generate && go run . -addr 127.0.0.1:9092
//
// Flags:
//
//	-addr HOST:PORT     listen address; port 0 picks one. The first line on
//	                    stdout is always "listening on HOST:PORT".
//	-stats FILE         write request counts as JSON every second and on exit
//	-capture DIR        write the first frame of each (client, api, version)
//	-partitions N       partitions of auto-created topics (default 1)
//	-auto-create        create unknown topics on Metadata and Produce (default true)
//	-rebalance-delay D  a new group's first rebalance waits D (default 100ms)
//	-max-message-bytes N  the largest record batch a Produce may carry
//	                    (default 1048588, Kafka's message.max.bytes)
//	-fetch-max-bytes N  the most record bytes of one Fetch answer, the
//	                    first batch aside (default 4 MiB)
//	-data-dir DIR       keep the topics and logs on disk in DIR, recovered on
//	                    start; acks=-1 answers wait for fsync
//
// Security and connection limits, named after Kafka's settings:
//
//	-security-protocol P  PLAINTEXT (default), SSL, SASL_PLAINTEXT or SASL_SSL
//	-tls-cert FILE -tls-key FILE  the listener's certificate and key (PEM)
//	-sasl-users FILE    one user:password a line: PLAIN, SCRAM-SHA-256 and
//	                    SCRAM-SHA-512 for them
//	-connections-max-idle-ms N  close connections idle this long (600000)
//	-request-read-timeout-ms N  a request must arrive whole within N ms of
//	                    its first byte (30000)
//	-max-connections N, -max-connections-per-ip N  (0: no limit)
//	-socket-request-max-bytes N  the largest request (100 MiB)
//	-queued-max-request-bytes N  the bytes of requests being read and
//	                    served at once (twice the largest request)
//
// Every request is re-encoded and compared with the bytes that arrived; a
// difference is logged with both encodings in hex and counted in -stats.
// SIGINT or SIGTERM stops it cleanly.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/kafkagen/kafkagen/wire/frames"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// options are the command's flags.
type options struct {
	addr, statsFile, captureDir string
	dataDir                     string
	partitions, maxMessageBytes int
	fetchMaxBytes               int
	autoCreate                  bool
	rebalanceDelay              time.Duration

	securityProtocol, tlsCert, tlsKey, saslUsers string
	connectionsMaxIdleMs, requestReadTimeoutMs   int64
	maxConnections, maxConnectionsPerIP          int
	socketRequestMaxBytes                        int
	queuedMaxRequestBytes                        int64
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("broker", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.addr, "addr", "127.0.0.1:9092", "listen address HOST:PORT (port 0: any free port)")
	fs.StringVar(&o.statsFile, "stats", "", "write request counts as JSON to this file every second and on exit")
	fs.StringVar(&o.captureDir, "capture", "", "write the first request frame of each (client id, api, version) under this folder")
	fs.IntVar(&o.partitions, "partitions", 1, "partitions of auto-created topics")
	fs.BoolVar(&o.autoCreate, "auto-create", true, "create unknown topics on Metadata and Produce when the client allows it")
	fs.DurationVar(&o.rebalanceDelay, "rebalance-delay", 100*time.Millisecond, "how long a new group's first rebalance waits for more members")
	fs.IntVar(&o.maxMessageBytes, "max-message-bytes", defaultMaxMessageBytes, "the largest record batch a Produce may carry, log overhead included (Kafka's message.max.bytes)")
	fs.IntVar(&o.fetchMaxBytes, "fetch-max-bytes", defaultFetchMaxBytes, "the most record bytes of one Fetch answer whatever the client asks, the first batch aside (Kafka's broker fetch.max.bytes)")
	fs.StringVar(&o.dataDir, "data-dir", "", "keep the topics and logs in this folder and recover them on start (default: memory only)")
	fs.StringVar(&o.securityProtocol, "security-protocol", protocolPlaintext, "PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL (Kafka's security.protocol)")
	fs.StringVar(&o.tlsCert, "tls-cert", "", "the listener's certificate chain, PEM (SSL, SASL_SSL)")
	fs.StringVar(&o.tlsKey, "tls-key", "", "the listener's private key, PEM (SSL, SASL_SSL)")
	fs.StringVar(&o.saslUsers, "sasl-users", "", "a file of user:password lines: PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512 for them (SASL_PLAINTEXT, SASL_SSL)")
	fs.Int64Var(&o.connectionsMaxIdleMs, "connections-max-idle-ms", 600000, "close a connection with no request for this long; -1: never (Kafka's connections.max.idle.ms)")
	fs.Int64Var(&o.requestReadTimeoutMs, "request-read-timeout-ms", 30000, "a request (and a TLS handshake) must arrive whole within this long of its first byte; -1: no limit")
	fs.IntVar(&o.maxConnections, "max-connections", 0, "connections open at once on the listener, more are closed when accepted; 0: no limit (Kafka's max.connections)")
	fs.IntVar(&o.maxConnectionsPerIP, "max-connections-per-ip", 0, "connections open at once from one client address; 0: no limit (Kafka's max.connections.per.ip)")
	fs.IntVar(&o.socketRequestMaxBytes, "socket-request-max-bytes", frames.DefaultMaxFrameSize, "the largest request; a larger size prefix closes the connection (Kafka's socket.request.max.bytes)")
	fs.Int64Var(&o.queuedMaxRequestBytes, "queued-max-request-bytes", 0, "the bytes of requests being read and served at once, each counted twice (its frame, and its decoded copy, charged before the api key is read even where Produce is decoded aliased); a request that does not fit waits unread; 0: twice -socket-request-max-bytes, -1: no limit (Kafka's queued.max.request.bytes)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if o.partitions < 1 || o.partitions > 1<<16 {
		return o, fmt.Errorf("-partitions %d: must be between 1 and 65536", o.partitions)
	}
	if o.maxMessageBytes < 1 {
		return o, fmt.Errorf("-max-message-bytes %d: must be positive", o.maxMessageBytes)
	}
	if o.fetchMaxBytes < 1 {
		return o, fmt.Errorf("-fetch-max-bytes %d: must be positive", o.fetchMaxBytes)
	}
	return o, checkListenerFlags(&o)
}

func run(args []string, stdout, stderr io.Writer) int {
	o, err := parseFlags(args, stderr)
	if err == flag.ErrHelp {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "broker: %v\n", err)
		return 2
	}
	logger := log.New(stderr, "broker: ", log.LstdFlags|log.Lmicroseconds)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := serve(ctx, o, logger, stdout); err != nil {
		logger.Print(err)
		return 1
	}
	return 0
}

// serve runs the broker until ctx ends.
func serve(ctx context.Context, o options, logger *log.Logger, stdout io.Writer) error {
	listener, err := o.listener()
	if err != nil {
		return err
	}
	var capture *Capture
	if o.captureDir != "" {
		if capture, err = NewCapture(o.captureDir); err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	host, portText, _ := net.SplitHostPort(ln.Addr().String())
	port, _ := strconv.Atoi(portText)
	b, err := NewBroker(Config{
		Partitions:            int32(o.partitions),
		AutoCreate:            o.autoCreate,
		InitialRebalanceDelay: o.rebalanceDelay,
		MaxMessageBytes:       o.maxMessageBytes,
		FetchMaxBytes:         o.fetchMaxBytes,
		DataDir:               o.dataDir,
		Logger:                logger,
	}, host, int32(port))
	if err != nil {
		ln.Close()
		return err
	}
	defer func() {
		if err := b.Close(); err != nil {
			logger.Print(err)
		}
	}()
	stats := NewStats()
	srv, err := NewServer(b, stats, capture, listener)
	if err != nil {
		ln.Close()
		return err
	}
	// Printed once the data folder is recovered: from here on the broker
	// answers.
	fmt.Fprintf(stdout, "listening on %s\n", ln.Addr())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	writeStats := func() {
		if o.statsFile == "" {
			return
		}
		if err := stats.WriteFile(o.statsFile); err != nil {
			logger.Print(err)
		}
	}
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case now := <-tick.C:
			writeStats()
			b.txns.abortExpired(now)
		case err := <-served:
			srv.Close()
			writeStats()
			return err
		case <-ctx.Done():
			srv.Close()
			writeStats()
			requests, diffs := stats.Snapshot()
			logger.Printf("stopped: %d requests, %d re-encode differences", requests, diffs)
			return nil
		}
	}
}
