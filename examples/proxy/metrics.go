package main

import (
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/kafkagen/kafkagen/examples/proxy/kafkamsg"
	"github.com/kafkagen/kafkagen/proxy"
)

// metrics are kafkaproxy's Prometheus metrics (README.md, "Metrics"): a
// proxy.Observer for connections and exchanges, and the hooks of the
// authorization and quota filters. The registry is its own, not the
// process's default, so that tests run several.
type metrics struct {
	registry               *prometheus.Registry
	requests               *prometheus.CounterVec
	requestBytes           *prometheus.CounterVec
	responseBytes          *prometheus.CounterVec
	latency                *prometheus.HistogramVec
	refusals               *prometheus.CounterVec
	connections            *prometheus.GaugeVec
	connectionsTotal       *prometheus.CounterVec
	connectionErrors       *prometheus.CounterVec
	authenticationFailures *prometheus.CounterVec
	throttleSeconds        *prometheus.CounterVec
	apiNames               []string
	clusterOfConn          func(*proxy.ConnInfo) string
	clusterOfPrincipal     func(string) string
}

// newMetrics registers the metrics; clusterOfConn gives the virtual
// cluster label of a connection and clusterOfPrincipal of a principal.
func newMetrics(clusterOfConn func(*proxy.ConnInfo) string, clusterOfPrincipal func(string) string) *metrics {
	byAPI := []string{"api", "virtual_cluster"}
	byCluster := []string{"virtual_cluster"}
	m := &metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "kafkaproxy_requests_total",
			Help: "Requests answered (by the broker or the proxy) or sent with no answer to come."}, byAPI),
		requestBytes: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "kafkaproxy_request_bytes_total",
			Help: "Bytes of the requests, as the clients sent them."}, byAPI),
		responseBytes: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "kafkaproxy_response_bytes_total",
			Help: "Bytes of the answers, as the brokers or the proxy made them."}, byAPI),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "kafkaproxy_request_duration_seconds",
			Help: "From reading a request to relaying its answer.", Buckets: prometheus.ExponentialBuckets(0.0005, 4, 10)}, byAPI),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "kafkaproxy_authorization_refusals_total",
			Help: "Requests the proxy refused in whole or in part, by Kafka error code."}, append(byAPI, "error_code")),
		connections: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "kafkaproxy_connections",
			Help: "Client connections open."}, byCluster),
		connectionsTotal: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "kafkaproxy_connections_total",
			Help: "Client connections opened."}, byCluster),
		connectionErrors: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "kafkaproxy_connection_errors_total",
			Help: "Client connections that ended with an error (a refusal that closes, a timeout, a broken peer)."}, byCluster),
		authenticationFailures: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "kafkaproxy_authentication_failures_total",
			Help: "Failed authentications of clients, by SASL mechanism (counted by the identity layer)."}, []string{"mechanism"}),
		throttleSeconds: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "kafkaproxy_throttle_seconds_total",
			Help: "Time connections were throttled for quotas."}, byCluster),
		clusterOfConn:      clusterOfConn,
		clusterOfPrincipal: clusterOfPrincipal,
	}
	m.registry.MustRegister(m.requests, m.requestBytes, m.responseBytes, m.latency, m.refusals, m.connections,
		m.connectionsTotal, m.connectionErrors, m.authenticationFailures, m.throttleSeconds)
	for key := int16(0); ; key++ {
		req := kafkamsg.NewRequest(key)
		if req == nil && key > 100 {
			break
		}
		name := "unknown"
		if req != nil {
			name = strings.TrimSuffix(req.SpecName(), "Request")
		}
		m.apiNames = append(m.apiNames, name)
	}
	return m
}

func (m *metrics) apiName(key int16) string {
	if key >= 0 && int(key) < len(m.apiNames) {
		return m.apiNames[key]
	}
	return "unknown"
}

// Opened counts a connection.
func (m *metrics) Opened(info *proxy.ConnInfo) {
	vc := m.clusterOfConn(info)
	m.connections.WithLabelValues(vc).Inc()
	m.connectionsTotal.WithLabelValues(vc).Inc()
}

// Closed counts a connection's end.
func (m *metrics) Closed(info *proxy.ConnInfo, err error) {
	vc := m.clusterOfConn(info)
	m.connections.WithLabelValues(vc).Dec()
	if err != nil {
		m.connectionErrors.WithLabelValues(vc).Inc()
	}
}

// Exchanged counts a request and its answer.
func (m *metrics) Exchanged(info *proxy.ConnInfo, apiKey, _ int16, requestBytes, responseBytes int, elapsed time.Duration) {
	api, vc := m.apiName(apiKey), m.clusterOfConn(info)
	m.requests.WithLabelValues(api, vc).Inc()
	m.requestBytes.WithLabelValues(api, vc).Add(float64(requestBytes))
	m.responseBytes.WithLabelValues(api, vc).Add(float64(responseBytes))
	m.latency.WithLabelValues(api, vc).Observe(elapsed.Seconds())
}

// refused counts an authorization refusal (acl.Filter.OnRefuse).
func (m *metrics) refused(principal string, apiKey int16, code int16) {
	m.refusals.WithLabelValues(m.apiName(apiKey), m.clusterOfPrincipal(principal), itoa(code)).Inc()
}

// throttled counts a quota's throttle (quota.Filter.OnThrottle).
func (m *metrics) throttled(principal string, d time.Duration) {
	m.throttleSeconds.WithLabelValues(m.clusterOfPrincipal(principal)).Add(d.Seconds())
}

func itoa(code int16) string { return strconv.Itoa(int(code)) }

// serveMetrics serves /metrics and /healthz on addr until the listener is
// closed; it returns the listener so that the caller closes it.
func serveMetrics(addr string, m *metrics, healthy func() error) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{}))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		if err := healthy(); err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte("ok\n"))
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		_ = srv.Serve(ln) // ends when the caller closes the listener
	}()
	return ln, nil
}
