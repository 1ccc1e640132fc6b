package wire

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/runtime"
)

// rangeStub is a request that only knows its api key and version range.
type rangeStub struct {
	apiVersionsStub
	key, lo, hi int16
}

func (s rangeStub) APIKey() int16     { return s.key }
func (s rangeStub) MinVersion() int16 { return s.lo }
func (s rangeStub) MaxVersion() int16 { return s.hi }
func (s rangeStub) SpecName() string  { return "Stub" }

// pkg is a package knowing Produce v3-11, Fetch v4-17 and Metadata v0-12.
func pkg(key int16) runtime.APIMessage {
	switch key {
	case 0:
		return rangeStub{key: 0, lo: 3, hi: 11}
	case 1:
		return rangeStub{key: 1, lo: 4, hi: 17}
	case 3:
		return rangeStub{key: 3, lo: 0, hi: 12}
	}
	return nil
}

func TestNegotiate(t *testing.T) {
	broker := []VersionRange{
		{APIKey: 0, MinVersion: 0, MaxVersion: 9},  // overlap: 3-9
		{APIKey: 1, MinVersion: 0, MaxVersion: 3},  // below the package
		{APIKey: 3, MinVersion: 4, MaxVersion: 13}, // overlap: 4-12
		{APIKey: 18, MinVersion: 0, MaxVersion: 4}, // unknown to the package
		{APIKey: 99, MinVersion: 0, MaxVersion: 0}, // unknown to both
	}
	n := Negotiate(broker, pkg)
	assert.Equal(t, []VersionRange{{0, 3, 9}, {3, 4, 12}}, n.Ranges())

	cases := []struct {
		key     int16
		version int16
		err     string
	}{
		{0, 9, ""},
		{3, 12, ""},
		{1, -1, "Stub: the broker supports v0-v3, the package v4-v17: no version in common"},
		{18, -1, "api key 18: the package has no request for it (the broker supports v0-v4): no version in common"},
		{2, -1, "api key 2: the broker does not list it: no version in common"},
	}
	for _, c := range cases {
		v, err := n.Version(c.key)
		assert.Equal(t, c.version, v, "key %d", c.key)
		if c.err == "" {
			assert.NoError(t, err)
			continue
		}
		require.ErrorIs(t, err, ErrNoCommonVersion)
		assert.EqualError(t, err, c.err)
	}
	r, ok := n.Range(3)
	assert.True(t, ok)
	assert.Equal(t, VersionRange{3, 4, 12}, r)
	_, ok = n.Range(1)
	assert.False(t, ok)
}

func TestSupportedVersions(t *testing.T) {
	assert.Equal(t, []VersionRange{{0, 3, 11}, {3, 0, 12}}, SupportedVersions(pkg, []int16{0, 2, 3}))
	assert.Empty(t, SupportedVersions(pkg, nil))
}

func TestVersionRangeString(t *testing.T) {
	assert.Equal(t, "key 1 v4-v17", VersionRange{1, 4, 17}.String())
}
