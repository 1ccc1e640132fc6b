package codec

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kafkagen/kafkagen/runtime"
)

// cloneInner and cloneOuter hold every kind of field generated structs have.
type cloneInner struct {
	Host  string
	Bytes []byte
	Tags  runtime.Tags
}

type cloneOuter struct {
	ID       int32
	UUID     runtime.UUID
	Name     runtime.NullString
	Names    []string
	Blobs    [][]byte
	Counts   []int64
	Empty    []int64
	Null     []int64
	Elems    []cloneInner
	Optional *cloneInner
	Absent   *cloneInner
	Inner    cloneInner
	aliased  bool
}

func TestClone(t *testing.T) {
	orig := &cloneOuter{
		ID: 7, UUID: runtime.UUID{1, 2}, Name: runtime.NullString{Value: "n", Valid: true},
		Names: []string{"a", ""}, Blobs: [][]byte{nil, {}, {1}}, Counts: []int64{1, 2}, Empty: []int64{},
		Elems:    []cloneInner{{Host: "h", Bytes: []byte{3}, Tags: runtime.Tags{{Tag: 1, Data: []byte{4}}}}},
		Optional: &cloneInner{Host: "o"},
		Inner:    cloneInner{Host: "i", Bytes: []byte{}},
		aliased:  true,
	}
	c, ok := DeepCopy(orig).(*cloneOuter)
	require.True(t, ok, "the copy has the original's type")
	want := *orig
	want.aliased = false
	require.Equal(t, &want, c)
	assert.NotNil(t, c.Empty, "empty stays empty")
	assert.Nil(t, c.Null, "nil stays nil")
	assert.Nil(t, c.Blobs[0])
	assert.NotNil(t, c.Blobs[1])
	assert.NotNil(t, c.Inner.Bytes)

	// Nothing of the copy changes with the original.
	orig.Names[0] = "changed"
	orig.Blobs[2][0] = 9
	orig.Counts[0] = 9
	orig.Elems[0].Bytes[0] = 9
	orig.Elems[0].Tags[0].Data[0] = 9
	orig.Optional.Host = "changed"
	assert.Equal(t, "a", c.Names[0])
	assert.Equal(t, byte(1), c.Blobs[2][0])
	assert.Equal(t, int64(1), c.Counts[0])
	assert.Equal(t, byte(3), c.Elems[0].Bytes[0])
	assert.Equal(t, byte(4), c.Elems[0].Tags[0].Data[0])
	assert.Equal(t, "o", c.Optional.Host)

	null, ok := DeepCopy((*cloneOuter)(nil)).(*cloneOuter)
	assert.True(t, ok)
	assert.Nil(t, null)
}
