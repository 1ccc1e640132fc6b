package acl

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kafkagen/kafkagen/runtime"
)

// TopicNames resolves the ids it learned, learns neither the zero id nor
// an empty name, keeps a name that is not the answer's memory, and stops
// learning at its limit while still renaming what it knows.
func TestTopicNames(t *testing.T) {
	id := func(b byte) runtime.UUID { return runtime.UUID{b} }
	type learn struct {
		id   runtime.UUID
		name string
	}
	tests := []struct {
		name   string
		limit  int
		learns []learn
		want   map[runtime.UUID]string // resolved; ids absent here are unknown
	}{
		{"learned", 0, []learn{{id(1), "a"}, {id(2), "b"}}, map[runtime.UUID]string{id(1): "a", id(2): "b"}},
		{"zero id and empty name", 0, []learn{{runtime.UUID{}, "a"}, {id(1), ""}}, map[runtime.UUID]string{}},
		{"the last name wins", 0, []learn{{id(1), "a"}, {id(1), "b"}}, map[runtime.UUID]string{id(1): "b"}},
		{"bounded", 2, []learn{{id(1), "a"}, {id(2), "b"}, {id(3), "c"}, {id(1), "z"}}, map[runtime.UUID]string{id(1): "z", id(2): "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := &TopicNames{limit: tt.limit}
			for _, l := range tt.learns {
				// The answer's memory is reused after the response.
				buf := []byte(l.name)
				n.Learn(l.id, string(buf))
				copy(buf, "########")
			}
			assert.Equal(t, len(tt.want), n.Len())
			for b := range byte(5) {
				name, ok := n.Name(id(b))
				want, known := tt.want[id(b)]
				assert.Equal(t, known, ok, "id %d known", b)
				assert.Equal(t, want, name, "id %d", b)
			}
		})
	}
}

// Resolving a learned id, and learning one already known, allocate nothing.
func TestTopicNamesAllocatesNothing(t *testing.T) {
	n := &TopicNames{}
	n.Learn(runtime.UUID{1}, "orders")
	name := string([]byte("orders"))
	allocs := testing.AllocsPerRun(1000, func() {
		n.Learn(runtime.UUID{1}, name)
		if got, ok := n.Name(runtime.UUID{1}); !ok || got != "orders" {
			t.Fatal("not resolved")
		}
	})
	assert.Zero(t, allocs)
}
