package wire

import (
	"errors"
	"fmt"
	"sort"

	"github.com/kafkagen/kafkagen/runtime"
)

// ErrNoCommonVersion is wrapped by Negotiated.Version when the broker and the
// package share no version of an api, or one of them lacks the api.
var ErrNoCommonVersion = errors.New("no version in common")

// Negotiated is the outcome of intersecting a broker's ApiVersions answer
// with the versions a generated package can encode and decode.
type Negotiated struct {
	common map[int16]VersionRange
	broker map[int16]VersionRange
	local  func(apiKey int16) runtime.APIMessage
}

// Negotiate intersects the ranges a broker listed in its ApiVersions
// response with the MinVersion..MaxVersion of newRequest's messages (a
// generated package's NewRequest). Keys the package does not know, and keys
// whose ranges do not overlap, have no common range.
func Negotiate(broker []VersionRange, newRequest func(apiKey int16) runtime.APIMessage) *Negotiated {
	n := &Negotiated{common: map[int16]VersionRange{}, broker: map[int16]VersionRange{}, local: newRequest}
	for _, b := range broker {
		n.broker[b.APIKey] = b
		m := newRequest(b.APIKey)
		if m == nil {
			continue
		}
		r := VersionRange{APIKey: b.APIKey, MinVersion: max(b.MinVersion, m.MinVersion()), MaxVersion: min(b.MaxVersion, m.MaxVersion())}
		if r.MinVersion <= r.MaxVersion {
			n.common[b.APIKey] = r
		}
	}
	return n
}

// Version is the highest version of apiKey that both sides support. The
// error, wrapping ErrNoCommonVersion, says which side lacks what.
func (n *Negotiated) Version(apiKey int16) (int16, error) {
	if r, ok := n.common[apiKey]; ok {
		return r.MaxVersion, nil
	}
	b, ok := n.broker[apiKey]
	if !ok {
		return -1, fmt.Errorf("api key %d: the broker does not list it: %w", apiKey, ErrNoCommonVersion)
	}
	m := n.local(apiKey)
	if m == nil {
		return -1, fmt.Errorf("api key %d: the package has no request for it (the broker supports v%d-v%d): %w",
			apiKey, b.MinVersion, b.MaxVersion, ErrNoCommonVersion)
	}
	return -1, fmt.Errorf("%s: the broker supports v%d-v%d, the package v%d-v%d: %w",
		m.SpecName(), b.MinVersion, b.MaxVersion, m.MinVersion(), m.MaxVersion(), ErrNoCommonVersion)
}

// Range is the common range of apiKey, if any.
func (n *Negotiated) Range(apiKey int16) (VersionRange, bool) {
	r, ok := n.common[apiKey]
	return r, ok
}

// Ranges lists every common range, sorted by api key.
func (n *Negotiated) Ranges() []VersionRange {
	out := make([]VersionRange, 0, len(n.common))
	for _, r := range n.common {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].APIKey < out[j].APIKey })
	return out
}

// SupportedVersions lists the versions newRequest's package supports for
// each of keys that it knows, as a server lists them in its ApiVersions
// answer.
func SupportedVersions(newRequest func(apiKey int16) runtime.APIMessage, keys []int16) []VersionRange {
	var out []VersionRange
	for _, k := range keys {
		if m := newRequest(k); m != nil {
			out = append(out, VersionRange{APIKey: k, MinVersion: m.MinVersion(), MaxVersion: m.MaxVersion()})
		}
	}
	return out
}
