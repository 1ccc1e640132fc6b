package schema

import (
	"flag"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the expected diagnostics (*.err, expected.err) of testdata/badspecs")

// badSpecs holds broken spec files, each NN_name.json with the exact
// diagnostics in NN_name.err, and pkg_* folders of files checked together
// through LoadDir, with the diagnostics in expected.err.
var badSpecs = filepath.Join("..", "..", "testdata", "badspecs")

// checkGolden compares got with the golden file, or rewrites it with -update.
func checkGolden(t *testing.T, golden, got string) {
	t.Helper()
	got += "\n"
	if *update {
		require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err, "run go test -update to create it")
	assert.Equal(t, string(want), got)
}

func TestBadSpecs(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(badSpecs, "*.json"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(paths), 45)
	sort.Strings(paths)
	for _, path := range paths {
		name := filepath.Base(path)
		t.Run(strings.TrimSuffix(name, ".json"), func(t *testing.T) {
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			var spec *Spec
			require.NotPanics(t, func() { spec, err = Load(name, src) })
			require.Error(t, err, "a bad spec must not load")
			assert.Nil(t, spec)
			diags, ok := err.(Diagnostics)
			require.True(t, ok, "Load returns Diagnostics, got %T", err)
			require.NotEmpty(t, diags)
			for _, d := range diags {
				assert.Equal(t, name, d.File)
				assert.Positive(t, d.Line)
				assert.Positive(t, d.Col)
				assert.NotEmpty(t, d.Text)
			}
			checkGolden(t, strings.TrimSuffix(path, ".json")+".err", err.Error())
		})
	}
}

func TestBadPackages(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join(badSpecs, "pkg_*"))
	require.NoError(t, err)
	require.NotEmpty(t, dirs)
	abs, err := filepath.Abs(badSpecs)
	require.NoError(t, err)
	// Load with paths relative to badspecs, so the expected text is stable.
	t.Chdir(abs)
	for _, dir := range dirs {
		pkg := filepath.Base(dir)
		t.Run(pkg, func(t *testing.T) {
			var specs []*Spec
			var err error
			require.NotPanics(t, func() { specs, err = LoadDir(pkg) })
			require.Error(t, err)
			assert.Nil(t, specs)
			diags, ok := err.(Diagnostics)
			require.True(t, ok, "LoadDir returns Diagnostics, got %T", err)
			require.NotEmpty(t, diags)
			checkGolden(t, filepath.Join(pkg, "expected.err"), err.Error())
		})
	}
}

// TestCheckPackageDirect covers CheckPackage on hand-built specs.
func TestCheckPackageDirect(t *testing.T) {
	load := func(file, src string) *Spec {
		t.Helper()
		spec, err := Load(file, []byte(src))
		require.NoError(t, err)
		return spec
	}
	msg := func(typ, name string, key int) string {
		return `{"apiKey": ` + strconv.Itoa(key) + `, "type": "` + typ + `", "name": "` + name +
			`", "validVersions": "0", "flexibleVersions": "0+", "fields": []}`
	}
	req := load("a.json", msg("request", "FooRequest", 1))
	resp := load("b.json", msg("response", "FooResponse", 1))
	assert.Empty(t, CheckPackage([]*Spec{req, resp}))
	assert.Empty(t, CheckPackage(nil))
	assert.Empty(t, CheckPackage([]*Spec{nil, req, nil, resp}))

	lone := load("c.json", msg("request", "BarRequest", 2))
	diags := CheckPackage([]*Spec{req, resp, lone})
	assert.Equal(t, "c.json:1:1: BarRequest: failed to find response for API key 2", diags.Error())

	dupName := load("d.json", msg("response", "FooResponse", 3))
	diags = CheckPackage([]*Spec{req, resp, dupName})
	assert.Equal(t, "d.json:1:1: FooResponse: Duplicate message name FooResponse: b.json also defines it.\n"+
		"d.json:1:1: FooResponse: failed to find request for API key 3", diags.Error())

	rec1 := load("e.json", msg("metadata", "ARecord", 0))
	rec2 := load("f.json", msg("metadata", "BRecord", 0))
	data := load("g.json", `{"type": "data", "name": "X", "validVersions": "0", "flexibleVersions": "none", "fields": []}`)
	diags = CheckPackage([]*Spec{rec1, data, rec2})
	assert.Equal(t, "f.json:1:1: BRecord: Duplicate metadata record entry for type 0. Original claimant: ARecord. New claimant: BRecord", diags.Error())
}

// TestValidSpecEdges loads specs that sit exactly on the edge of the rules and
// must be accepted.
func TestValidSpecEdges(t *testing.T) {
	wrap := func(flex string, fields ...string) string {
		return `{"type": "data", "name": "EdgeData", "validVersions": "0-5", "flexibleVersions": "` + flex +
			`", "fields": [` + strings.Join(fields, ",") + `]}`
	}
	tests := []struct {
		name string
		src  string
	}{
		{"int defaults at their limits", wrap("none",
			`{"name": "A", "type": "int8", "versions": "0+", "default": "-128"}`,
			`{"name": "B", "type": "int8", "versions": "0+", "default": "0x7f"}`,
			`{"name": "C", "type": "int16", "versions": "0+", "default": -32768}`,
			`{"name": "D", "type": "int32", "versions": "0+", "default": "-2147483648"}`,
			`{"name": "E", "type": "int64", "versions": "0+", "default": "0xcafcacafcacafca"}`,
			`{"name": "F", "type": "uint16", "versions": "0+", "default": "65535"}`,
			`{"name": "G", "type": "uint32", "versions": "0+", "default": "0xffffffff"}`,
			`{"name": "H", "type": "int32", "versions": "0+", "default": "+5"}`)},
		{"bool, float and uuid defaults", wrap("none",
			`{"name": "A", "type": "bool", "versions": "0+", "default": "TRUE"}`,
			`{"name": "B", "type": "bool", "versions": "0+", "default": false}`,
			`{"name": "C", "type": "float64", "versions": "0+", "default": "12.34"}`,
			`{"name": "D", "type": "float64", "versions": "0+", "default": "-1e3"}`,
			`{"name": "E", "type": "uuid", "versions": "0+", "default": "H3KKO4NTRPaCWtEmm3vW7A"}`,
			`{"name": "F", "type": "uuid", "versions": "0+", "default": "AAAAAAAAAAAAAAAAAAAAAA=="}`)},
		{"null defaults where every version is nullable", wrap("none",
			`{"name": "A", "type": "string", "versions": "1+", "nullableVersions": "0+", "default": "null"}`,
			`{"name": "B", "type": "[]int32", "versions": "0+", "nullableVersions": "0+", "default": "null"}`,
			`{"name": "C", "type": "bytes", "versions": "0+", "nullableVersions": "0+", "default": "null"}`,
			`{"name": "D", "type": "records", "versions": "0+", "default": "anything"}`,
			`{"name": "E", "type": "S", "versions": "0+", "nullableVersions": "0+", "default": "null", "fields": []}`,
			`{"name": "F", "type": "string", "versions": "0+", "default": "null is just text here? no: only exact null"}`)},
		{"JSON null default means no default", wrap("0+",
			`{"name": "A", "type": "S", "versions": "0+", "nullableVersions": "0+", "taggedVersions": "0+", "tag": 0, "default": null, "fields": []}`)},
		{"tags contiguous and nullable in all tagged versions", wrap("2+",
			`{"name": "A", "type": "string", "versions": "3+", "nullableVersions": "3+", "taggedVersions": "3+", "tag": 1}`,
			`{"name": "B", "type": "int32", "taggedVersions": "2+", "tag": "0"}`,
			`{"name": "C", "type": "[]T", "versions": "0+", "fields": [
				{"name": "X", "type": "int32", "versions": "0+", "mapKey": true},
				{"name": "Y", "type": "int32", "versions": "2+", "taggedVersions": "2+", "tag": 0}]}`)},
		{"field flexibleVersions override", wrap("2+",
			`{"name": "A", "type": "string", "versions": "0+", "flexibleVersions": "none"}`,
			`{"name": "B", "type": "bytes", "versions": "0+", "flexibleVersions": "3+", "zeroCopy": true}`)},
		{"entity types through arrays", wrap("none",
			`{"name": "A", "type": "[]string", "versions": "0+", "entityType": "topicName"}`,
			`{"name": "B", "type": "int32", "versions": "0+", "entityType": "brokerId"}`,
			`{"name": "C", "type": "int64", "versions": "0+", "entityType": "producerId"}`,
			`{"name": "D", "type": "uuid", "versions": "0+", "entityType": "unknown"}`)},
		{"nested field wider than its struct", wrap("none",
			`{"name": "A", "type": "[]T", "versions": "2-3", "fields": [{"name": "X", "type": "int32", "versions": "0+"}]}`)},
		{"no valid versions at all", `{"type": "data", "name": "GoneData", "validVersions": "none", "flexibleVersions": "none", "fields": [{"name": "A", "type": "int32", "versions": "0+"}]}`},
		{"common structs referencing common structs", `{"type": "data", "name": "C", "validVersions": "0", "flexibleVersions": "none",
			"fields": [{"name": "A", "type": "[]X", "versions": "0+"}, {"name": "B", "type": "X", "versions": "0+"}],
			"commonStructs": [{"name": "X", "versions": "0+", "fields": [{"name": "Y", "type": "Y", "versions": "0+"}]},
			                  {"name": "Y", "versions": "0+", "fields": [{"name": "Z", "type": "int8", "versions": "0+"}]}]}`},
		{"request with apiKey and listeners", `{"apiKey": 0, "type": "request", "name": "ProduceRequest", "listeners": ["broker"], "latestVersionUnstable": true,
			"validVersions": "0-11", "flexibleVersions": "9+", "deprecatedVersions": "0-6", "fields": []}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load("edge.json", []byte(tt.src))
			require.NoError(t, err)
		})
	}
}

func TestParseIntDefault(t *testing.T) {
	tests := []struct {
		text    string
		bits    int
		want    int64
		wantErr string
	}{
		{"", 8, 0, ""},
		{"-1", 8, -1, ""},
		{"127", 8, 127, ""},
		{"-128", 8, -128, ""},
		{"128", 8, 0, "128 is out of range for int8"},
		{"300", 8, 0, "300 is out of range for int8"},
		{"0x7f", 8, 127, ""},
		{"0x80", 8, 0, "0x80 is out of range for int8"},
		{"-32768", 16, math.MinInt16, ""},
		{"32768", 16, 0, "out of range for int16"},
		{"0x7fffffff", 32, math.MaxInt32, ""},
		{"0xffffffff", 32, 0, "out of range for int32"},
		{"0X10", 32, 0, "not a decimal or 0x-prefixed hexadecimal integer"}, // only lower-case 0x
		{"0xAbC", 32, 0xabc, ""},
		{"-2147483648", 32, math.MinInt32, ""},
		{"010", 32, 10, ""}, // decimal, as Integer.valueOf reads it
		{"+7", 32, 7, ""},
		{"0x-1", 32, 0, "a hexadecimal default cannot have a sign"},
		{"0x+1", 32, 0, "a hexadecimal default cannot have a sign"},
		{"0x", 32, 0, "no digits after 0x"},
		{"abc", 32, 0, "not a decimal or 0x-prefixed hexadecimal integer"},
		{" 1", 32, 0, "not a decimal"},
		{"1_000", 32, 0, "not a decimal"},
		{"1.0", 32, 0, "not a decimal"},
		{"0xcafcacafcacafca", 64, 0xcafcacafcacafca, ""},
		{"9223372036854775807", 64, math.MaxInt64, ""},
		{"9223372036854775808", 64, 0, "out of range for int64"},
		{"1", 12, 0, "unsupported integer size 12"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			got, err := ParseIntDefault(tt.text, tt.bits)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParseUintDefault(t *testing.T) {
	tests := []struct {
		text    string
		bits    int
		want    uint64
		wantErr string
	}{
		{"", 16, 0, ""},
		{"0", 16, 0, ""},
		{"33000", 16, 33000, ""},
		{"65535", 16, 65535, ""},
		{"0xffff", 16, 65535, ""},
		{"65536", 16, 0, "65536 is out of range for uint16"},
		{"70000", 16, 0, "70000 is out of range for uint16"},
		{"-1", 16, 0, "-1 is out of range for uint16"},
		{"1234567", 32, 1234567, ""},
		{"4294967295", 32, math.MaxUint32, ""},
		{"0xffffffff", 32, math.MaxUint32, ""},
		{"4294967296", 32, 0, "out of range for uint32"},
		{"0x100000000", 32, 0, "out of range for uint32"},
		{"x", 32, 0, "not a decimal"},
		{"1", 8, 0, "unsupported unsigned integer size 8"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			got, err := ParseUintDefault(tt.text, tt.bits)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParseBoolDefault(t *testing.T) {
	for text, want := range map[string]bool{"": false, "false": false, "FALSE": false, "true": true, "True": true, "TRUE": true} {
		got, err := ParseBoolDefault(text)
		require.NoError(t, err, text)
		assert.Equal(t, want, got, text)
	}
	for _, text := range []string{"yes", "1", "0", " true", "t"} {
		_, err := ParseBoolDefault(text)
		assert.Error(t, err, text)
	}
}

func TestParseFloatDefault(t *testing.T) {
	for text, want := range map[string]float64{"": 0, "12.34": 12.34, "-1": -1, "1e3": 1000, " 2.5 ": 2.5, "1e400": math.Inf(1)} {
		got, err := ParseFloatDefault(text)
		require.NoError(t, err, text)
		assert.Equal(t, want, got, text)
	}
	got, err := ParseFloatDefault("NaN")
	require.NoError(t, err)
	assert.Equal(t, uint64(0x7ff8000000000000), math.Float64bits(got), "Java's Double.NaN, not Go's math.NaN()")
	for _, text := range []string{"abc", "1,5", " ", "0x"} {
		_, err := ParseFloatDefault(text)
		assert.Error(t, err, text)
	}
}

func TestParseUUIDDefault(t *testing.T) {
	got, err := ParseUUIDDefault("")
	require.NoError(t, err)
	assert.Equal(t, [16]byte{}, got)
	got, err = ParseUUIDDefault("AAAAAAAAAAAAAAAAAAAAAA")
	require.NoError(t, err)
	assert.Equal(t, [16]byte{}, got)
	got, err = ParseUUIDDefault("_____________________w") // URL-safe alphabet
	require.NoError(t, err)
	assert.Equal(t, [16]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, got)
	got, err = ParseUUIDDefault("H3KKO4NTRPaCWtEmm3vW7A==") // padding is accepted
	require.NoError(t, err)
	assert.Equal(t, byte(0x1f), got[0])
	tests := map[string]string{
		"!!":                        "not URL-safe base64",
		"AAAA":                      "decodes to 3 bytes, not 16",
		"AAAAAAAAAAAAAAAAAAAAAAAA":  "decodes to 18 bytes, not 16",
		"AAAAAAAAAAAAAAAAAAAAAAAAA": "longer than 24 characters",
		"+++++++++++++++++++++w":    "not URL-safe base64", // standard, not URL-safe, alphabet
		"AAAAAAAAAAA\nAAAAAAAAAAA":  "not URL-safe base64",
		"AAAAAAAAAAAAAAAAAAAAAA=":   "not URL-safe base64",
	}
	for text, wantErr := range tests {
		_, err := ParseUUIDDefault(text)
		require.Error(t, err, text)
		assert.Contains(t, err.Error(), wantErr, text)
	}
}
