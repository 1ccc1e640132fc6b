package schema

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// corpusFiles is the number of spec files in Kafka's corpus at the pinned
// commit (docs/protocol.md, "The spec corpus").
const corpusFiles = 258

// specDir returns the Kafka spec corpus: $KAFKA_SPEC_DIR, or
// ../shared/kafka-spec relative to the module root. It skips the test when
// the corpus is absent.
func specDir(t *testing.T) (dir string, fromEnv bool) {
	t.Helper()
	dir, fromEnv = os.LookupEnv("KAFKA_SPEC_DIR")
	if !fromEnv || dir == "" {
		dir, fromEnv = filepath.Join("..", "..", "..", "shared", "kafka-spec"), false
	}
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		t.Skipf("Kafka spec corpus not found at %s: set KAFKA_SPEC_DIR to the directory holding Kafka's */src/*/resources spec files", dir)
	}
	return dir, fromEnv
}

// corpusDirs groups the corpus's *.json files by directory.
func corpusDirs(t *testing.T, root string) map[string][]string {
	t.Helper()
	dirs := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".json") {
			dirs[filepath.Dir(path)] = append(dirs[filepath.Dir(path)], path)
		}
		return nil
	})
	require.NoError(t, err)
	return dirs
}

func TestCorpusLoadsCleanly(t *testing.T) {
	root, fromEnv := specDir(t)
	dirs := corpusDirs(t, root)
	names := make([]string, 0, len(dirs))
	for dir := range dirs {
		names = append(names, dir)
	}
	sort.Strings(names)
	total := 0
	for _, dir := range names {
		files := dirs[dir]
		total += len(files)
		rel, _ := filepath.Rel(root, dir)
		t.Run(rel, func(t *testing.T) {
			// Every file on its own.
			for _, path := range files {
				spec, err := LoadFile(path)
				require.NoError(t, err, "%s", path)
				require.NotNil(t, spec)
				assert.Equal(t, path, spec.File)
				assert.NotEmpty(t, spec.Name, path)
				assert.NotNil(t, spec.Root, path)
			}
			// The directory as one package, with the cross-file rules.
			specs, err := LoadDir(dir)
			require.NoError(t, err, "%s", dir)
			assert.Len(t, specs, len(files))
			assert.Empty(t, CheckPackage(specs))
		})
	}
	if !fromEnv {
		assert.Equal(t, corpusFiles, total, "spec files under %s", root)
	}
	require.NotZero(t, total, "no spec files under %s", root)
}

// TestCorpusDefaultsParse checks that every default in the corpus is accepted
// by the exported Parse*Default helpers the code emitter uses.
func TestCorpusDefaultsParse(t *testing.T) {
	root, _ := specDir(t)
	n := 0
	for _, files := range corpusDirs(t, root) {
		for _, path := range files {
			spec, err := LoadFile(path)
			require.NoError(t, err)
			var walk func(st *Struct, seen map[*Struct]bool)
			walk = func(st *Struct, seen map[*Struct]bool) {
				if seen[st] {
					return
				}
				seen[st] = true
				for _, f := range st.Fields {
					if f.HasDefault {
						n++
						assert.NoError(t, parseDefault(f), "%s: %s", path, f.Name)
					}
					if f.Struct != nil {
						walk(f.Struct, seen)
					}
				}
			}
			walk(spec.Root, map[*Struct]bool{})
		}
	}
	assert.NotZero(t, n)
}

func parseDefault(f *Field) error {
	if f.Type.Array {
		return nil
	}
	var err error
	switch f.Type.Kind {
	case KindBool:
		_, err = ParseBoolDefault(f.Default)
	case KindInt8, KindInt16, KindInt32, KindInt64:
		_, err = ParseIntDefault(f.Default, f.Type.Kind.FixedSize()*8)
	case KindUint16, KindUint32:
		_, err = ParseUintDefault(f.Default, f.Type.Kind.FixedSize()*8)
	case KindFloat64:
		_, err = ParseFloatDefault(f.Default)
	case KindUUID:
		_, err = ParseUUIDDefault(f.Default)
	}
	return err
}

// TestCorpusModel spot-checks the loaded model against facts of docs/protocol.md.
func TestCorpusModel(t *testing.T) {
	root, _ := specDir(t)
	load := func(rel string) *Spec {
		t.Helper()
		spec, err := LoadFile(filepath.Join(root, rel))
		require.NoError(t, err)
		return spec
	}
	field := func(st *Struct, name string) *Field {
		t.Helper()
		for _, f := range st.Fields {
			if f.Name == name {
				return f
			}
		}
		require.FailNow(t, "no field "+name+" in "+st.Name)
		return nil
	}
	msg := "clients/src/main/resources/common/message/"

	fetch := load(msg + "FetchRequest.json")
	assert.Equal(t, TypeRequest, fetch.Type)
	assert.Equal(t, int16(1), fetch.APIKey)
	assert.Equal(t, Versions{0, 17}, fetch.ValidVersions)
	assert.Equal(t, Versions{12, NoMax}, fetch.FlexibleVersions)
	maxBytes := field(fetch.Root, "MaxBytes")
	assert.Equal(t, "0x7fffffff", maxBytes.Default)
	n, err := ParseIntDefault(maxBytes.Default, 32)
	require.NoError(t, err)
	assert.Equal(t, int64(0x7fffffff), n)
	replicaState := field(fetch.Root, "ReplicaState")
	assert.True(t, replicaState.HasTag)
	assert.Equal(t, 1, replicaState.Tag)
	assert.Equal(t, Versions{15, NoMax}, replicaState.TaggedVersions)

	// A nested field wider than its struct is present only where both are.
	snap := load(msg + "FetchResponse.json")
	parts := field(field(snap.Root, "Responses").Struct, "Partitions").Struct
	snapshotID := field(parts, "SnapshotId")
	assert.Equal(t, Versions{12, 17}, snapshotID.Present)
	assert.Equal(t, Versions{12, 17}, field(snapshotID.Struct, "EndOffset").Present)

	// "tag": "0" is coerced to 0.
	reg := load("metadata/src/main/resources/common/metadata/RegisterBrokerRecord.json")
	logDirs := field(reg.Root, "LogDirs")
	assert.True(t, logDirs.HasTag)
	assert.Equal(t, 0, logDirs.Tag)

	// Common structs are shared between fields.
	lai := load(msg + "LeaderAndIsrRequest.json")
	ungrouped := field(lai.Root, "UngroupedPartitionStates")
	require.NotNil(t, ungrouped.Struct)
	assert.True(t, ungrouped.Struct.Common)
	topicStates := field(lai.Root, "TopicStates")
	assert.Same(t, ungrouped.Struct, field(topicStates.Struct, "PartitionStates").Struct)

	// The test fixture's uuid default.
	simple := load("clients/src/test/resources/common/message/SimpleExampleMessage.json")
	u, err := ParseUUIDDefault(field(simple.Root, "taggedUuid").Default)
	require.NoError(t, err)
	assert.Equal(t, [16]byte{0x1f, 0x72, 0x8a, 0x3b, 0x83, 0x53, 0x44, 0xf6, 0x82, 0x5a, 0xd1, 0x26, 0x9b, 0x7b, 0xd6, 0xec}, u)
}

// TestPositionsSurviveComments loads a spec whose problem follows comments and
// checks that the reported line and column are those of the original file.
func TestPositionsSurviveComments(t *testing.T) {
	src := "// licence\n/* block\n   comment */ {\n  \"name\": \"FooData\", // trailing\n" +
		"  \"type\": \"data\", \"validVersions\": \"0\", \"flexibleVersions\": \"none\",\n" +
		"  /* inline */ \"bogus\": 1,\n  \"fields\": []\n}\n"
	_, err := Load("x.json", []byte(src))
	require.Error(t, err)
	assert.Equal(t, `x.json:6:16: FooData: unknown attribute "bogus"`, err.Error())
}

// TestValuesQuotedAsWritten: a diagnostic quoting a value shows it as
// written, comments included, though gjson read it with comments blanked.
func TestValuesQuotedAsWritten(t *testing.T) {
	src := `{"name": "FooData", "type": "data", "validVersions": "0", "flexibleVersions": "none",
  "fields": [{"name": "A", "type": "int32", "versions": "0+", "ignorable": [1, /* one */ 2]}]}`
	_, err := Load("x.json", []byte(src))
	require.Error(t, err)
	assert.Equal(t, `x.json:2:76: FooData.A: "ignorable" must be a boolean, found [1, /* one */ 2]`, err.Error())
}

func TestLoadNeverPanics(t *testing.T) {
	inputs := []string{
		"", " ", "{", "}", "[]", "null", "0", `"x"`, "{}", `{"fields": 1}`, `{"fields": [1, null, []]}`,
		`{"name": "X", "type": "data", "validVersions": "0", "flexibleVersions": "0+", "fields": [{"name": "A", "type": "B"}]}`,
		`{"name": "X", "type": "data", "validVersions": "0", "flexibleVersions": "0+", "commonStructs": [{}, 1], "fields": [{}]}`,
		`{"name": "X", "type": "data", "validVersions": "0", "flexibleVersions": "0+", "fields": [{"name": "A", "type": "A", "versions": "0+", "fields": [{"name": "A", "type": "A", "versions": "0+"}]}]}`,
		"\x00\xff\xfe", "/*", "//", `{"a": "\u00zz"}`, `"\`, `{"a": "\`, `{"a": "x\"`, "\"\\",
	}
	for _, in := range inputs {
		assert.NotPanics(t, func() { _, _ = Load("x.json", []byte(in)) }, "%q", in)
	}
}

// BenchmarkLoadCorpus loads every folder of Kafka's spec corpus (the syntax
// scan and gjson's reading of each file, validation, resolution and the
// package rules).
func BenchmarkLoadCorpus(b *testing.B) {
	root := os.Getenv("KAFKA_SPEC_DIR")
	if root == "" {
		root = filepath.Join("..", "..", "..", "shared", "kafka-spec")
	}
	var dirs []string
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			if files, _ := filepath.Glob(filepath.Join(path, "*.json")); len(files) > 0 {
				dirs = append(dirs, path)
			}
		}
		return nil
	})
	if len(dirs) == 0 {
		b.Skipf("Kafka spec corpus not found at %s: set KAFKA_SPEC_DIR", root)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, dir := range dirs {
			if _, err := LoadDir(dir); err != nil {
				b.Fatal(err)
			}
		}
	}
}
