package plan

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generator/schema"
)

// describe renders a plan one line per struct, step and tag:
//
//	<struct> <within> flexible=<cond> [methods] [repeated] [compared] min=<bytes>
//	  run|one <in place>: <field> [attributes]...
//	  tag <n> <field> <tagged>
//
// A field's attributes are those that say more than its step: present
// (when it differs from in place), nullable, compact (variable-length
// fields written in place), default (when not the zero value), inline.
func describe(m *Message) string {
	var b strings.Builder
	for _, s := range m.Structs {
		fmt.Fprintf(&b, "%s %s flexible=%s", s.Schema.Name, s.Within, s.Flexible)
		if s.Methods {
			b.WriteString(" methods")
		}
		if s.Repeated {
			b.WriteString(" repeated")
		}
		if s.Compared {
			b.WriteString(" compared")
		}
		fmt.Fprintf(&b, " min=%d\n", s.MinSize)
		for _, st := range s.Steps {
			kind := "one"
			if st.Run {
				kind = "run"
			}
			fmt.Fprintf(&b, "  %s %s:", kind, st.When)
			for _, f := range st.Fields {
				b.WriteString(" " + f.Schema.Name + attributes(f))
			}
			b.WriteString("\n")
		}
		for _, f := range s.Tagged {
			fmt.Fprintf(&b, "  tag %d %s %s\n", f.Schema.Tag, f.Schema.Name, f.Tagged)
		}
	}
	return b.String()
}

func attributes(f *Field) string {
	var a []string
	if f.Present.On != f.InPlace.On {
		a = append(a, "present="+f.Present.String())
	}
	if !f.Nullable.Never() {
		a = append(a, "nullable="+f.Nullable.String())
	}
	t := f.Schema.Type
	if f.Width == 0 && (t.Array || t.Kind != schema.KindStruct) && !f.InPlace.Never() {
		a = append(a, "compact="+f.Compact.String())
	}
	if d := f.Schema.DefaultValue; d.Null {
		a = append(a, "default=null")
	} else if !d.IsZero() {
		switch t.Kind {
		case schema.KindBool:
			a = append(a, fmt.Sprintf("default=%t", d.Bool))
		case schema.KindString:
			a = append(a, fmt.Sprintf("default=%q", d.String))
		case schema.KindUint16, schema.KindUint32:
			a = append(a, fmt.Sprintf("default=%d", d.Uint))
		case schema.KindFloat64:
			a = append(a, fmt.Sprintf("default=%g", d.Float))
		case schema.KindUUID:
			a = append(a, fmt.Sprintf("default=%x", d.UUID))
		default:
			a = append(a, fmt.Sprintf("default=%d", d.Int))
		}
	}
	if f.Inline {
		a = append(a, "inline")
	}
	if len(a) == 0 {
		return ""
	}
	return " " + strings.Join(a, " ")
}

// goldenSpec loads the one spec of a golden case whose name is given.
func goldenSpec(t *testing.T, dir, name string) *schema.Spec {
	t.Helper()
	specs, err := schema.LoadDir(filepath.Join("..", "..", "testdata", "golden", dir))
	require.NoError(t, err)
	for _, s := range specs {
		if s.Name == name {
			return s
		}
	}
	require.Failf(t, "no such spec", "%s in testdata/golden/%s", name, dir)
	return nil
}

// TestPlanGoldenSpecs pins the plan of golden specs, step by step. The
// expectations were written from the spec files by hand.
func TestPlanGoldenSpecs(t *testing.T) {
	cases := []struct {
		dir, spec string
		opts      Options
		want      string
	}{
		{"versions_straddle", "VersionsStraddle", Options{}, `
VersionsStraddle 0-5 flexible=3-5 methods min=3
  one always: Name compact=3-5
  one 1-4: Window compact=3-5
  run 0-2: OldOnly
  run 2-3: Middle
  one 2-5: Groups compact=3-5 inline
Group 2-5 flexible=3-5 repeated min=2
  one always: GroupId compact=3-5
  one 4-5: Members compact=3-5
  run 2-3: State
`},
		// Pruned to versions 3 and up, the struct is only used flexible and
		// every field but the group's members is in place at every version.
		{"versions_straddle", "VersionsStraddle", Options{MinVersion: 3}, `
VersionsStraddle 3-5 flexible=always methods min=3
  one always: Name compact=always
  one 3-4: Window compact=always
  one never: OldOnly
  run 3: Middle
  one always: Groups compact=always inline
Group 3-5 flexible=always repeated min=3
  one always: GroupId compact=always
  one 4-5: Members compact=always
  run 3: State
`},
		{"tagged", "TaggedExample", Options{}, `
TaggedExample 0-3 flexible=1-3 methods min=5
  run always: PlainField
  one never: LeaderEpoch present=1-3 default=-1
  one never: ClientName present=1-3 default="anonymous"
  one never: Rack present=1-3 nullable=always default=null
  one never: Replicas present=1-3
  one never: Enabled present=1-3 default=true
  one never: TopicId present=1-3
  one never: Ratio present=1-3 default=0.5
  run 0-1: Leader present=always default=-1
  one never: Snapshot present=1-3
  tag 0 LeaderEpoch always
  tag 1 ClientName always
  tag 2 Rack always
  tag 3 Replicas always
  tag 4 Enabled always
  tag 5 TopicId always
  tag 6 Ratio always
  tag 7 Leader 2-3
  tag 8 Snapshot always
SnapshotId 1-3 flexible=always methods compared min=13
  run always: EndOffset default=-1 Epoch default=-1
  one never: Note present=always default="none"
  tag 0 Note always
`},
		{"nullable_struct", "NullableStructExample", Options{}, `
NullableStructExample 0-4 flexible=3-4 methods min=2
  one always: Coordinator nullable=2-4
  one always: Cursor nullable=always default=null
  one never: Checkpoint present=3-4 nullable=always default=null
  one never: Hint present=3-4 nullable=always
  tag 0 Checkpoint always
  tag 1 Hint always
Node 0-4 flexible=3-4 methods compared min=5
  run always: NodeId default=-1
  one always: Host compact=3-4
Cursor 0-4 flexible=3-4 methods compared min=8
  run always: Position
Checkpoint 3-4 flexible=always methods compared min=9
  run always: Offset default=-1
Hint 3-4 flexible=always methods compared min=3
  run always: Weight default=1
`},
		// Endpoint is used by a struct field, an array inlined (a leaf)
		// and another common struct; Cluster is not a leaf, so its array
		// calls its methods.
		{"common_structs", "CommonStructsExample", Options{}, `
CommonStructsExample 0-1 flexible=1 methods min=4
  one always: Primary
  one always: Backups compact=1 inline
  one 1: Clusters compact=1
Endpoint 0-1 flexible=1 methods repeated compared min=3
  one always: Host compact=1
  run always: Port default=9092
Cluster 1 flexible=always methods repeated min=5
  one always: ClusterId compact=always
  one always: Controller
`},
		{"nullable_arrays", "NullableArrays", Options{}, `
NullableArrays 0-2 flexible=2 methods min=4
  one always: BrokerIds nullable=always compact=2 default=null
  one always: Names nullable=1-2 compact=2
  one always: Values nullable=always compact=2
  one always: Items nullable=always compact=2 default=null inline
  one 1-2: Blobs nullable=2 compact=2
Item 0-2 flexible=2 repeated min=2
  one always: Key compact=2
  one always: Payload nullable=always compact=2
`},
		{"ignorable", "IgnorableExample", Options{}, `
IgnorableExample 0-2 flexible=never methods min=5
  run always: Always
  one 1-2: Hint compact=never
  run 1-2: Required
  run 2: Timeout default=30000
  one 0-1: Legacy compact=never
  one 2: Flags
Flags 2 flexible=never methods compared min=1
  run always: Verbose
`},
		{"field_flexible", "ExampleHeader", Options{}, `
ExampleHeader 0-3 flexible=2-3 methods min=6
  run always: RequestApiKey CorrelationId
  one 1-3: ClientId nullable=always compact=never
  one 2-3: Token compact=3
`},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/min%d", c.spec, c.opts.MinVersion), func(t *testing.T) {
			m := Build(goldenSpec(t, c.dir, c.spec), c.opts)
			assert.Equal(t, strings.TrimPrefix(c.want, "\n"), describe(m))
		})
	}
}

func TestCond(t *testing.T) {
	v := func(lo, hi int16) schema.Versions { return schema.Versions{Lo: lo, Hi: hi} }
	cases := []struct {
		on, within    schema.Versions
		always, never bool
		test          Test
	}{
		{v(0, schema.NoMax), v(0, 5), true, false, Test{}},
		{v(6, 9), v(0, 5), false, true, Test{}},
		{schema.None, v(0, 5), false, true, Test{}},
		{v(3, schema.NoMax), v(0, 5), false, false, Test{Lo: 3, Hi: 5, HasLo: true}},
		{v(0, 2), v(0, 5), false, false, Test{Lo: 0, Hi: 2, HasHi: true}},
		{v(2, 3), v(0, 5), false, false, Test{Lo: 2, Hi: 3, HasLo: true, HasHi: true}},
		{v(4, 4), v(0, 5), false, false, Test{Lo: 4, Hi: 4, Eq: true}},
		{v(1, 9), v(3, 3), true, false, Test{}},
	}
	for _, c := range cases {
		cond := when(c.on, c.within)
		assert.Equal(t, c.always, cond.Always(), "%s within %s", c.on, c.within)
		assert.Equal(t, c.never, cond.Never(), "%s within %s", c.on, c.within)
		if !cond.Static() {
			assert.Equal(t, c.test, cond.Test(), "%s within %s", c.on, c.within)
		}
	}
}
