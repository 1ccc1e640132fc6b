package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/internal/corpus"
)

// clientsFolder is where a Kafka tree keeps the client protocol's specs.
var clientsFolder = filepath.Join("clients", "src", "main", "resources", "common", "message")

// TestUnionPackages generates the two unions the README names for "every
// version Kafka ever shipped" (the late-2024 corpus plus 4.2.0-rc1, and
// 3.9.1 plus 4.2.0-rc1), vets them, and runs in each the test
// unionRoundTrip: every version of every message of every source folder,
// encoded canonically from that folder's own specs (internal/wiregen),
// decodes and re-encodes byte for byte with the union's one type; then
// Java's vectors, the corpus's java-random-dev.jsonl and the 4.1.1
// java-4.1.1-dev.jsonl lines Java reads.
func TestUnionPackages(t *testing.T) {
	root := releasesDir(t)
	if testing.Short() {
		t.Skip("builds the generated packages with the go command")
	}
	if !corpus.Available() {
		t.Skipf("no Kafka spec corpus at %s (set KAFKA_SPEC_DIR)", corpus.SpecDir())
	}
	goTool, err := exec.LookPath("go")
	require.NoError(t, err)
	moduleRoot, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	abs := func(p string) string {
		a, err := filepath.Abs(p)
		require.NoError(t, err)
		return a
	}
	newest := abs(filepath.Join(root, "4.2.0-rc1", clientsFolder))
	unions := []struct {
		pkg     string
		folders []string
	}{
		{"ucorpus42", []string{abs(filepath.Join(corpus.SpecDir(), clientsFolder)), newest}},
		{"u391and42", []string{abs(filepath.Join(root, "3.9.1", clientsFolder)), newest}},
	}
	var pkgs []string
	for _, u := range unions {
		dir, err := os.MkdirTemp(moduleRoot, ".union-build-"+u.pkg+"-")
		require.NoError(t, err)
		t.Cleanup(func() { os.RemoveAll(dir) })
		out := filepath.Join(dir, u.pkg)
		args := []string{"-out", out}
		for _, f := range u.folders {
			args = append(args, "-in", f)
		}
		code, _, stderr := runMain(t, args...)
		require.Equal(t, 0, code, stderr)
		quoted := make([]string, len(u.folders))
		for i, f := range u.folders {
			quoted[i] = fmt.Sprintf("%q", f)
		}
		src := fmt.Sprintf(unionRoundTrip, u.pkg, strings.Join(quoted, ", "), abs(corpus.VectorDir()))
		require.NoError(t, os.WriteFile(filepath.Join(out, "union_roundtrip_test.go"), []byte(src), 0o644))
		rel, err := filepath.Rel(moduleRoot, out)
		require.NoError(t, err)
		pkgs = append(pkgs, "./"+filepath.ToSlash(rel))
	}
	for _, args := range [][]string{{"vet"}, {"test", "-count=1", "-v", "-run", "^TestUnionRoundTrip$"}} {
		cmd := exec.Command(goTool, append(args, pkgs...)...)
		cmd.Dir = moduleRoot
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "go %s of the union packages:\n%s", args[0], out)
		for _, line := range strings.Split(string(out), "\n") {
			if strings.Contains(line, "union ") || strings.Contains(line, "yields") {
				t.Log(strings.TrimSpace(line))
			}
		}
	}
}

// unionRoundTrip is the test written into each union package.
const unionRoundTrip = `package %[1]s

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/kafkagen/kafkagen/generator/schema"
	"github.com/kafkagen/kafkagen/internal/roundtrip"
	"github.com/kafkagen/kafkagen/internal/wiregen"
	"github.com/kafkagen/kafkagen/runtime"
)

var folders = []string{%[2]s}

const vectorDir = %[3]q

// lookup finds the union's type for a source spec: APIs by key (Kafka
// renames them), anything else by name.
func lookup(kind string, key int16, name string) func() runtime.Message {
	return func() runtime.Message {
		switch kind {
		case "request":
			if m := NewRequest(key); m != nil {
				return m
			}
		case "response":
			if m := NewResponse(key); m != nil {
				return m
			}
		}
		if m := NewByName(name); m != nil {
			return m
		}
		return nil
	}
}

// yielded reports versions a source's unstable latest version gave up to
// a newer folder (schema.Union): their bytes may differ, and are checked
// only as the newer folder has them.
func yielded(spec *schema.Spec, unstable map[int16]bool, v int16, newest []*schema.Spec) bool {
	if !unstable[spec.APIKey] || v != spec.ValidVersions.Hi || (spec.Type != schema.TypeRequest && spec.Type != schema.TypeResponse) {
		return false
	}
	for _, s := range newest {
		if s.Type == spec.Type && s.APIKey == spec.APIKey && s.ValidVersions.Contains(v) {
			return true
		}
	}
	return false
}

func TestUnionRoundTrip(t *testing.T) {
	loaded := make([][]*schema.Spec, len(folders))
	for i, dir := range folders {
		specs, err := schema.LoadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		loaded[i] = specs
	}
	newest := loaded[len(loaded)-1]
	var pairs, messages, skipped int
	for i, specs := range loaded {
		unstable := map[int16]bool{}
		for _, s := range specs {
			if s.Type == schema.TypeRequest && s.LatestVersionUnstable {
				unstable[s.APIKey] = true
			}
		}
		for _, spec := range specs {
			if spec.Removed() {
				continue
			}
			newMsg := lookup(string(spec.Type), spec.APIKey, spec.Name)
			if newMsg() == nil {
				t.Errorf("%%s of %%s has no type in the union", spec.Name, folders[i])
				continue
			}
			for _, v := range wiregen.Versions(spec) {
				if i < len(loaded)-1 && yielded(spec, unstable, v, newest) {
					skipped++
					continue
				}
				pairs++
				rng := rand.New(rand.NewPCG(uint64(v), uint64(len(spec.Name)+i)))
				for k := 0; k < 6; k++ {
					// Unknown tags only from the newest folder: an older
					// folder's unused tag may have a meaning at later
					// versions now, refused at earlier ones as Java does.
					opts := wiregen.Options{UnknownTags: k%%2 == 1 && i == len(loaded)-1, MaxArray: 1 + k%%3}
					src := wiregen.Encode(spec, v, rng, opts)
					if err := roundtrip.Check(newMsg, nil, src, v); err != nil {
						t.Errorf("%%s v%%d from %%s: %%v", spec.Name, v, folders[i], err)
						break
					}
					messages++
				}
			}
		}
	}
	t.Logf("union %%s: %%d folders, %%d (message, version) pairs, %%d messages round-trip; %%d unstable versions yield to the newest folder", "%[1]s", len(folders), pairs, messages, skipped)
	javaVectors(t, "java-random-dev.jsonl", false)
	javaVectors(t, "java-4.1.1-dev.jsonl", true)
}

// javaVectors decodes the clients lines of a vector file with the union
// and re-encodes them to Java's bytes. Versions past the union's (the
// union of 3.9.1 lacks none of 4.1.1's) are refused, and counted.
func javaVectors(t *testing.T, name string, release bool) {
	f, err := os.Open(filepath.Join(vectorDir, name))
	if err != nil {
		t.Logf("no %%s: %%v", name, err)
		return
	}
	defer f.Close()
	var read, checked, refusedByJava int
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var line struct {
			File, API, Kind, Type, Module, Hex, JavaHex string
			APIKey                                      int16
			Version                                     int16
			JavaReads                                   *bool
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatal(err)
		}
		read++
		kind, specName, want := line.Type, line.File, line.Hex
		if release {
			kind, specName, want = line.Kind, line.API, line.JavaHex
			if line.JavaReads == nil || !*line.JavaReads {
				refusedByJava++
				continue
			}
		} else if line.Module != "clients" {
			continue
		}
		if kind != "request" && kind != "response" {
			continue
		}
		src, err := hex.DecodeString(want)
		if err != nil {
			t.Fatal(err)
		}
		if err := roundtrip.Check(lookup(kind, line.APIKey, specName), nil, src, line.Version); err != nil {
			t.Errorf("%%s %%s v%%d: %%v", name, specName, line.Version, err)
			continue
		}
		checked++
	}
	t.Logf("union %%s: %%s: %%d lines, %%d Java encodings decoded and re-encoded byte for byte (%%d lines Java itself refuses, skipped)", "%[1]s", name, read, checked, refusedByJava)
}
`

// TestUnionFlag: -in given twice makes one package of both folders; a
// disagreement at a shared version names both files, the field and the
// version, and writes nothing; a missing second folder is misuse.
func TestUnionFlag(t *testing.T) {
	older := specDir(t, map[string]string{"D.json": `{ "type": "data", "name": "D", "validVersions": "0-3", "flexibleVersions": "none",
  "fields": [ { "name": "A", "type": "int32", "versions": "0+", "about": "A." } ] }`})
	newer := specDir(t, map[string]string{"D.json": `{ "type": "data", "name": "D", "validVersions": "2-5", "flexibleVersions": "none",
  "fields": [ { "name": "A", "type": "int32", "versions": "0+", "about": "A." }, { "name": "B", "type": "int64", "versions": "5+", "about": "B." } ] }`})
	broken := specDir(t, map[string]string{"D.json": `{ "type": "data", "name": "D", "validVersions": "2-5", "flexibleVersions": "none",
  "fields": [ { "name": "A", "type": "int32", "versions": "3+", "about": "A." } ] }`})
	out := filepath.Join(t.TempDir(), "u")
	code, stdout, stderr := runMain(t, "-in", older, "-in", newer, "-out", out)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, "wrote 2 files to "+out+" (2 changed)\n", stdout)
	src, err := os.ReadFile(filepath.Join(out, "d.go"))
	require.NoError(t, err)
	require.Contains(t, string(src), "Valid versions: 0-5")

	code, stdout, stderr = runMain(t, "-in", older, "-in", broken, "-out", filepath.Join(t.TempDir(), "v"))
	require.Equal(t, 1, code)
	require.Empty(t, stdout)
	require.Equal(t, filepath.Join(broken, "D.json")+":2:15: D.A: the folders disagree at version 2: present in "+
		filepath.Join(older, "D.json")+":2:15, not in "+filepath.Join(broken, "D.json")+":2:15\nkafkagen: 1 problem(s); nothing written\n", stderr)

	code, _, stderr = runMain(t, "-in", older, "-in", filepath.Join(older, "missing"), "-out", filepath.Join(t.TempDir(), "w"))
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "does not exist")
}
