package gomodel

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generator/plan"
	"github.com/kafkagen/kafkagen/generator/schema"
)

// defaultsSpec has a field of each kind whose Go zero value is or is not
// its default, all absent at version 1 so that each has an absent-field fix.
const defaultsSpec = `{"type": "data", "name": "Defaults", "validVersions": "0-1", "flexibleVersions": "none",
  "fields": [
    { "name": "Count", "type": "int32", "versions": "0", "default": "1", "about": "A count." },
    { "name": "Zero", "type": "int32", "versions": "0", "about": "Zero by default." },
    { "name": "Counts", "type": "[]int32", "versions": "0", "nullableVersions": "0", "about": "Empty by default." },
    { "name": "NullCounts", "type": "[]int32", "versions": "0", "nullableVersions": "0", "default": "null", "about": "Null by default." },
    { "name": "Plain", "type": "[]int32", "versions": "0", "about": "Not nullable." },
    { "name": "Label", "type": "string", "versions": "0", "nullableVersions": "0", "about": "A label." },
    { "name": "Named", "type": "string", "versions": "0", "default": "x", "about": "Named x." },
    { "name": "Blob", "type": "bytes", "versions": "0", "nullableVersions": "0", "about": "A blob." }
  ]}`

// TestLiteralDefaults: a field whose zero value (a struct literal's) is not
// its default says so in its doc comment and in the encode error of a
// version without it; the others add nothing.
func TestLiteralDefaults(t *testing.T) {
	spec, err := schema.Load("Defaults.json", []byte(defaultsSpec))
	require.NoError(t, err)
	names, err := Build([]*schema.Spec{spec})
	require.NoError(t, err)
	msg := &Message{Names: names, Plan: plan.Build(spec, plan.Options{})}
	fields := map[string]*plan.Field{}
	for _, f := range msg.Plan.Structs[0].Fields {
		fields[f.Schema.Name] = f
	}
	cases := []struct {
		field, docFacts, fix string
	}{
		{"Count", "Versions: 0. Default: 1.", "Count has versions 0; New and Make set its default, 1"},
		{"Zero", "Versions: 0.", "Zero has versions 0"},
		{"Counts", "Versions: 0. Nullable: 0. Default: empty, not null (New and Make set it; the zero value is null).",
			"Counts has versions 0; New and Make set its default, empty, not null"},
		{"NullCounts", "Versions: 0. Nullable: 0. Default: null.", "NullCounts has versions 0"},
		{"Plain", "Versions: 0.", "Plain has versions 0"},
		{"Label", `Versions: 0. Nullable: 0. Default: "", not null (New and Make set it; the zero value is null).`,
			`Label has versions 0; New and Make set its default, "", not null`},
		{"Named", "Versions: 0. Default: x.", `Named has versions 0; New and Make set its default, "x"`},
		{"Blob", "Versions: 0. Nullable: 0. Default: empty, not null (New and Make set it; the zero value is null).",
			"Blob has versions 0; New and Make set its default, empty, not null"},
	}
	for _, c := range cases {
		t.Run(c.field, func(t *testing.T) {
			f := fields[c.field]
			require.NotNil(t, f)
			doc := msg.FieldDoc(f)
			_, facts, _ := strings.Cut(doc, "\n")
			assert.Equal(t, c.docFacts, facts)
			assert.Equal(t, c.fix, msg.AbsentFix(f))
		})
	}
}

// TestSpecialValuesExist: every runtime constant the field docs name is
// declared in runtime/special.go, and every field of the table is in
// Kafka's client specs (when KAFKA_SPEC_DIR or ../shared/kafka-spec has
// them), so that a renamed field or constant cannot drop a note silently.
func TestSpecialValuesExist(t *testing.T) {
	file, err := parser.ParseFile(token.NewFileSet(), filepath.Join("..", "..", "..", "runtime", "special.go"), nil, 0)
	require.NoError(t, err)
	declared := map[string]bool{}
	for _, obj := range file.Scope.Objects {
		if obj.Kind == ast.Con {
			declared[obj.Name] = true
		}
	}
	for key, names := range specialValues {
		for _, name := range names {
			assert.True(t, declared[name], "%v names runtime.%s, which runtime/special.go does not declare", key, name)
		}
	}

	dir := os.Getenv("KAFKA_SPEC_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "..", "shared", "kafka-spec")
	}
	dir = filepath.Join(dir, "clients", "src", "main", "resources", "common", "message")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("Kafka's client specs not found (%v): set KAFKA_SPEC_DIR to check the table's fields", err)
	}
	for key := range specialValues {
		spec, err := schema.LoadFile(filepath.Join(dir, key.spec+".json"))
		require.NoError(t, err, "%v", key)
		found := false
		for _, st := range append([]*schema.Struct{spec.Root}, spec.Structs...) {
			for _, f := range st.Fields {
				found = found || st.Name == key.owner && f.Name == key.field
			}
		}
		assert.True(t, found, "%v: no such field in %s.json", key, key.spec)
	}
}

// TestInitialValues: the composite literal of Make and New holds exactly the
// fields whose zero value is not their default, with the value Reset gives
// them.
func TestInitialValues(t *testing.T) {
	spec, err := schema.Load("Defaults.json", []byte(defaultsSpec))
	require.NoError(t, err)
	names, err := Build([]*schema.Spec{spec})
	require.NoError(t, err)
	want := map[string]string{
		"Count":      "1",
		"Zero":       "",
		"Counts":     "[]int32{}",
		"NullCounts": "",
		"Plain":      "",
		"Label":      "runtime.NullString{\n\tValid: true,\n\tValue: \"\",\n}",
		"Named":      `"x"`,
		"Blob":       "[]byte{}",
	}
	for _, f := range spec.Root.Fields {
		t.Run(f.Name, func(t *testing.T) {
			got := ""
			if v := names.InitialValue(f); v != nil {
				got = fmt.Sprintf("%#v", v)
			}
			assert.Equal(t, want[f.Name], got)
		})
	}
}
