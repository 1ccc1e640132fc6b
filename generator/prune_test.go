package generator

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// pruneSpecs are the specs selectSpecs chooses from: two APIs, the headers
// and a data spec.
func pruneSpecs() []*schema.Spec {
	v := func(lo, hi int16) schema.Versions { return schema.Versions{Lo: lo, Hi: hi} }
	api := func(name string, typ schema.SpecType, key, hi int16) *schema.Spec {
		return &schema.Spec{Name: name, Type: typ, APIKey: key, HasAPIKey: true, ValidVersions: v(0, hi)}
	}
	return []*schema.Spec{
		api("FetchRequest", schema.TypeRequest, 1, 17),
		api("FetchResponse", schema.TypeResponse, 1, 17),
		api("SaslHandshakeRequest", schema.TypeRequest, 17, 1),
		api("SaslHandshakeResponse", schema.TypeResponse, 17, 1),
		{Name: "RequestHeader", Type: schema.TypeHeader, ValidVersions: v(0, 2)},
		{Name: "ResponseHeader", Type: schema.TypeHeader, ValidVersions: v(0, 1)},
		{Name: "LeaderChangeMessage", Type: schema.TypeData, ValidVersions: v(0, 0)},
	}
}

func TestPruneSelectSpecs(t *testing.T) {
	apiAndHeaders := []string{"FetchRequest", "FetchResponse", "RequestHeader", "ResponseHeader"}
	all := []string{"FetchRequest", "FetchResponse", "LeaderChangeMessage", "RequestHeader", "ResponseHeader", "SaslHandshakeRequest", "SaslHandshakeResponse"}
	cases := []struct {
		name  string
		prune Prune
		want  []string
		err   string
	}{
		{"everything", Prune{}, all, ""},
		{"by API name", Prune{Messages: []string{"Fetch"}}, apiAndHeaders, ""},
		{"by API key", Prune{Messages: []string{"1"}}, apiAndHeaders, ""},
		{"a request brings its response", Prune{Messages: []string{"FetchRequest"}}, apiAndHeaders, ""},
		{"a response brings its request", Prune{Messages: []string{" FetchResponse "}}, apiAndHeaders, ""},
		{"a data spec alone", Prune{Messages: []string{"LeaderChangeMessage"}}, []string{"LeaderChangeMessage"}, ""},
		{"two", Prune{Messages: []string{"Fetch", "17"}}, []string{"FetchRequest", "FetchResponse", "RequestHeader", "ResponseHeader", "SaslHandshakeRequest", "SaslHandshakeResponse"}, ""},
		// An API whose versions all lie below the minimum is left out...
		{"min version drops old APIs", Prune{MinVersion: 4}, []string{"FetchRequest", "FetchResponse", "LeaderChangeMessage", "RequestHeader", "ResponseHeader"}, ""},
		// ...but asking for it by name is an error.
		{"min version above an API asked for", Prune{Messages: []string{"17"}, MinVersion: 4}, nil, "SaslHandshakeRequest has no version from 4"},
		{"unknown", Prune{Messages: []string{"Fetch", "Nope"}}, nil, `no spec, API name or API key "Nope"`},
		{"negative", Prune{MinVersion: -1}, nil, "negative"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.prune.selectSpecs(pruneSpecs())
			if c.err != "" {
				require.ErrorContains(t, err, c.err)
				return
			}
			require.NoError(t, err)
			var names []string
			for _, s := range got {
				names = append(names, s.Name)
			}
			sort.Strings(names)
			assert.Equal(t, c.want, names)
		})
	}
	_, err := Prune{MinVersion: 100}.selectSpecs(pruneSpecs()[:4])
	assert.ErrorContains(t, err, "no spec left to generate from version 100")
}

// prunedProbe is a test run in a pruned package generated from the golden
// request_response specs (EchoRequest and EchoResponse, versions 0 to 2;
// EchoRecord, a data spec): versions below 1 are refused, 1 and 2 work.
const prunedProbe = `package pruned

import (
	"errors"
	"testing"

	"github.com/kafkagen/kafkagen/runtime"
)

func TestPruned(t *testing.T) {
	req := NewEchoRequest()
	if req.MinVersion() != 1 || req.MaxVersion() != 2 {
		t.Fatalf("versions %d to %d, want 1 to 2", req.MinVersion(), req.MaxVersion())
	}
	req.Message = "hi"
	if _, err := req.AppendTo(nil, 0); !errors.Is(err, runtime.ErrUnsupportedVersion) {
		t.Fatalf("AppendTo v0: %v", err)
	}
	if n := req.Size(0); n != -1 {
		t.Fatalf("Size v0 = %d", n)
	}
	for _, v := range []int16{1, 2} {
		b, err := req.AppendTo(nil, v)
		if err != nil || len(b) != req.Size(v) {
			t.Fatalf("v%d: %v, %d bytes, Size %d", v, err, len(b), req.Size(v))
		}
		var got EchoRequest
		if _, err := got.Decode(b, v); err != nil || got.Message != "hi" {
			t.Fatalf("v%d: %v, %q", v, err, got.Message)
		}
		if _, err := got.Decode(b, 0); !errors.Is(err, runtime.ErrUnsupportedVersion) {
			t.Fatalf("Decode v0: %v", err)
		}
	}
	if NewEchoRecord().MinVersion() != 0 {
		t.Fatal("a data spec keeps its versions")
	}
	if _, ok := NewResponse(1000).(*EchoResponse); !ok {
		t.Fatal("the response came along")
	}
}
`

// TestRunPruned generates a pruned package with Run and runs prunedProbe
// in it, in a folder of this module (.pruned-*, out of ./... patterns).
func TestRunPruned(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	dir, err := os.MkdirTemp(root, ".pruned-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	out := filepath.Join(dir, "pruned")
	require.NoError(t, runErr(Config{
		In: filepath.Join(goldenDir, "request_response"), Out: out,
		Prune: Prune{Messages: []string{"Echo", "EchoRecord"}, MinVersion: 1},
	}))
	require.NoError(t, os.WriteFile(filepath.Join(out, "probe_test.go"), []byte(prunedProbe), 0o644))
	cmd := exec.Command(goTool, "test", "-count=1", "./"+filepath.Base(dir)+"/pruned/")
	cmd.Dir = root
	output, err := cmd.CombinedOutput()
	assert.NoError(t, err, "go test of the pruned package:\n%s", output)
}
