package dynamic

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/internal/corpus"
)

// Load indexes a folder's specs by name and requests and responses by api
// key: the lookups a proxy or a sniffer starts from.
func TestLoadIndexesSpecs(t *testing.T) {
	specs, err := Load(filepath.Join(corpus.ModuleRoot(), "schemas"), "")
	require.NoError(t, err)
	require.NoError(t, specs.Framing())

	names := specs.Names()
	assert.Len(t, names, 23, "the spec files of schemas/")
	assert.IsNonDecreasing(t, names)
	assert.Contains(t, names, "PartitionChangeRecord")

	cases := []struct {
		apiKey         int16
		request, reply string // "" when the key has no spec
	}{
		{18, "ApiVersionsRequest", "ApiVersionsResponse"},
		{50, "BrokerHeartbeatRequest", "BrokerHeartbeatResponse"},
		{0, "", ""},
	}
	for _, c := range cases {
		req, resp := specs.Request(c.apiKey), specs.Response(c.apiKey)
		if c.request == "" {
			assert.Nil(t, req, "key %d", c.apiKey)
			assert.Nil(t, resp, "key %d", c.apiKey)
			continue
		}
		require.NotNil(t, req, "key %d", c.apiKey)
		require.NotNil(t, resp, "key %d", c.apiKey)
		assert.Equal(t, c.request, req.Spec.Name)
		assert.Equal(t, c.reply, resp.Spec.Name)
		assert.Same(t, specs.Message(c.request), req, "one Message per spec")
	}
}

func TestLoadErrors(t *testing.T) {
	cases := []struct {
		name, dir, release, want string
	}{
		{"unknown release", "schemas", "0.7", "0.7"},
		{"missing folder", "no-such-folder", "", "no-such-folder"},
		{"no specs", "runtime", "", "runtime: no spec files (*.json)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Load(filepath.Join(corpus.ModuleRoot(), c.dir), c.release)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}
