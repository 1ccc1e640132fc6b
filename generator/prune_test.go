package generator

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/internal/modtest"
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
		api("ApiVersionsRequest", schema.TypeRequest, 18, 4),
		api("ApiVersionsResponse", schema.TypeResponse, 18, 4),
		{Name: "RequestHeader", Type: schema.TypeHeader, ValidVersions: v(0, 2)},
		{Name: "ResponseHeader", Type: schema.TypeHeader, ValidVersions: v(0, 1)},
		{Name: "LeaderChangeMessage", Type: schema.TypeData, ValidVersions: v(0, 0)},
	}
}

func TestPruneSelectSpecs(t *testing.T) {
	apiAndHeaders := []string{"FetchRequest", "FetchResponse", "RequestHeader", "ResponseHeader"}
	all := []string{"ApiVersionsRequest", "ApiVersionsResponse", "FetchRequest", "FetchResponse", "LeaderChangeMessage", "RequestHeader", "ResponseHeader", "SaslHandshakeRequest", "SaslHandshakeResponse"}
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
		// (ApiVersions keeps v0 whatever the floor.)
		{"min version drops old APIs", Prune{MinVersion: 4}, []string{"ApiVersionsRequest", "ApiVersionsResponse", "FetchRequest", "FetchResponse", "LeaderChangeMessage", "RequestHeader", "ResponseHeader"}, ""},
		{"a floor of its own keeps an old API", Prune{MinVersion: 4, MinVersions: map[string]int16{"SaslHandshake": 0}}, all, ""},
		// ...but asking for it by name is an error.
		{"min version above an API asked for", Prune{Messages: []string{"17"}, MinVersion: 4}, nil, "-messages 17: SaslHandshakeRequest has no version from 4 (valid versions 0-1)"},
		{"a floor above an API asked for", Prune{Messages: []string{"17"}, MinVersions: map[string]int16{"saslhandshake": 2}}, nil, "-messages 17: SaslHandshakeRequest has no version from 2 (valid versions 0-1)"},
		{"names in any case", Prune{Messages: []string{"fetch", "LEADERCHANGEMESSAGE"}}, append(apiAndHeaders[:2:2], "LeaderChangeMessage", "RequestHeader", "ResponseHeader"), ""},
		{"a spec name in any case brings both sides", Prune{Messages: []string{"fetchresponse"}}, apiAndHeaders, ""},
		{"unknown", Prune{Messages: []string{"Fetch", "Nope"}}, nil, `-messages: no spec, API name or API key "Nope" in the input folder`},
		{"typo", Prune{Messages: []string{"Fecth"}}, nil, `-messages: no spec, API name or API key "Fecth" in the input folder; did you mean Fetch?`},
		{"typo of a spec name", Prune{Messages: []string{"LeaderChangeMesage"}}, nil, "did you mean LeaderChangeMessage?"},
		{"empty name", Prune{Messages: []string{"Fetch", " "}}, nil, "-messages: an empty name"},
		{"negative", Prune{MinVersion: -1}, nil, "negative"},
		{"negative floor", Prune{MinVersions: map[string]int16{"Fetch": -1}}, nil, "-min-version Fetch=-1: the version is negative"},
		{"floor of no API", Prune{MinVersions: map[string]int16{"Fetchh": 1}}, nil, `-min-version: no spec, API name or API key "Fetchh" in the input folder; did you mean Fetch?`},
		{"floor of a data spec", Prune{MinVersions: map[string]int16{"LeaderChangeMessage": 1}}, nil, "-min-version LeaderChangeMessage: LeaderChangeMessage is not a request or response"},
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

// TestPruneMinVersionOf: the floor of each spec under a global minimum,
// floors of single APIs, and ApiVersions' exception.
func TestPruneMinVersionOf(t *testing.T) {
	specs := map[string]*schema.Spec{}
	for _, s := range pruneSpecs() {
		specs[s.Name] = s
	}
	cases := []struct {
		name  string
		prune Prune
		want  map[string]int16 // the specs not listed: 0
	}{
		{"none", Prune{}, nil},
		{"a minimum for every API but ApiVersions", Prune{MinVersion: 4},
			map[string]int16{"FetchRequest": 4, "FetchResponse": 4, "SaslHandshakeRequest": 4, "SaslHandshakeResponse": 4}},
		{"a floor by API name", Prune{MinVersion: 4, MinVersions: map[string]int16{"Fetch": 2}},
			map[string]int16{"FetchRequest": 2, "FetchResponse": 2, "SaslHandshakeRequest": 4, "SaslHandshakeResponse": 4}},
		{"a floor by spec name sets both sides", Prune{MinVersions: map[string]int16{"fetchREQUEST": 3}},
			map[string]int16{"FetchRequest": 3, "FetchResponse": 3}},
		{"a floor by API key", Prune{MinVersion: 1, MinVersions: map[string]int16{"1": 5}},
			map[string]int16{"FetchRequest": 5, "FetchResponse": 5, "SaslHandshakeRequest": 1, "SaslHandshakeResponse": 1}},
		// Named, ApiVersions' request takes its floor; its response
		// keeps v0, the version a broker answers an unknown one in.
		{"ApiVersions named", Prune{MinVersion: 4, MinVersions: map[string]int16{"ApiVersions": 3}},
			map[string]int16{"ApiVersionsRequest": 3, "FetchRequest": 4, "FetchResponse": 4, "SaslHandshakeRequest": 4, "SaslHandshakeResponse": 4}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for name, s := range specs {
				assert.Equal(t, c.want[name], c.prune.minVersionOf(s), name)
			}
		})
	}
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
	dir := modtest.Dir(t, "pruned")
	out := filepath.Join(dir, "pruned")
	require.NoError(t, runErr(Config{
		In: filepath.Join(goldenDir, "request_response"), Out: out,
		Prune: Prune{Messages: []string{"Echo", "EchoRecord"}, MinVersion: 1},
	}))
	require.NoError(t, os.WriteFile(filepath.Join(out, "probe_test.go"), []byte(prunedProbe), 0o644))
	output, err := modtest.Go(dir, "pruned", "test", "-count=1")
	assert.NoError(t, err, "go test of the pruned package:\n%s", output)
}
