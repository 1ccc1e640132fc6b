// Command kafkaproxy is a Kafka proxy built on kafkagen: the client protocol
// generated from Kafka's spec files (package kafkamsg, made by `go
// generate`, with -json) and the proxy library.
//
//	go generate && go run . -listen 127.0.0.1:9192 -upstream 127.0.0.1:9092
//
// Flags:
//
//	-listen HOST:PORT      the bootstrap address; the broker with node id N is
//	                       served on HOST:PORT+1+N (node ids that do not fit
//	                       under 65536 are refused)
//	-upstream LIST         brokers to bootstrap from, HOST:PORT,HOST:PORT...
//	-topic-prefix P        multi-tenancy: topics, group ids and transactional
//	                       ids get P at the broker and lose it at the client
//	-allow-apis LIST       serve only these apis (names such as Produce,Fetch
//	                       or api keys); ApiVersions always
//	-log FILE              one JSON line per exchange ("-": stdout)
//	-rewrite-addresses     give clients the proxy's addresses for the brokers
//	                       (default true; false relays the brokers' own, for
//	                       clients that reach them, and allows port 0)
//	-bridge                translate requests at versions the broker no
//	                       longer serves (old clients on Kafka 4; see
//	                       README.md), and on exit print one line with the
//	                       requests translated per api and version
//
// Identity and virtual clusters (identity.go; README.md says more): TLS
// toward clients (-tls-cert, -tls-key), SASL at the proxy (-users-file,
// -oauth-keys with -oauth-audience and -oauth-issuer, -sasl-mechanisms,
// -max-reauth, -auth-timeout, -accept-repeated-scram-nonce), a virtual
// cluster per principal (-virtual-cluster NAME=PREFIX:PRINCIPAL,...), and
// the proxy's own login to the brokers (-upstream-sasl, -upstream-user,
// -upstream-password-file, -upstream-tls, -upstream-ca).
//
//	-config FILE           a YAML configuration file instead of the flags: the
//	                       same settings, and authorization, quotas, metrics
//	                       (README.md, "Configuration file")
//
// The first line on stdout is always "listening on HOST:PORT", then, with
// metrics, "metrics on HOST:PORT". SIGHUP reloads the configuration file's
// users, ACLs and quotas. SIGINT or SIGTERM stops it: requests in flight
// are answered (for up to 10s), then it exits 0.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/kafkagen/kafkagen/examples/proxy/kafkamsg"
	"github.com/kafkagen/kafkagen/proxy"
	"github.com/kafkagen/kafkagen/proxy/bridge"
	"github.com/kafkagen/kafkagen/proxy/gateway"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// options are the command's flags.
type options struct {
	listen      string
	upstream    []string
	topicPrefix string
	allowAPIs   []int16 // nil: every api
	logFile     string
	rewrite     bool
	bridge      bool
	identity    identityFlags
	gateway     gateway.Config // of identity, checked by parseFlags
	// configPath and file: -config's; the fields above come from it.
	configPath string
	file       *fileConfig
	// hup delivers the signals that reload the configuration file.
	hup <-chan os.Signal
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	var upstream, allow string
	fs := flag.NewFlagSet("kafkaproxy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.listen, "listen", "", "bootstrap address HOST:PORT; node N is served on PORT+1+N")
	fs.StringVar(&upstream, "upstream", "", "brokers to bootstrap from: HOST:PORT[,HOST:PORT...]")
	fs.StringVar(&o.topicPrefix, "topic-prefix", "", "prefix of topics, group ids and transactional ids at the broker")
	fs.StringVar(&allow, "allow-apis", "", "serve only these apis: names (Produce,Fetch) or keys (0,1); ApiVersions always")
	fs.StringVar(&o.logFile, "log", "", "write one JSON line per exchange to this file (- for stdout)")
	fs.BoolVar(&o.bridge, "bridge", false, "translate requests at versions the broker does not serve (old clients on Kafka 4)")
	fs.BoolVar(&o.rewrite, "rewrite-addresses", true, "give clients the proxy's addresses for the brokers (false: the brokers' own)")
	o.identity.register(fs)
	fs.StringVar(&o.configPath, "config", "", "a YAML configuration file instead of the other flags (SIGHUP reloads its users, ACLs and quotas)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if o.topicPrefix != "" && len(o.identity.clusters) > 0 {
		return o, errors.New("-topic-prefix and -virtual-cluster: give one (-topic-prefix is one tenant for every client)")
	}
	var err error
	if o.gateway, err = o.identity.gateway(); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if o.configPath != "" {
		return optionsOfFile(fs, o.configPath)
	}
	if o.listen == "" || upstream == "" {
		return o, errors.New("-listen and -upstream are required")
	}
	if _, port, err := net.SplitHostPort(o.listen); err != nil || port == "0" && o.rewrite {
		return o, fmt.Errorf("-listen %q: want HOST:PORT with a fixed port (node N is served on PORT+1+N)", o.listen)
	}
	for _, u := range strings.Split(upstream, ",") {
		if _, _, err := net.SplitHostPort(u); err != nil {
			return o, fmt.Errorf("-upstream %q: %q is not HOST:PORT", upstream, u)
		}
		o.upstream = append(o.upstream, u)
	}
	if allow != "" {
		keys, err := apiKeys(allow)
		if err != nil {
			return o, fmt.Errorf("-allow-apis: %w", err)
		}
		o.allowAPIs = keys
	}
	return o, nil
}

// optionsOfFile reads -config FILE, which takes the place of the other
// flags.
func optionsOfFile(fs *flag.FlagSet, path string) (options, error) {
	var other string
	fs.Visit(func(f *flag.Flag) {
		if f.Name != "config" && other == "" {
			other = f.Name
		}
	})
	if other != "" {
		return options{}, fmt.Errorf("-%s with -config: give it in the file", other)
	}
	c, err := readConfig(path)
	if err != nil {
		return options{}, err
	}
	o := options{listen: c.Listen, upstream: c.Upstream, topicPrefix: c.TopicPrefix, logFile: c.Log,
		rewrite: c.rewrite(), configPath: path, file: c}
	if c.AllowAPIs != nil {
		o.allowAPIs, _ = apiKeys(strings.Join(c.AllowAPIs, ",")) // checked by readConfig
	}
	if o.gateway, err = c.gatewayOf(); err != nil {
		return options{}, err
	}
	return o, nil
}

// apiKeys reads a list of api names (as Kafka names them: Produce,
// ApiVersions) or keys.
func apiKeys(list string) ([]int16, error) {
	byName := map[string]int16{}
	for k := range int16(1000) {
		if m := kafkamsg.NewRequest(k); m != nil {
			byName[strings.ToLower(strings.TrimSuffix(m.SpecName(), "Request"))] = k
		}
	}
	var keys []int16
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		if k, ok := byName[strings.ToLower(item)]; ok {
			keys = append(keys, k)
			continue
		}
		n, err := strconv.ParseInt(item, 10, 16)
		if err != nil || kafkamsg.NewRequest(int16(n)) == nil {
			return nil, fmt.Errorf("%q is neither an api name (such as Produce or ApiVersions) nor the key of one", item)
		}
		keys = append(keys, int16(n))
	}
	return keys, nil
}

func run(args []string, stdout, stderr io.Writer) int {
	o, err := parseFlags(args, stderr)
	if err == flag.ErrHelp {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "kafkaproxy: %v\n", err)
		return 2
	}
	logger := log.New(stderr, "kafkaproxy: ", log.LstdFlags|log.Lmicroseconds)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	o.hup = hup
	if err := serve(ctx, o, logger, stdout); err != nil {
		logger.Print(err)
		return 1
	}
	return 0
}

// serve runs the proxy until ctx ends, then drains it.
func serve(ctx context.Context, o options, logger *log.Logger, stdout io.Writer) error {
	var logw io.Writer
	switch o.logFile {
	case "":
	case "-":
		logw = stdout
	default:
		f, err := os.OpenFile(o.logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		logw = f
	}
	cfg, err := config(o, logger, logw)
	if err != nil {
		return err
	}
	var g *policyGateway
	if o.file != nil {
		var users *gateway.Users
		if o.gateway.SASL != nil {
			users = o.gateway.SASL.Store
		}
		if g, err = newGateway(o.configPath, o.file, users, logger); err != nil {
			return err
		}
		if cfg.Filters, err = withGateway(cfg.Filters, g); err != nil {
			return err
		}
		cfg.Observer = g.metrics
		cfg.OnAdmit = func(info *proxy.ConnInfo, err error) {
			if err != nil && cfg.SASL != nil {
				g.metrics.authenticationFailures.WithLabelValues(info.Mechanism).Inc()
			}
		}
	}
	p, err := proxy.New(cfg)
	if err != nil {
		return err
	}
	if b, ok := cfg.Bridge.(*bridge.Bridge); ok {
		defer func() { fmt.Fprintln(stdout, bridgeSummary(b)) }()
	}
	if err := p.Start(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "listening on %s\n", p.Addr())
	if g != nil && o.file.Metrics != "" {
		ln, err := serveMetrics(o.file.Metrics, g.metrics, func() error { return nil })
		if err != nil {
			p.Close()
			return fmt.Errorf("metrics: %w", err)
		}
		defer ln.Close()
		fmt.Fprintf(stdout, "metrics on %s\n", ln.Addr())
	}
	for waiting := true; waiting; {
		select {
		case <-ctx.Done():
			waiting = false
		case <-o.hup:
			if g == nil {
				logger.Print("SIGHUP: no -config file to reload")
			} else if err := g.reload(); err != nil {
				logger.Printf("reload: %v (the configuration in force stays)", err)
			}
		}
	}
	drain, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := p.Shutdown(drain); err != nil {
		logger.Printf("shutdown: %v (connections closed)", err)
	}
	return nil
}

// withGateway puts the gateway's filters before the tenant's (the last
// of filters when there is one), so that they see the names clients send.
func withGateway(filters []proxy.Filter, g *policyGateway) ([]proxy.Filter, error) {
	extra, err := g.filters()
	if err != nil {
		return nil, err
	}
	at := len(filters)
	if at > 0 {
		switch filters[at-1].(type) {
		case *proxy.Tenant, *proxy.VirtualClusters:
			at--
		}
	}
	return append(filters[:at:at], append(extra, filters[at:]...)...), nil
}

// config is the proxy of the options: the log nearest the client (it sees
// what the client sent and gets), then the allow-list, then the tenant with
// the apis a tenant may use (tenant_apis.go), then (the proxy puts it last)
// address rewriting.
func config(o options, logger *log.Logger, logw io.Writer) (proxy.Config, error) {
	cfg := proxy.Config{
		Listen:           o.listen,
		Upstream:         o.upstream,
		NewRequest:       kafkamsg.NewRequest,
		NewResponse:      kafkamsg.NewResponse,
		RewriteAddresses: o.rewrite,
		Logger:           logger,
	}
	if o.bridge {
		cfg.Bridge = bridge.New(kafkamsg.NewRequest, kafkamsg.NewResponse)
	}
	if logw != nil {
		requestLog, err := proxy.NewLog(logw, kafkamsg.NewRequest)
		if err != nil {
			return cfg, err
		}
		cfg.Filters = append(cfg.Filters, requestLog)
	}
	if o.allowAPIs != nil {
		cfg.Filters = append(cfg.Filters, proxy.NewAllowList(o.allowAPIs, kafkamsg.NewResponse))
	}
	clusters, err := o.gateway.Apply(&cfg, newTenant)
	if err != nil {
		return cfg, err
	}
	switch {
	case o.topicPrefix != "":
		cfg.Filters = append(cfg.Filters, proxy.NewAllowList(tenantAPIs, kafkamsg.NewResponse), newTenant(o.topicPrefix))
	case clusters != nil:
		cfg.Filters = append(cfg.Filters, proxy.NewAllowList(tenantAPIs, kafkamsg.NewResponse), clusters)
	}
	return cfg, nil
}

// bridgeSummary is the line -bridge prints on exit: "bridge: translated
// requests=N Produce:v0->v3=2 Fetch:v1->v4=5 ...".
func bridgeSummary(b *bridge.Bridge) string {
	var total int64
	var parts []string
	for _, t := range b.Translations() {
		total += t.Requests
		name := strconv.Itoa(int(t.APIKey))
		if req := kafkamsg.NewRequest(t.APIKey); req != nil {
			name = strings.TrimSuffix(req.SpecName(), "Request")
		}
		parts = append(parts, fmt.Sprintf("%s:v%d->v%d=%d", name, t.From, t.To, t.Requests))
	}
	return fmt.Sprintf("bridge: translated requests=%d %s", total, strings.Join(parts, " "))
}
