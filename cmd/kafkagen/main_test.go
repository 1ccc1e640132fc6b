package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tests run in this package's folder, where the default -in (schemas)
// and -out (generated) do not exist, so every run names its folders.

const requestSpec = `{
  "apiKey": 900, "type": "request", "listeners": ["broker"], "name": "PingRequest",
  "validVersions": "0", "flexibleVersions": "0+",
  "fields": [
    { "name": "Payload", "type": "string", "versions": "0+", "about": "The payload." }
  ]
}
`

const responseSpec = `{
  "apiKey": 900, "type": "response", "name": "PingResponse",
  "validVersions": "0", "flexibleVersions": "0+",
  "fields": [
    { "name": "ErrorCode", "type": "int16", "versions": "0+", "about": "The error code." }
  ]
}
`

// badSpec has an unknown type on line 4, column 31 (its opening quote).
const badSpec = `{
  "type": "data", "name": "Bad", "validVersions": "0", "flexibleVersions": "0+",
  "fields": [
    { "name": "Flag", "type": "booleanint8", "versions": "0+", "about": "Not a type." }
  ]
}
`

// specDir creates a folder of spec files.
func specDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "specs")
	require.NoError(t, os.Mkdir(dir, 0o755))
	for name, src := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}
	return dir
}

func goodSpecs(t *testing.T) string {
	return specDir(t, map[string]string{"PingRequest.json": requestSpec, "PingResponse.json": responseSpec})
}

// runMain calls run and returns its exit status and output.
func runMain(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestUsage(t *testing.T) {
	for _, flag := range []string{"-h", "-help", "--help"} {
		t.Run(flag, func(t *testing.T) {
			code, stdout, stderr := runMain(t, flag)
			assert.Equal(t, 0, code)
			assert.Empty(t, stdout)
			assert.True(t, strings.HasPrefix(stderr, "Usage: kafkagen [-in DIR]... [-out DIR] [-package NAME] [-check]"), stderr)
			for _, want := range []string{"-in", "-out", "-package", "-check", "-release", "Exit status: 0 success, 1 spec problems or stale output, 2 misuse."} {
				assert.Contains(t, stderr, want)
			}
		})
	}
}

func TestMisuse(t *testing.T) {
	in := goodSpecs(t)
	out := filepath.Join(t.TempDir(), "out")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown flag", []string{"-nope"}, "flag provided but not defined: -nope"},
		{"flag without value", []string{"-in"}, "flag needs an argument: -in"},
		{"bad bool", []string{"-check=maybe"}, `invalid boolean value "maybe" for -check`},
		{"extra argument", []string{"-in", in, "-out", out, "extra"}, `kafkagen: unexpected argument "extra"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runMain(t, tt.args...)
			assert.Equal(t, 2, code)
			assert.Empty(t, stdout)
			assert.Contains(t, stderr, tt.want)
			assert.Contains(t, stderr, "Usage: kafkagen", "misuse prints the usage")
			assert.NoDirExists(t, out, "misuse writes nothing")
		})
	}
}

// TestConfigMisuse: a configuration that cannot run is misuse, reported in
// one line of stderr with exit status 2, before anything is read or written.
func TestConfigMisuse(t *testing.T) {
	in := goodSpecs(t)
	tmp := t.TempDir()
	out := filepath.Join(tmp, "out")
	file := filepath.Join(tmp, "file.txt")
	require.NoError(t, os.WriteFile(file, []byte("a file\n"), 0o644))
	empty := filepath.Join(tmp, "empty")
	require.NoError(t, os.Mkdir(empty, 0o755))
	// A Kafka checkout: spec folders below its root, the client protocol's
	// among them.
	checkout := filepath.Join(tmp, "kafka")
	for _, dir := range []string{"metadata/src/main/resources/common/metadata", "clients/src/main/resources/common/message", "raft/src/main/resources/common/message"} {
		path := filepath.Join(checkout, filepath.FromSlash(dir))
		require.NoError(t, os.MkdirAll(path, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(path, "PingRequest.json"), []byte(requestSpec), 0o644))
	}
	clients := filepath.Join(checkout, "clients")
	// A Kafka 2.4 to 2.8 folder: flexible specs beside one without
	// flexibleVersions, which the 2.x rules read as none.
	kafka28 := specDir(t, map[string]string{"PingRequest.json": requestSpec, "PingResponse.json": responseSpec,
		"OldData.json": strings.TrimSuffix(legacySpec, "]\n")})
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"keyword package", []string{"-in", in, "-out", out, "-package", "func"}, `kafkagen: package name "func" is a Go keyword`},
		{"keyword range", []string{"-in", in, "-out", out, "-package", "range"}, `kafkagen: package name "range" is a Go keyword`},
		{"predeclared type", []string{"-in", in, "-out", out, "-package", "int"}, `kafkagen: package name "int" is predeclared in Go`},
		{"predeclared string", []string{"-in", in, "-out", out, "-package", "string"}, `kafkagen: package name "string" is predeclared in Go`},
		{"predeclared nil", []string{"-in", in, "-out", out, "-package", "nil"}, `kafkagen: package name "nil" is predeclared in Go`},
		{"predeclared function", []string{"-in", in, "-out", out, "-package", "len"}, `kafkagen: package name "len" is predeclared in Go`},
		{"blank package", []string{"-in", in, "-out", out, "-package", "_"}, `kafkagen: package name "_" is the blank identifier`},
		{"not an identifier", []string{"-in", in, "-out", out, "-package", "not-a-name"}, `kafkagen: package name "not-a-name" is not a Go identifier`},
		{"output folder named by a keyword", []string{"-in", in, "-out", filepath.Join(tmp, "go")}, `kafkagen: package name "go" is a Go keyword (taken from the output folder's name; set one with -package)`},
		{"output folder not an identifier", []string{"-in", in, "-out", filepath.Join(tmp, "v1.2")}, `kafkagen: package name "v1.2" is not a Go identifier (taken from the output folder's name; set one with -package)`},
		{"missing input", []string{"-in", filepath.Join(tmp, "nope"), "-out", out}, "kafkagen: input folder: " + filepath.Join(tmp, "nope") + " does not exist"},
		{"input is a file", []string{"-in", file, "-out", out}, "kafkagen: input " + file + " is not a folder"},
		{"input without specs", []string{"-in", empty, "-out", out}, "kafkagen: no *.json spec files in " + empty},
		{"output is a file", []string{"-in", in, "-out", file, "-package", "out"}, "kafkagen: output " + file + " is not a folder"},
		{"output is a file, no -package", []string{"-in", in, "-out", file}, "kafkagen: output " + file + " is not a folder"},
		{"output under a file", []string{"-in", in, "-out", filepath.Join(file, "out")}, "kafkagen: output " + filepath.Join(file, "out") + ": " + file + " is not a folder"},
		{"unknown release", []string{"-in", in, "-out", out, "-release", "two"}, `kafkagen: release "two" is not MAJOR.MINOR or MAJOR.MINOR.PATCH`},
		{"release without specs", []string{"-in", in, "-out", out, "-release", "2.1"}, "kafkagen: release 2.1 has no JSON message specs: Kafka ships them from 2.2"},
		{"a Kafka checkout", []string{"-in", checkout, "-out", out}, "kafkagen: no *.json spec files in " + checkout + ", but Kafka spec folders below it: give -in " +
			filepath.Join(checkout, "clients/src/main/resources/common/message") + " (the client protocol); more spec folders in metadata, raft (kafkagen -h for usage)\n"},
		{"a Kafka module", []string{"-in", clients, "-out", out}, "kafkagen: no *.json spec files in " + clients + ", but Kafka spec folders below it: give -in " +
			filepath.Join(clients, "src/main/resources/common/message") + " (the client protocol) (kafkagen -h for usage)\n"},
		{"a Kafka 2.8 folder", []string{"-in", kafka28, "-out", out}, "kafkagen: 1 of the 3 specs in " + kafka28 + " lack flexibleVersions (OldData.json), as in Kafka 2.4 to 2.8 (3.0 made it mandatory): " +
			`add -release 2.4 for such a release, or give a new spec "flexibleVersions": "0+" (kafkagen -h for usage)` + "\n"},
		// The tests run where there is no schemas folder, as in a user's module.
		{"no -in and no schemas folder", []string{"-out", out}, "kafkagen: no -in, and no schemas folder here to read by default: give -in, a folder of Kafka spec files " +
			"(such as a Kafka checkout's clients/src/main/resources/common/message), and -out, the package folder to write (kafkagen -h for usage)\n"},
		{"empty message list", []string{"-in", in, "-out", out, "-messages", ""}, `kafkagen: -messages "" names no message: give spec names, API names or API keys, comma-separated`},
		{"message list of commas", []string{"-in", in, "-out", out, "-messages", " , ,"}, `kafkagen: -messages " , ," names no message`},
		{"empty name in a message list", []string{"-in", in, "-out", out, "-messages", "PingRequest,,PingResponse"}, `kafkagen: -messages "PingRequest,,PingResponse" has an empty name between its commas`},
		{"message typo", []string{"-in", in, "-out", out, "-messages", "Pign"}, `kafkagen: -messages: no spec, API name or API key "Pign" in the input folder; did you mean Ping?`},
		{"message typo in a spec name", []string{"-in", in, "-out", out, "-messages", "pingrequets"}, `kafkagen: -messages: no spec, API name or API key "pingrequets" in the input folder; did you mean PingRequest?`},
		{"unknown message", []string{"-in", in, "-out", out, "-messages", "Metadata"}, `kafkagen: -messages: no spec, API name or API key "Metadata" in the input folder (kafkagen -h for usage)`},
		{"negative minimum version", []string{"-in", in, "-out", out, "-min-version", "-1"}, `kafkagen: -min-version "-1": "-1" is not a version (0 to 32767)`},
		{"minimum version not a number", []string{"-in", in, "-out", out, "-min-version", "4,Ping=x"}, `kafkagen: -min-version "4,Ping=x": "x" is not a version (0 to 32767)`},
		{"empty item in minimum versions", []string{"-in", in, "-out", out, "-min-version", "4,,Ping=0"}, `kafkagen: -min-version "4,,Ping=0" has an empty item between its commas`},
		{"floor without a name", []string{"-in", in, "-out", out, "-min-version", "=0"}, `kafkagen: -min-version "=0": "=0" names no API`},
		{"two minimum versions", []string{"-in", in, "-out", out, "-min-version", "4,5"}, `kafkagen: -min-version "4,5" gives two versions for every API`},
		{"floor typo", []string{"-in", in, "-out", out, "-min-version", "0,Pong=0"}, `kafkagen: -min-version: no spec, API name or API key "Pong" in the input folder; did you mean Ping?`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := treeSnapshot(t, tmp)
			for _, check := range []bool{false, true} {
				args := tt.args
				if check {
					args = append(args[:len(args):len(args)], "-check")
				}
				code, stdout, stderr := runMain(t, args...)
				assert.Equal(t, 2, code, "check=%v", check)
				assert.Empty(t, stdout)
				assert.True(t, strings.HasPrefix(stderr, tt.want), "stderr %q, want it to start with %q", stderr, tt.want)
				assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
				assert.True(t, strings.HasSuffix(stderr, " (kafkagen -h for usage)\n"), stderr)
			}
			assert.Equal(t, before, treeSnapshot(t, tmp), "misuse writes nothing")
		})
	}
}

func TestBadSpec(t *testing.T) {
	in := specDir(t, map[string]string{"Bad.json": badSpec, "PingRequest.json": requestSpec, "PingResponse.json": responseSpec})
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := runMain(t, "-in", in, "-out", out)
	assert.Equal(t, 1, code)
	assert.Empty(t, stdout)
	bad := filepath.Join(in, "Bad.json")
	assert.Regexp(t, "(?m)^"+regexp.QuoteMeta(bad)+`:4:31: Bad\.Flag: Can't parse type booleanint8\.$`, stderr, "file:line:col: subject: text")
	assert.Contains(t, stderr, "kafkagen: 1 problem(s); nothing written\n")
	assert.NoDirExists(t, out)
}

func TestGenerateAndCheck(t *testing.T) {
	in := goodSpecs(t)
	out := filepath.Join(t.TempDir(), "pingpkg")

	// Stale before anything is written.
	code, stdout, stderr := runMain(t, "-in", in, "-out", out, "-check")
	assert.Equal(t, 1, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "kafkagen: generated code is stale in "+out)
	assert.NoDirExists(t, out, "-check writes nothing")

	code, stdout, stderr = runMain(t, "-in", in, "-out", out)
	assert.Equal(t, 0, code, stderr)
	assert.Equal(t, "wrote 4 files to "+out+" (4 changed)\n", stdout, "one line says what the run did")
	assert.Empty(t, stderr)
	for _, name := range []string{"kafkagen_registry.go", "ping_request.go", "ping_response.go"} {
		src, err := os.ReadFile(filepath.Join(out, name))
		require.NoError(t, err)
		assert.Contains(t, string(src), "\npackage pingpkg\n", name)
	}

	code, stdout, stderr = runMain(t, "-check", "-in", in, "-out", out)
	assert.Equal(t, 0, code, stderr)
	assert.Equal(t, "checked 4 files in "+out+": up to date\n", stdout)
	assert.Empty(t, stderr)

	// Edit a generated file: the check fails and names it.
	path := filepath.Join(out, "ping_request.go")
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, append(src, "// edited\n"...), 0o644))
	code, stdout, stderr = runMain(t, "-in", in, "-out", out, "-check")
	assert.Equal(t, 1, code)
	assert.Empty(t, stdout, "a stale check says so once, on stderr")
	assert.Equal(t, "kafkagen: generated code is stale in "+out+": ping_request.go differs\n", stderr)

	// Regenerating repairs it.
	code, stdout, stderr = runMain(t, "-in", in, "-out", out)
	assert.Equal(t, 0, code, stderr)
	assert.Equal(t, "wrote 4 files to "+out+" (1 changed)\n", stdout)
	code, _, stderr = runMain(t, "-in", in, "-out", out, "-check")
	assert.Equal(t, 0, code, stderr)
}

func TestPackageFlag(t *testing.T) {
	in := goodSpecs(t)
	out := filepath.Join(t.TempDir(), "out")
	code, _, stderr := runMain(t, "-in", in, "-out", out, "-package", "ping")
	require.Equal(t, 0, code, stderr)
	src, err := os.ReadFile(filepath.Join(out, "ping_request.go"))
	require.NoError(t, err)
	assert.Contains(t, string(src), "\npackage ping\n")

}

// TestMessagesAnyCase: -messages matches names regardless of case, and an
// API's spec name brings both sides.
func TestMessagesAnyCase(t *testing.T) {
	in := goodSpecs(t)
	for _, list := range []string{"ping", "PINGRESPONSE", "pingRequest,900"} {
		out := filepath.Join(t.TempDir(), "ping")
		code, stdout, stderr := runMain(t, "-in", in, "-out", out, "-messages", list)
		require.Equal(t, 0, code, stderr)
		assert.Equal(t, "wrote 4 files to "+out+" (4 changed)\n", stdout, list)
	}
}
