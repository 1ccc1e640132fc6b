package gomodel

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/generator/schema"
)

func dataSpec(t *testing.T, name string) *schema.Spec {
	t.Helper()
	src := fmt.Sprintf(`{"type": "data", "name": %q, "validVersions": "0", "flexibleVersions": "none",
  "fields": [{ "name": "Items", "type": "[]Item", "versions": "0+", "fields": [{ "name": "A", "type": "int32", "versions": "0+" }]}]}`, name)
	s, err := schema.Load(name+".json", []byte(src))
	require.NoError(t, err)
	return s
}

// TestConstructorClashes: a message named like another's Make or New
// constructor is refused, and a nested struct whose name or constructors
// are taken falls back to a longer name.
func TestConstructorClashes(t *testing.T) {
	_, err := Build([]*schema.Spec{dataSpec(t, "Foo"), dataSpec(t, "MakeFoo")})
	require.EqualError(t, err, "MakeFoo.json: message MakeFoo has the Go name MakeFoo, which the constructor of Foo already uses")

	// FooItem's MakeFooItem is the message MakeFooItem: the struct is named
	// with a suffix.
	specs := []*schema.Spec{dataSpec(t, "Foo"), dataSpec(t, "MakeFooItem")}
	n, err := Build(specs)
	require.NoError(t, err)
	require.Equal(t, "FooItem2", n.TypeName(specs[0].Structs[0]))
}
