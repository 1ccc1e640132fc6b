package quota

import (
	"errors"
	"time"

	"github.com/kafkagen/kafkagen/proxy"
)

// Api keys whose bytes count against the quotas.
const (
	produceKey int16 = 0
	fetchKey   int16 = 1
)

// Filter throttles the connections of principals over their quotas:
// Produce requests count their bytes, Fetch responses theirs, and both their
// time from request to answer. The answer carries the throttle
// (throttle_time_ms, raised when the broker's is shorter), and the
// connection's next request is read only after it, as Kafka does (KIP-219).
type Filter struct {
	quotas    *Quotas
	principal func(*proxy.Exchange) string
	// OnThrottle, when set, is told of each throttle (for metrics).
	OnThrottle func(principal string, d time.Duration)
}

// NewFilter throttles by quotas the connections whose principal principal
// gives.
func NewFilter(quotas *Quotas, principal func(*proxy.Exchange) string) (*Filter, error) {
	if quotas == nil || principal == nil {
		return nil, errors.New("quota: NewFilter needs Quotas and a principal function")
	}
	return &Filter{quotas: quotas, principal: principal}, nil
}

// Wants Produce requests (their size is known there) and the responses of
// Produce and Fetch.
func (f *Filter) Wants(key, _ int16) (requests, responses bool) {
	return key == produceKey, key == produceKey || key == fetchKey
}

// Request counts a Produce's bytes; with acks 0 there is no answer to
// carry the throttle, and the connection waits without being told.
func (f *Filter) Request(x *proxy.Exchange) error {
	principal := f.principal(x)
	d := f.quotas.Record(principal, ProduceBytes, float64(x.RequestBytes))
	if x.Unanswered {
		f.throttle(x, principal, d)
		return nil
	}
	if d > 0 {
		x.SetState(d)
	}
	return nil
}

// Response counts a Fetch's bytes and the round trip, and throttles.
func (f *Filter) Response(x *proxy.Exchange) error {
	principal := f.principal(x)
	d, _ := x.State().(time.Duration)
	if x.Header.APIKey == fetchKey {
		d = max(d, f.quotas.Record(principal, FetchBytes, float64(x.ResponseBytes)))
	}
	d = max(d, f.quotas.Record(principal, RequestTime, float64(time.Since(x.Started))))
	if d <= 0 {
		return nil
	}
	if proxy.RaiseThrottleTime(x.Response, int32(d/time.Millisecond)) {
		x.Edited()
	}
	f.throttle(x, principal, d)
	return nil
}

func (f *Filter) throttle(x *proxy.Exchange, principal string, d time.Duration) {
	if d <= 0 {
		return
	}
	x.Throttle(d)
	if f.OnThrottle != nil {
		f.OnThrottle(principal, d)
	}
}
