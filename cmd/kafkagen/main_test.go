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
			assert.True(t, strings.HasPrefix(stderr, "Usage: kafkagen [-in DIR] [-out DIR] [-package NAME] [-check]\n"), stderr)
			for _, want := range []string{"-in", "-out", "-package", "-check", "Exit status: 0 success, 1 spec problems or stale output, 2 misuse."} {
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

func TestMissingInput(t *testing.T) {
	tmp := t.TempDir()
	missing := filepath.Join(tmp, "nope")
	out := filepath.Join(tmp, "out")
	for _, check := range []bool{false, true} {
		args := []string{"-in", missing, "-out", out}
		if check {
			args = append(args, "-check")
		}
		code, stdout, stderr := runMain(t, args...)
		assert.Equal(t, 1, code, "check=%v", check)
		assert.Empty(t, stdout)
		assert.Contains(t, stderr, "kafkagen: input folder: ")
		assert.Contains(t, stderr, missing)
		assert.NoDirExists(t, out)
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
	assert.Empty(t, stdout)
	assert.Empty(t, stderr)
	for _, name := range []string{"kafkagen_registry.go", "ping_request.go", "ping_response.go"} {
		src, err := os.ReadFile(filepath.Join(out, name))
		require.NoError(t, err)
		assert.Contains(t, string(src), "\npackage pingpkg\n", name)
	}

	code, stdout, stderr = runMain(t, "-check", "-in", in, "-out", out)
	assert.Equal(t, 0, code, stderr)
	assert.Empty(t, stdout)
	assert.Empty(t, stderr)

	// Edit a generated file: the check fails and names it.
	path := filepath.Join(out, "ping_request.go")
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, append(src, "// edited\n"...), 0o644))
	code, stdout, stderr = runMain(t, "-in", in, "-out", out, "-check")
	assert.Equal(t, 1, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "generated code is stale")
	assert.Contains(t, stderr, "ping_request.go differs")

	// Regenerating repairs it.
	code, _, stderr = runMain(t, "-in", in, "-out", out)
	assert.Equal(t, 0, code, stderr)
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

	code, _, stderr = runMain(t, "-in", in, "-out", out, "-package", "not-a-name")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, `kafkagen: package name "not-a-name" is not a Go identifier`)
}
