package jsoncodec

import (
	"testing"

	. "github.com/dave/jennifer/jen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generator/internal/gomodel"
	"github.com/kafkagen/kafkagen/generator/plan"
	"github.com/kafkagen/kafkagen/generator/schema"
)

// TestJSONRefusesClashes: a spec whose Go field would clash with a method
// -json adds, or whose JSON keys collide, is refused with a clear error
// instead of generating code that does not compile.
func TestJSONRefusesClashes(t *testing.T) {
	cases := []struct {
		name, spec, want string
		edit             func(*schema.Spec)
	}{
		{"method name", `{"type": "data", "name": "Clash", "validVersions": "0", "flexibleVersions": "none",
			"fields": [{ "name": "MarshalJSON", "type": "int32", "versions": "0+", "about": "x" }]}`,
			"field MarshalJSON has the Go name MarshalJSON, which -json uses for a method", nil},
		// The loader refuses such names ("duplicate name once the first
		// letter is capitalised"); the printer checks again, for models built
		// otherwise.
		{"same JSON key", `{"type": "data", "name": "Clash", "validVersions": "0", "flexibleVersions": "none",
			"fields": [{ "name": "Offset", "type": "int32", "versions": "0+", "about": "x" },
			           { "name": "Other", "type": "int32", "versions": "0+", "about": "y" }]}`,
			`Clash: fields Offset and offset have the same JSON key "offset"`,
			func(s *schema.Spec) { s.Root.Fields[1].Name = "offset" }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			spec, err := schema.Load("Clash.json", []byte(c.spec))
			require.NoError(t, err)
			if c.edit != nil {
				c.edit(spec)
			}
			names, err := gomodel.Build([]*schema.Spec{spec})
			require.NoError(t, err)
			msg := &gomodel.Message{Names: names, Plan: plan.Build(spec, plan.Options{})}
			assert.EqualError(t, PrintFile(NewFile("clash"), msg), c.want)
		})
	}
}
