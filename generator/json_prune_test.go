package generator

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// jsonPruneSpecs is an API whose versions 0 to 4 straddle a minimum of 2:
// Legacy (and its struct) and OldOnly exist only below it, Groups from
// version 1 and its State until version 2.
var jsonPruneSpecs = map[string]string{
	"PruneRequest.json": `{"apiKey": 1001, "type": "request", "name": "PruneRequest",
	  "validVersions": "0-4", "flexibleVersions": "3+", "fields": [
	  { "name": "Name", "type": "string", "versions": "0+", "about": "x" },
	  { "name": "Legacy", "type": "[]LegacyEntry", "versions": "0-1", "about": "x", "fields": [
	    { "name": "Id", "type": "int32", "versions": "0+", "about": "x" }]},
	  { "name": "OldOnly", "type": "int16", "versions": "0-1", "about": "x" },
	  { "name": "Groups", "type": "[]Group", "versions": "1+", "about": "x", "fields": [
	    { "name": "GroupId", "type": "string", "versions": "1+", "about": "x" },
	    { "name": "State", "type": "int8", "versions": "1-2", "about": "x" }]}]}`,
	"PruneResponse.json": `{"apiKey": 1001, "type": "response", "name": "PruneResponse",
	  "validVersions": "0-4", "flexibleVersions": "3+", "fields": [
	  { "name": "ErrorCode", "type": "int16", "versions": "0+", "about": "x" }]}`,
}

// jsonPruneProbe runs in the package generated from jsonPruneSpecs from
// version 2 up, with -json: the JSON methods refuse versions 0 and 1 as the
// binary codec does, and write and read Kafka's JSON form at 2 to 4. The
// expected JSON is written by hand from the spec.
const jsonPruneProbe = `package prunedjson

import (
	"errors"
	"strings"
	"testing"

	"github.com/kafkagen/kafkagen/runtime"
)

func TestPrunedJSON(t *testing.T) {
	req := NewPruneRequest()
	if req.MinVersion() != 2 {
		t.Fatalf("MinVersion %d, want 2", req.MinVersion())
	}
	req.Name = "n"
	req.Groups = []PruneRequestGroup{{GroupID: "g"}}
	valid := []byte(` + "`" + `{"name":"n","legacy":[],"oldOnly":0,"groups":[]}` + "`" + `)
	for _, v := range []int16{0, 1, -1, 5} {
		if _, err := req.AppendJSON(nil, v, runtime.JSONOptions{}); !errors.Is(err, runtime.ErrUnsupportedVersion) {
			t.Errorf("AppendJSON v%d: %v", v, err)
		} else if !strings.Contains(err.Error(), "valid versions are 2 to 4") {
			t.Errorf("AppendJSON v%d: %v does not name the versions generated", v, err)
		}
		if err := new(PruneRequest).DecodeJSON(valid, v); !errors.Is(err, runtime.ErrUnsupportedVersion) {
			t.Errorf("DecodeJSON v%d: %v", v, err)
		}
		if _, err := NewPruneResponse().AppendJSON(nil, v, runtime.JSONOptions{}); !errors.Is(err, runtime.ErrUnsupportedVersion) {
			t.Errorf("response AppendJSON v%d: %v", v, err)
		}
	}
	want := map[int16]string{
		2: ` + "`" + `{"name":"n","groups":[{"groupId":"g","state":0}]}` + "`" + `,
		3: ` + "`" + `{"name":"n","groups":[{"groupId":"g"}]}` + "`" + `,
		4: ` + "`" + `{"name":"n","groups":[{"groupId":"g"}]}` + "`" + `,
	}
	for v := int16(2); v <= 4; v++ {
		b, err := req.AppendJSON(nil, v, runtime.JSONOptions{})
		if err != nil || string(b) != want[v] {
			t.Fatalf("AppendJSON v%d = %s, %v; want %s", v, b, err, want[v])
		}
		got := NewPruneRequest()
		if err := got.DecodeJSON(b, v); err != nil || got.Name != "n" || len(got.Groups) != 1 || got.Groups[0].GroupID != "g" {
			t.Fatalf("DecodeJSON v%d: %v, %+v", v, err, got)
		}
	}
	// A field of the pruned versions only is not read at the others.
	err := new(PruneRequest).DecodeJSON([]byte(` + "`" + `{"name":"n","oldOnly":1,"groups":[]}` + "`" + `), 2)
	if !errors.Is(err, runtime.ErrFieldVersion) {
		t.Fatalf("oldOnly at v2: %v", err)
	}
}
`

// loadJSONPruneSpecs loads jsonPruneSpecs, in a fixed order.
func loadJSONPruneSpecs(t *testing.T) []*schema.Spec {
	t.Helper()
	var specs []*schema.Spec
	for _, name := range []string{"PruneRequest.json", "PruneResponse.json"} {
		spec, err := schema.Load(name, []byte(jsonPruneSpecs[name]))
		require.NoError(t, err, name)
		specs = append(specs, spec)
	}
	return specs
}

// TestJSONPruned generates jsonPruneSpecs from version 2 up with the JSON
// methods into a folder of this module (.pruned-*, out of ./... patterns),
// then vets it and runs jsonPruneProbe in it.
func TestJSONPruned(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	prune := Prune{MinVersion: 2}
	specs := loadJSONPruneSpecs(t)
	files, err := generate("prunedjson", specs, Config{JSON: true, Prune: prune})
	require.NoError(t, err)

	root, err := filepath.Abs("..")
	require.NoError(t, err)
	dir, err := os.MkdirTemp(root, ".pruned-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	for name, data := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "probe_test.go"), []byte(jsonPruneProbe), 0o644))
	pkg := "./" + filepath.Base(dir) + "/"
	for _, args := range [][]string{{"vet", pkg}, {"test", "-count=1", pkg}} {
		cmd := exec.Command(goTool, args...)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		assert.NoError(t, err, "go %v:\n%s", args, out)
	}
}

// The JSON methods follow the codec's plan: an unpruned package accepts
// every valid version, a pruned one its MinVersion up, and a struct no
// field reaches at the versions generated (LegacyEntry from version 2) has
// no JSON methods, as it has no codec.
func TestJSONPruneRanges(t *testing.T) {
	specs := loadJSONPruneSpecs(t)
	full, err := generate("p", specs, Config{JSON: true})
	require.NoError(t, err)
	pruned, err := generate("p", specs, Config{JSON: true, Prune: Prune{MinVersion: 2}})
	require.NoError(t, err)
	const name = "prune_request_json.go"
	legacy := "func (m *PruneRequestLegacyEntry) appendJSON("
	assert.Contains(t, string(full[name]), `codec.UnsupportedVersion("marshal JSON", "PruneRequest", version, 0, 4)`)
	assert.Contains(t, string(full[name]), legacy)
	assert.Contains(t, string(pruned[name]), `codec.UnsupportedVersion("marshal JSON", "PruneRequest", version, 2, 4)`)
	assert.NotContains(t, string(pruned[name]), legacy, "unreachable from version 2")
	assert.NotContains(t, string(pruned["prune_request.go"]), "func (m *PruneRequestLegacyEntry) appendTo(", "no codec either")
}

// Run passes the pruning to the JSON printer: the package a -json
// -min-version run writes holds the JSON files of the pruned printer, not
// those of an unpruned one.
func TestRunJSONPruned(t *testing.T) {
	in := t.TempDir()
	for name, src := range jsonPruneSpecs {
		require.NoError(t, os.WriteFile(filepath.Join(in, name), []byte(src), 0o644))
	}
	out := filepath.Join(t.TempDir(), "prunedjson")
	prune := Prune{MinVersion: 2}
	require.NoError(t, runErr(Config{In: in, Out: out, JSON: true, Prune: prune}))

	specs := loadJSONPruneSpecs(t)
	pruned, err := generate("prunedjson", specs, Config{JSON: true, Prune: prune})
	require.NoError(t, err)
	unpruned, err := generate("prunedjson", specs, Config{JSON: true})
	require.NoError(t, err)

	name := "prune_request_json.go"
	written, err := os.ReadFile(filepath.Join(out, name))
	require.NoError(t, err)
	require.NotEqual(t, string(unpruned[name]), string(pruned[name]), "the spec's JSON must differ once pruned")
	assert.Equal(t, string(pruned[name]), string(written))
}
