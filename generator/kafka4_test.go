package generator

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// kafka4Specs are the spec shapes Kafka 4.0 and 4.1 introduced: a removed
// API (its request and response kept with "validVersions": "none"), a
// coordinator record's key and value, and a field outside its message's
// valid versions.
var kafka4Specs = map[string]string{
	"LeaderAndIsrRequest.json":  `{ "apiKey": 4, "type": "request", "name": "LeaderAndIsrRequest", "validVersions": "none" }`,
	"LeaderAndIsrResponse.json": `{ "apiKey": 4, "type": "response", "name": "LeaderAndIsrResponse", "validVersions": "none" }`,
	"GroupKey.json": `{ "apiKey": 3, "type": "coordinator-key", "name": "GroupKey", "validVersions": "0", "flexibleVersions": "none",
	  "fields": [ { "name": "Group", "type": "string", "versions": "0", "about": "The group id." } ] }`,
	"GroupValue.json": `{ "apiKey": 3, "type": "coordinator-value", "name": "GroupValue", "validVersions": "0-1", "flexibleVersions": "1+",
	  "fields": [ { "name": "Epoch", "type": "int32", "versions": "0+", "about": "The epoch." },
	              { "name": "Gone", "type": "int32", "versions": "5+", "about": "Only in versions this folder lacks." } ] }`,
}

// TestKafka4SpecShapes: a removed API generates no file and no registry
// entry; coordinator records get NewCoordinatorKey and NewCoordinatorValue;
// a field in no valid version is generated, documented as never written.
func TestKafka4SpecShapes(t *testing.T) {
	tmp := t.TempDir()
	in := filepath.Join(tmp, "specs")
	require.NoError(t, os.MkdirAll(in, 0o755))
	for name, text := range kafka4Specs {
		require.NoError(t, os.WriteFile(filepath.Join(in, name), []byte(text), 0o644))
	}
	out := filepath.Join(tmp, "out")
	_, err := Run(Config{In: in, Out: out})
	require.NoError(t, err)
	entries, err := os.ReadDir(out)
	require.NoError(t, err)
	var files []string
	for _, e := range entries {
		files = append(files, e.Name())
	}
	sort.Strings(files)
	assert.Equal(t, []string{"group_key.go", "group_value.go", "kafkagen_registry.go"}, files)
	registry, err := os.ReadFile(filepath.Join(out, "kafkagen_registry.go"))
	require.NoError(t, err)
	for _, want := range []string{"func NewCoordinatorKey(key int16) runtime.Message", "func NewCoordinatorValue(key int16) runtime.Message", "case 3:"} {
		assert.Contains(t, string(registry), want)
	}
	assert.NotContains(t, string(registry), "LeaderAndIsr")
	value, err := os.ReadFile(filepath.Join(out, "group_value.go"))
	require.NoError(t, err)
	assert.Contains(t, string(value), "In none of the versions this package serves: never read or written.")
	assert.True(t, strings.Contains(string(value), "the value of the coordinator record GroupValue (record type 3)"))
}
