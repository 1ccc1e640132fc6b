package wire

import (
	"errors"
	"fmt"
	"sort"

	"github.com/kafkagen/kafkagen/generated"
	"github.com/kafkagen/kafkagen/runtime"
	"github.com/kafkagen/kafkagen/wire/kerrors"
)

// ErrNoCommonVersion is wrapped by Negotiated.Version when the broker and the
// package share no version of an api, or one of them lacks the api.
var ErrNoCommonVersion = errors.New("no version in common")

// Versions is a broker's ApiVersions answer as a table: the versions it
// serves of each api, and the ApiVersions version the answer was read at.
type Versions struct {
	// Ranges are the broker's, in the order of its answer.
	Ranges []VersionRange
	// ReadAt is the ApiVersions version the answer was read at.
	ReadAt int16
}

// Lookup returns the broker's range of an api key, if it lists the key.
func (v Versions) Lookup(apiKey int16) (VersionRange, bool) {
	for _, r := range v.Ranges {
		if r.APIKey == apiKey {
			return r, true
		}
	}
	return VersionRange{}, false
}

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
	var m runtime.Versioned
	if local := n.local(apiKey); local != nil {
		m = local
	}
	_, err := common(apiKey, b, ok, m)
	return -1, err
}

// common intersects the broker's range b of apiKey (listed when listed)
// with the versions of the package's message m (nil when it has none).
// The error, wrapping ErrNoCommonVersion, says which side lacks what.
func common(apiKey int16, b VersionRange, listed bool, m runtime.Versioned) (VersionRange, error) {
	if !listed {
		name := fmt.Sprintf("api key %d", apiKey)
		if m != nil {
			name = m.SpecName()
		}
		return VersionRange{}, fmt.Errorf("%s: the broker does not list it: %w", name, ErrNoCommonVersion)
	}
	if m == nil {
		return VersionRange{}, fmt.Errorf("api key %d: the package has no request for it (the broker supports v%d-v%d): %w",
			apiKey, b.MinVersion, b.MaxVersion, ErrNoCommonVersion)
	}
	r := VersionRange{APIKey: apiKey, MinVersion: max(b.MinVersion, m.MinVersion()), MaxVersion: min(b.MaxVersion, m.MaxVersion())}
	if r.MinVersion > r.MaxVersion {
		return VersionRange{}, fmt.Errorf("%s: the broker supports v%d-v%d, the package v%d-v%d: %w",
			m.SpecName(), b.MinVersion, b.MaxVersion, m.MinVersion(), m.MaxVersion(), ErrNoCommonVersion)
	}
	return r, nil
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

// BrokerVersions returns the ranges a broker listed in its ApiVersions
// response, resp being the ApiVersionsResponse of any generated package,
// or an error for a response carrying an error code (UNSUPPORTED_VERSION
// and the like; errors.Is matches the code's *kerrors.Error). A response of
// another package is read by re-encoding it at the highest version both
// that package and this module's generated package know, and decoding
// that with generated.APIVersionsResponse.
func BrokerVersions(resp runtime.APIMessage) ([]VersionRange, error) {
	own, ok := resp.(*generated.APIVersionsResponse)
	if !ok {
		if resp.APIKey() != generated.APIKeyAPIVersions || resp.IsRequest() {
			return nil, fmt.Errorf("kafka negotiate: %s is not an ApiVersions response", resp.SpecName())
		}
		own = generated.NewAPIVersionsResponse()
		v := min(resp.MaxVersion(), own.MaxVersion())
		if v < max(resp.MinVersion(), own.MinVersion()) {
			return nil, fmt.Errorf("kafka negotiate: %s has versions %d-%d, none of them readable here (%d-%d)",
				resp.SpecName(), resp.MinVersion(), resp.MaxVersion(), own.MinVersion(), own.MaxVersion())
		}
		b, err := resp.AppendTo(nil, v)
		if err != nil {
			return nil, fmt.Errorf("kafka negotiate: re-encoding %s at v%d: %w", resp.SpecName(), v, err)
		}
		if _, err := own.Decode(b, v); err != nil {
			return nil, fmt.Errorf("kafka negotiate: reading %s at v%d: %w", resp.SpecName(), v, err)
		}
	}
	if err := kerrors.ErrorCode(own.ErrorCode); err != nil {
		return nil, fmt.Errorf("kafka negotiate: the ApiVersions response carries %w", err)
	}
	out := make([]VersionRange, len(own.APIKeys))
	for i, k := range own.APIKeys {
		out[i] = VersionRange{APIKey: k.APIKey, MinVersion: k.MinVersion, MaxVersion: k.MaxVersion}
	}
	return out, nil
}

// NegotiateResponse is Negotiate with the broker's ApiVersions response
// itself (see BrokerVersions).
func NegotiateResponse(resp runtime.APIMessage, newRequest func(apiKey int16) runtime.APIMessage) (*Negotiated, error) {
	broker, err := BrokerVersions(resp)
	if err != nil {
		return nil, err
	}
	return Negotiate(broker, newRequest), nil
}
