package proxy

import (
	"fmt"
)

// maxFilters is how many filters a proxy takes: which of them want a
// response is kept as a bit per filter.
const maxFilters = 64

// filterChain runs the filters: requests from the first to the last,
// responses from the last to the first, so that the first filter is the one
// nearest the client.
type filterChain struct {
	filters  []Filter
	limiters []VersionLimiter
}

func newFilterChain(filters []Filter) (filterChain, error) {
	if len(filters) > maxFilters {
		return filterChain{}, fmt.Errorf("proxy: %d filters; at most %d", len(filters), maxFilters)
	}
	fc := filterChain{filters: filters}
	for _, f := range filters {
		if l, ok := f.(VersionLimiter); ok {
			fc.limiters = append(fc.limiters, l)
		}
	}
	return fc, nil
}

// wants returns the filters that want the request and the response of key
// at version, a bit each.
func (fc *filterChain) wants(key, version int16) (requests, responses uint64) {
	for i, f := range fc.filters {
		req, resp := f.Wants(key, version)
		if _, ok := f.(RequestFilter); req && ok {
			requests |= 1 << i
		}
		if _, ok := f.(ResponseFilter); resp && ok {
			responses |= 1 << i
		}
	}
	return requests, responses
}

// request runs the request filters in mask on x, in order, until one answers
// it; answeredBy is that filter's index, or -1.
func (fc *filterChain) request(x *Exchange, mask uint64) (answeredBy int, err error) {
	for i, f := range fc.filters {
		if mask&(1<<i) == 0 {
			continue
		}
		x.filter = i
		if err := f.(RequestFilter).Request(x); err != nil {
			return -1, fmt.Errorf("filter %d (%T) refused %s v%d: %w", i, f, apiName(x.Request), x.Header.APIVersion, refusal{err})
		}
		if x.answer != nil {
			return i, nil
		}
	}
	return -1, nil
}

// response runs the response filters in mask below index below on x, from
// the last to the first.
func (fc *filterChain) response(x *Exchange, mask uint64, below int) error {
	for i := min(below, len(fc.filters)) - 1; i >= 0; i-- {
		if mask&(1<<i) == 0 {
			continue
		}
		x.filter = i
		f := fc.filters[i]
		if err := f.(ResponseFilter).Response(x); err != nil {
			return fmt.Errorf("filter %d (%T) refused %s v%d: %w", i, f, apiName(x.Response), x.ResponseVersion, refusal{err})
		}
	}
	return nil
}

// apiName is a message's spec name, for errors.
func apiName(m interface{ SpecName() string }) string {
	if m == nil {
		return "a message"
	}
	return m.SpecName()
}
