package main

import (
	"bufio"
	"context"
	"fmt"
	"maps"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// authFailuresMetric is kafkaproxy's counter of failed authentications, by
// the mechanism tried ("" when the client got no further than TLS or its
// first frame).
const authFailuresMetric = "kafkaproxy_authentication_failures_total"

// freePort is a port of 127.0.0.1 free when it returns.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// scrapeAuthFailures reads the proxy's /metrics and returns its
// authentication failures by mechanism.
func scrapeAuthFailures(ctx context.Context, metricsAddr string) (map[string]int, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+metricsAddr+"/metrics", nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET /metrics: %s", resp.Status)
	}
	return parseAuthFailures(bufio.NewScanner(resp.Body))
}

// parseAuthFailures picks the lines `<authFailuresMetric>{mechanism="M"} N`
// of a Prometheus text exposition.
func parseAuthFailures(lines *bufio.Scanner) (map[string]int, error) {
	out := map[string]int{}
	for lines.Scan() {
		rest, ok := strings.CutPrefix(lines.Text(), authFailuresMetric+`{mechanism="`)
		if !ok {
			continue
		}
		mechanism, value, ok := strings.Cut(rest, `"} `)
		if !ok {
			return nil, fmt.Errorf("metrics: %q: want %s{mechanism=\"M\"} N", lines.Text(), authFailuresMetric)
		}
		n, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return nil, fmt.Errorf("metrics: %q: %w", lines.Text(), err)
		}
		out[mechanism] = int(n)
	}
	return out, lines.Err()
}

// counted is the difference of two scrapes, zeros left out.
func counted(before, after map[string]int) map[string]int {
	out := map[string]int{}
	for m := range maps.Keys(after) {
		if d := after[m] - before[m]; d != 0 {
			out[m] = d
		}
	}
	for m := range maps.Keys(before) {
		if _, ok := after[m]; !ok {
			out[m] = -before[m]
		}
	}
	return out
}
